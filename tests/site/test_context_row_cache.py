"""The rows a page kit keeps between context pages (generator/site/pages/context_rows.py,
ContextRows): a page made by a kit that rendered other pages first is byte for byte the
page a fresh kit makes — whatever value of a row changed since, in whatever language —
and the kit keeps a bounded number of rows. Each variant below changes one value a row
shows; were it left out of the row's key, the warm kit would return the row as it was
before and the page would differ from the fresh one."""

from __future__ import annotations

import pytest

from generator.engine import CompileInput, compile_context
from generator.engine.models import ExclusionReason, Selector, made
from generator.phrases import Phrase
from generator.site import i18n
from generator.site.build import SiteInputs, page_kit
from generator.site.contexts import ContextKey
from generator.site.pages.context import context_files
from generator.site.pages.context_rows import ContextRows
from generator.workspace import Workspace


@pytest.fixture(scope="module")
def ws():
    return Workspace.open(None)


def _kit(ws, limit: int | None = None):
    kit = page_kit(SiteInputs(index=ws.index, label="nimbus", files=ws.tree.files))
    if limit is not None:
        kit.context_rows = ContextRows(limit)
    return kit


def _key(ws, identity: str) -> ContextKey:
    obj = ws.index.objects[f"majordomus://issue/{identity}"]
    return ContextKey("issue", obj.identity, obj.uri)


def _page(kit, key, answer) -> bytes:
    return context_files(kit, key, answer)[1][1]


def _replace(answer, field: str, i: int, row):
    rows = list(getattr(answer, field))
    rows[i] = row
    return answer.model_copy(update={field: tuple(rows)})


def _with_phrase(row, phrase: Phrase | None, **values):
    """``row`` with other values (and phrase), as the engine makes it."""
    return made(type(row), phrase, **{**row.__dict__, **values})


def _reworded(phrase: Phrase, name: str, value) -> Phrase:
    return Phrase(phrase.template, tuple((k, value if k == name else v) for k, v in phrase.params),
                  phrase.plural)


def _exclusion_variants(answer):
    """(label, answer) with one value of one exclusion row changed, for each reason."""
    seen = set()
    for i, x in enumerate(answer.excluded):
        if x.reason in seen or x.reason is ExclusionReason.unresolved:
            continue
        seen.add(x.reason)
        r = x.reason.value
        phrase = x.phrase
        for label, row in [("cost", _with_phrase(x, phrase, cost_tokens=x.cost_tokens + 7)),
                           ("relevance", _with_phrase(x, phrase, relevance=0.013)),
                           ("detail without a phrase", _with_phrase(x, None, detail="other"))]:
            yield f"{r}: {label}", _replace(answer, "excluded", i, row)
        for name, value in phrase.params:  # each parameter of its detail phrase
            if isinstance(value, Phrase):
                new = Phrase(value.template, tuple((k, f"{v}x" if isinstance(v, str) else v)
                                                   for k, v in value.params), value.plural)
            elif isinstance(value, bool) or not isinstance(value, (int, float, str)):
                continue
            elif isinstance(value, str):
                new = value + "x"
            else:
                new = value + 3
            yield (f"{r}: {name}", _replace(answer, "excluded", i,
                                            _with_phrase(x, _reworded(phrase, name, new))))


def _selected_variants(answer):
    """(label, answer) with one value of a selected row, or of one of its paths, changed."""
    i, e = next((i, e) for i, e in enumerate(answer.selected) if e.discovered_by)
    for field, value in [("title", "Another title"), ("required", not e.required),
                         ("relevance", 0.011), ("confidence", 0.017), ("cost_tokens", 12345),
                         ("depth", e.depth + 2), ("facts", {**e.facts, "state": "DONE?"})]:
        row = e.model_copy(update={field: value})
        yield f"selected: {field}", _replace(answer, "selected", i, row)
    d = e.discovered_by[0]
    other_selector = (Selector.seed if d.selector is Selector.intent_match
                      else Selector.intent_match)
    for field, value in [("weight", 0.123), ("confidence", 0.5), ("depth", d.depth + 3),
                         ("via", "majordomus://adr/ADR-0001"), ("edge", "other_edge"),
                         ("selector", other_selector)]:
        path = _with_phrase(d, d.phrase, **{field: value})
        yield (f"path: {field}", _replace(answer, "selected", i, e.model_copy(
            update={"discovered_by": (path, *e.discovered_by[1:])})))
    for label, reason in [("path: reason", "another reason"), ("path: its phrase", d.reason)]:
        path = made(type(d), Phrase("another reason"), **{**d.__dict__, "reason": reason})
        yield label, _replace(answer, "selected", i, e.model_copy(
            update={"discovered_by": (path, *e.discovered_by[1:])}))


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_warm_kit_makes_the_page_a_fresh_kit_makes_whatever_value_changed(ws, language):
    key = _key(ws, "I0201")
    answers = [compile_context(ws.index, CompileInput(issue="I0201", **r))
               for r in ({}, {"budget_tokens": 2000}, {"floor": 0.7})]
    variants = []
    for answer in answers:
        variants += _exclusion_variants(answer)
    variants += _selected_variants(answers[0])
    labels = {label.split(":")[0] for label, _a in variants}
    assert {"budget", "depth", "relevance", "selected", "path"} <= labels, labels
    with i18n.using(language):
        warm = _kit(ws)
        for label, changed in variants:
            original = next(a for a in answers if a.request == changed.request)
            before = _page(warm, key, original)  # its rows are kept, then one value changes
            fresh = _page(_kit(ws), key, changed)
            assert fresh != before, f"{label}: the variant changes nothing the page shows"
            assert _page(warm, key, changed) == fresh, f"{label}: the kit kept an old row"
        assert warm.context_rows.page.hits > 0  # the variants' other rows were kept


def test_pages_in_two_languages_from_one_kit_are_each_languages_own(ws):
    key = _key(ws, "I0201")
    answer = compile_context(ws.index, CompileInput(issue="I0201", budget_tokens=2000))
    kit = _kit(ws)
    pages = {}
    for language in ("en", "cs", "en"):
        with i18n.using(language):
            pages.setdefault(language, []).append(_page(kit, key, answer))
            assert pages[language][-1] == _page(_kit(ws), key, answer), language
    assert pages["en"][0] == pages["en"][1] != pages["cs"][0]


def test_a_kit_keeps_a_bounded_number_of_rows_and_the_pages_stay_the_same(ws):
    keys = [ContextKey("issue", o.identity, o.uri) for o in ws.index.by_kind["issue"]]
    answers = [compile_context(ws.index, CompileInput(issue=k.identity, budget_tokens=b))
               for k in keys for b in (1500, 4000)]
    small, fresh = _kit(ws, limit=8), _kit(ws)
    with i18n.using("en"):
        for key, answer in zip([k for k in keys for _b in (1, 2)], answers):
            assert _page(small, key, answer) == _page(fresh, key, answer)
            rows = small.context_rows.page
            assert len(rows) <= 8, len(rows)
            assert len(rows._heads) <= len(ws.index.objects)
    assert len(fresh.context_rows.page) > 8  # the bound was reached, and held


def test_a_page_of_another_index_or_request_limits_gets_rows_of_its_own(ws):
    rows = ContextRows()
    answer = compile_context(ws.index, CompileInput(issue="I0201"))
    other = compile_context(ws.index, CompileInput(issue="I0201", max_depth=0))
    with i18n.using("en"):
        one = rows.for_page(ws.index, "../../", answer.request)
        assert rows.for_page(ws.index, "../../", answer.request) is one
        assert rows.for_page(ws.index, "../", answer.request) is not one
        assert rows.for_page(Workspace.open(None).index, "../../", answer.request) is not one
        two = rows.for_page(ws.index, "../../", other.request)
        assert two is not one and two.key != one.key
    with i18n.using("cs"):
        assert rows.for_page(ws.index, "../../", other.request) is not two
