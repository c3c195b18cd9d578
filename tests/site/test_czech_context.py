"""A Czech context page says the engine's sentences in Czech, with Czech numbers — straight
from the compile, and again when the page is made from the answer a build kept — and the
kind, plan, performance and search pages say their own words in Czech."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from generator.engine import CompileInput, compile_context
from generator.site import i18n
from generator.site.build import SiteInputs, build_site, page_kit
from generator.site.charts import fmt_figure
from generator.site.contexts import ContextKey, StandingFact, standings_of
from generator.site.pages.context import context_files
from generator.site.reasons import params_of
from generator.workspace import Workspace
from generator.writer import write_site

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def ws():
    return Workspace.open(None)


@pytest.fixture(scope="module")
def kit(ws):
    return page_kit(SiteInputs(index=ws.index, label="nimbus", files=ws.tree.files))


@pytest.fixture(scope="module")
def key(ws):
    obj = ws.index.objects["majordomus://issue/I0201"]
    return ContextKey("issue", obj.identity, obj.uri)


def _text(html: bytes) -> str:
    """The page's text, tags dropped, entities and spaces as a reader sees them."""
    return unescape(re.sub(r"<[^>]+>", "", html.decode("utf-8")))


def _page(kit, key, answer, code="cs") -> str:
    with i18n.using(code):
        return _text(context_files(kit, key, answer)[1][1])


def test_a_budget_exclusion_is_said_in_czech_with_czech_numbers(ws, kit, key):
    answer = compile_context(ws.index, CompileInput(issue=key.identity, budget_tokens=2000))
    budget = [x for x in answer.excluded if x.reason.value == "budget"]
    assert budget, "a 2,000-token budget leaves entries out"
    _, p = params_of(budget[0], answer.budget)  # with the answer's sums, if it leaves them
    used, limit, needed = (f"{p[k]:,}".replace(",", NBSP) for k in ("used", "limit", "n"))
    text = _page(kit, key, answer)
    # the group says the sums once, the row the budget that brings it in
    assert f"Rozpočet {limit} tokenů se utrácí v pořadí úrovní" in text
    assert (f"bylo utraceno nebo rezervováno {used} z {limit}, pokud její řádek neuvádí "
            "jinak") in text
    assert "Řádek uvádí rozpočet, který ji přivede dovnitř" in text
    low = f"{p['low']:,}".replace(",", NBSP) if "low" in p else None
    assert (f"{needed}; žádný pod {low}" if low else needed) in text
    assert not [w for w in ("brings it in", "spent or reserved", "none below") if w in text]
    # the group's heading and shared sentence write their numbers the Czech way too
    assert re.search(r"\d+ položk\w* za \d{1,3}(\u00a0\d{3})+ tokenů", text)
    assert not re.search(r"položk\w* za \d+,\d{3}", text)
    # the English page says the same facts, the group's sentence and the row's together
    english = _page(kit, key, answer, "en")
    assert (f"{p['n']:,}; none below {p['low']:,}" if "low" in p else f"{p['n']:,}") in english
    assert f"{p['used']:,} of the {p['limit']:,} being spent or reserved" in english


def test_the_context_pages_engine_sentences_are_czech(ws, kit, key):
    answer = compile_context(ws.index, CompileInput(issue=key.identity))
    text = _page(kit, key, answer)
    for czech in ("jmenovaný v požadavku", "po hraně ",
                  "Dosaženo po 4 krocích od výchozího bodu, o jeden za max_depth požadavku 3: "
                  "každý řádek uvádí jak; max_depth 4 ho přivede dovnitř.",
                  "jeden objekt dosažený 2 cestami:", "podle druhu: adr → decision",
                  "nedostupné: není to pracovní kopie gitu", "uvádí ho"):
        assert czech in text, czech
    for english in ("named in the request", "hops from a seed", "discovery paths", "along ",
                    "by kind:", "not a git checkout", "and not held"):
        assert english not in text, english
    # the budget picture's tooltips: Czech plural forms and grouping
    with i18n.using("cs"):
        svg = context_files(kit, key, answer)[1][1].decode("utf-8")
    assert re.search(r"<title>history: [\d\u00a0]+ tokenů, vybráno: \d+</title>", svg)
    assert re.search(r"<title>governance: [\d\u00a0]+ tokenů, vybráno: \d+, z toho povinné: "
                     r"\d+</title>", svg)
    assert "tokens," not in svg


def test_an_objects_standing_carries_its_phrase(ws, key):
    answer = compile_context(ws.index, CompileInput(issue=key.identity, budget_tokens=2000))
    standings = [StandingFact(*fact) for rows in standings_of(answer).values() for fact, _ in rows
                 if fact[0] != "selected"]
    assert standings and all(s.phrase is not None and str(s.phrase) == s.detail
                             for s in standings)
    budget = next(s for s in standings if s.word == "budget")
    with i18n.using("cs"):
        assert i18n.speak(budget.phrase) == ("nevešlo se do toho, co zbylo po předchozích "
                                             "položkách; součty ukazuje stránka kontextu")


@pytest.fixture(scope="module")
def czech_site(ws, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cs") / "site"
    write_site(build_site(SiteInputs(index=ws.index, label="nimbus", files=ws.tree.files,
                                     languages=("cs",))), out)
    return out


def test_the_kind_page_is_czech(czech_site):
    text = _text((czech_site / "kinds" / "adr.html").read_bytes())
    assert "Všechny objekty druhu adr" in text and "Přehled › druhy" in text
    assert "Every adr" not in text and "contexts reaching it" not in text


def test_the_plan_says_why_an_issue_is_in_its_state_in_czech(czech_site):
    text = _text((czech_site / "plan.html").read_bytes())
    assert "závisí na I0201, který je ve stavu PROBÍHÁ" in text
    assert "depends on" not in text and "completed at" not in text
    assert 'translate="no"><tspan' in (czech_site / "plan.html").read_text(encoding="utf-8")


def test_the_search_page_carries_its_words_in_czech(czech_site):
    html = (czech_site / "search.html").read_text(encoding="utf-8")
    words = json.loads(re.search(r'<script type="application/json" id="search-strings">(.*?)'
                                 r"</script>", html, re.DOTALL).group(1))
    assert words["counts"] == "Zobrazeno {shown} z {matched} nalezených; prohledáno {scanned}."
    assert words["ordered"] == "Seřazeno podle:"


def test_a_figure_is_written_the_languages_way():
    assert (fmt_figure(1204.3), fmt_figure(41.25), fmt_figure(0.027)) == ("1,204", "41.2", "0.027")
    with i18n.using("cs"):
        assert (fmt_figure(1204.3), fmt_figure(41.25), fmt_figure(0.027)) == (
            f"1{NBSP}204", "41,2", "0,027")


def test_a_czech_search_shows_its_results_in_czech_in_a_browser(browser, czech_site):
    """What search.js writes at run time: the counts and the order rules in Czech (the trace
    it ranks by keeps the engine's English rules, as the server's does)."""
    from browserkit import PageWatch

    watch = PageWatch(browser)
    try:
        page = watch.open((czech_site / "search.html").as_uri() + "?q=cache")
        page.wait_for_selector("#search-results li.search-hit")
        text = page.inner_text("#search-results")
        assert "Seřazeno podle:" in text and "druh vzestupně" in text, text
        assert "skóre sestupně: shoda v id ×4" in text
        assert "kind asc" not in text and "per matched term" not in text
        assert watch.errors == []
    finally:
        watch.close()
