"""The two languages: --lang parsing, the Czech catalogue (complete, plural forms word for
word), numbers and dates per language, and the language switch of an en,cs build."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from generator.cli import main
from generator.errors import InputError
from generator.site import i18n
from generator.site.messages import LOCALE_DIR, NOT_YET, extract
from generator.site.templating import make_environment

PO = LOCALE_DIR / "cs" / "LC_MESSAGES" / "messages.po"


def _catalogue():
    with open(PO, "rb") as fh:
        return read_po(fh)


# -- --lang -------------------------------------------------------------------------

@pytest.mark.parametrize("option, codes", [(None, ("en",)), ("en", ("en",)), ("cs", ("cs",)),
                                           ("en,cs", ("en", "cs")), (" CS , en ", ("cs", "en"))])
def test_lang_option_names_the_languages_in_order(option, codes):
    assert i18n.parse_languages(option) == codes


def test_an_unknown_language_is_refused_naming_what_is_offered():
    with pytest.raises(InputError) as err:
        i18n.parse_languages("de")
    assert err.value.message == (
        "--lang de: expected languages from en (English), cs (Čeština), separated by commas; "
        "found de. Give e.g. --lang cs, or --lang en,cs for both (the first at the site's "
        "root, the other under cs/).")


def test_a_language_given_twice_is_refused():
    with pytest.raises(InputError, match=r"--lang cs,cs: expected each language once"):
        i18n.parse_languages("cs,cs")


def test_build_with_an_unknown_language_exits_2_before_any_work(tmp_path, capsys):
    assert main(["build", "--lang", "en,de", "--out", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert "--lang en,de: expected languages from en (English), cs (Čeština)" in err
    assert "found de" in err
    assert not (tmp_path / "site").exists()


# -- the catalogue ---------------------------------------------------------------------

def test_every_extracted_message_has_a_czech_translation():
    """What `make messages` extracts from the templates and the code (babel.cfg) is all in
    the catalogue, translated, with every plural form filled — so no English reaches a
    Czech page through a marked string."""
    catalogue = _catalogue()
    assert catalogue.num_plurals == 3
    missing, partial = [], []
    for message in extract():
        if not message.id:
            continue
        found = catalogue.get(message.id)
        if found is None or not found.string:
            missing.append(message.id)
        elif isinstance(found.string, tuple) and not all(found.string):
            partial.append(message.id)
        elif NOT_YET in found.auto_comments:
            missing.append(f"{message.id!r} is noted {NOT_YET!r}: run make messages")
    assert missing == [] and partial == []
    assert not [m.id for m in catalogue if m.fuzzy and m.id]


def test_placeholders_survive_translation():
    """A translation names the same placeholders as its English, so formatting never fails
    and nothing is dropped."""
    names = re.compile(r"%\((\w+)\)s|\{(\w+)\}")
    wrong = []
    for m in _catalogue():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = {n for n in names.findall(ids[-1])}
        wrong += [m.id for s in strings if {n for n in names.findall(s)} != want]
    assert wrong == []


@pytest.mark.parametrize("n, text", [(1, "1 položka"), (2, "2 položky"), (4, "4 položky"),
                                     (5, "5 položek"), (11, "11 položek"), (22, "22 položek"),
                                     (0, "0 položek")])
def test_czech_plural_forms_word_for_word(n, text):
    with i18n.using("cs"):
        assert i18n.ngettext("{n} entry", "{n} entries", n).format(n=n) == text


def test_czech_plurals_in_a_template():
    env = make_environment()
    template = env.from_string("{{ ngettext('%(num)s entry', '%(num)s entries', n) }}")
    with i18n.using("cs"):
        assert [template.render(n=n) for n in (1, 3, 5)] == ["1 položka", "3 položky", "5 položek"]
    assert template.render(n=1) == "1 entry"


def test_templates_translate_in_czech_and_stay_english_by_default():
    env = make_environment()
    template = env.from_string("<html lang=\"{{ language() }}\">{{ _('Dashboard') }}")
    assert template.render() == '<html lang="en">Dashboard'
    with i18n.using("cs"):
        assert template.render() == '<html lang="cs">Přehled'


# -- numbers and dates ---------------------------------------------------------------------

def test_numbers_in_czech_group_with_a_non_breaking_space_and_use_a_decimal_comma():
    env = make_environment()
    template = env.from_string("{{ 23931|n }} · {{ 0.25|num }} · {{ 1.0|num }} · {{ 7|n }}")
    assert template.render() == "23,931 · 0.25 · 1 · 7"
    with i18n.using("cs"):
        assert template.render() == "23\u00a0931 · 0,25 · 1 · 7"


def test_dates_are_written_for_the_language():
    day = date(2026, 12, 1)
    assert i18n.format_date(day) == "December 1, 2026"
    with i18n.using("cs"):
        assert i18n.format_date(day) == "1. prosince 2026"
        assert i18n.format_date("2026-03-05T10:00:00Z") == "5. března 2026"
        assert i18n.format_date("not a date") == "not a date"


# -- a build of both -------------------------------------------------------------------

@pytest.fixture(scope="module")
def both(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("both") / "site"
    assert main(["build", "--lang", "en,cs", "--out", str(out), "-q"]) == 0
    return out


def test_english_at_the_root_czech_under_cs(both):
    en = (both / "index.html").read_text(encoding="utf-8")
    cs = (both / "cs" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in en and "Every answer here says why." in en
    assert '<html lang="cs">' in cs and "Každá odpověď zde říká proč." in cs
    assert ">Přehled</a>" in cs and ">Diagnostika</a>" in cs


def test_the_json_is_the_same_in_both_languages(both):
    """The JSON is contract data, English in every language's tree."""
    for path in sorted((both / "api").rglob("*.json")):
        assert (both / "cs" / path.relative_to(both)).read_bytes() == path.read_bytes()


_SWITCH = re.compile(r'<nav class="languages"[^>]*>\s*<a href="([^"]+)" hreflang="(\w+)"')


def test_every_page_links_the_same_page_in_the_other_language(both):
    pages = [p for p in sorted(both.rglob("*.html")) if p.name != "404.html"]
    assert len(pages) > 100
    for path in pages:
        rel = path.relative_to(both).as_posix()
        html = path.read_text(encoding="utf-8")
        found = _SWITCH.search(html)
        assert found, f"{rel}: no language switch"
        href, code = found.groups()
        own = "cs" if rel.startswith("cs/") else "en"
        assert code == ("en" if own == "cs" else "cs"), rel
        target = (path.parent / href).resolve()
        counterpart = rel[3:] if own == "cs" else f"cs/{rel}"
        assert target == (both / counterpart).resolve(), rel
        assert target.is_file(), rel


def test_a_single_language_build_has_no_switch(tmp_path):
    assert main(["build", "--lang", "cs", "--out", str(tmp_path / "site"), "-q"]) == 0
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="cs">' in html and 'class="languages"' not in html
    assert not (tmp_path / "site" / "cs").exists()


# -- serve ---------------------------------------------------------------------------

def test_serve_takes_one_language(tmp_path, capsys):
    assert main(["serve", "--lang", "en,cs", "--out", str(tmp_path / "site")]) == 2
    assert ("--lang en,cs: serve renders one language, found 2. Give one (--lang en); "
            "devcontext build --lang en,cs writes them all.") in capsys.readouterr().err


def test_the_process_language_reaches_other_threads():
    """serve's rebuilds run in threads of their own, where no build has set a language."""
    import threading

    seen = []
    try:
        i18n.set_process_language("cs")
        worker = threading.Thread(target=lambda: seen.append((i18n.language(), i18n._("Plan"))))
        worker.start()
        worker.join()
        with i18n.using("en"):
            seen.append((i18n.language(), i18n._("Plan")))
    finally:
        i18n.set_process_language("en")
    assert seen == [("cs", "Plán"), ("en", "Plan")]
    assert i18n.language() == "en"


def _descriptions(node, into: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                into.append(value)
            else:
                _descriptions(value, into)
    elif isinstance(node, list):
        for value in node:
            _descriptions(value, into)


SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec"


def test_every_description_of_the_spec_schemas_is_translated():
    """The reference pages show the contract's descriptions verbatim (keyed by their exact
    English text), so the Czech pages need every one of them, in both schemas."""
    import json

    names = ("devcontext-explain-input.schema.json", "devcontext-explanation.schema.json")
    if not all((SPEC / n).is_file() for n in names):
        pytest.skip("../shared/spec is not present")
    texts: list[str] = []
    for name in names:
        _descriptions(json.loads((SPEC / name).read_text(encoding="utf-8")), texts)
    assert len(set(texts)) >= 100
    catalogue = _catalogue()
    missing = [t[:60] for t in dict.fromkeys(texts)
               if catalogue.get(t) is None or not catalogue.get(t).string]
    assert missing == []
    with i18n.using("cs"):
        assert i18n._("The tier.") == "Úroveň."
