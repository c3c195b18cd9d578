"""The interface language of a build: one active gettext catalogue that templates and page
code both translate through, and the numbers and dates formatted for it.

Python code marks its interface strings with :func:`_` / :func:`ngettext` (translated when
called, so call them while rendering, not at import) or :func:`N_` (marked for extraction,
translated later by whoever shows it). Until a language is activated every string is its
English self.

The catalogues are Babel's: ``generator/locale/<lang>/LC_MESSAGES/messages.po``, shipped as
package data and compiled in memory when first used (no ``.mo`` to fall out of step with
its ``.po``); plural forms follow the ``Plural-Forms`` header Babel writes for the language
(Czech: 1 položka, 2 položky, 5 položek). ``make messages`` extracts the marked strings
(``babel.cfg``) and updates the catalogues (:mod:`generator.site.messages`).

A build of several languages puts the first at the site's root and each other one under
``<lang>/``; :func:`language_links` gives a page its links to the same page in the others.
The language is a context variable, set around each step of a build's stream
(:func:`translated`): forked workers inherit it, and a server's threads each set their own.
"""

from __future__ import annotations

import gettext
import io
import posixpath
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from importlib import resources
from typing import Iterable, Iterator, TypeVar

from babel import Locale
from babel.dates import format_date as _babel_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from ..engine.numbers import fmt_number
from ..errors import InputError
from ..phrases import N_, Param, Phrase, param_text

__all__ = [
    "LANGUAGES",
    "DEFAULT_LANGUAGE",
    "Language",
    "N_",
    "_",
    "active",
    "catalogue",
    "format_count",
    "format_date",
    "format_number",
    "language",
    "language_links",
    "ngettext",
    "parse_languages",
    "set_process_language",
    "site_path",
    "speak",
    "speak_or",
    "translated",
    "using",
]

#: The languages a site can be built in: code -> the language's name in itself (what the
#: language switch shows).
LANGUAGES = {"en": "English", "cs": "Čeština"}
DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True)
class Language:
    """The language pages are being rendered in, and the languages of the whole build
    (the first at the site's root, each other under ``<code>/``)."""

    code: str
    translations: gettext.NullTranslations
    site: tuple[str, ...] = (DEFAULT_LANGUAGE,)


_ACTIVE: ContextVar[Language] = ContextVar("devcontext_language")
#: The language where none is set: English, or the one a long-lived process renders in
#: (:func:`set_process_language`: ``serve --lang``, whose rebuilds run in other threads).
_PROCESS = [Language(DEFAULT_LANGUAGE, gettext.NullTranslations())]


def _current() -> Language:
    return _ACTIVE.get(_PROCESS[0])


def active() -> gettext.NullTranslations:
    """The catalogue the current build renders with."""
    return _current().translations


def language() -> str:
    """The code of the language being rendered (``<html lang>``)."""
    return _current().code


def _(message: str) -> str:
    return _current().translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current().translations.ngettext(singular, plural, n)


def set_process_language(code: str) -> None:
    """Render in ``code`` wherever no build sets a language (every thread of this process)."""
    _PROCESS[0] = Language(code, catalogue(code), (code,))


def speak(phrase: Phrase) -> str:
    """``phrase`` in the language being rendered: its template translated (the plural form
    the language's rule picks for ``n``), counts and numbers written the language's way,
    nested phrases spoken too, names and paths as they are."""
    if type(active()) is gettext.NullTranslations:  # English: the text the wire carries
        return str(phrase)
    return phrase.render(_template_of, _param_of)


def speak_or(phrase: Phrase | None, text: str) -> str:
    """``phrase`` spoken; a sentence that arrives without its phrase (read back from JSON) can
    only be shown as its English ``text``. That is a phrase lost on the way, which the leak
    test of a Czech build finds — the bug to fix where it is lost, not to hide here."""
    return speak(phrase) if phrase is not None else text


def _template_of(phrase: Phrase) -> str:
    if phrase.plural is not None:
        return ngettext(phrase.template, phrase.plural, phrase.count())
    return _(phrase.template)


def _param_of(value: Param) -> str:
    return param_text(value, phrase=speak, count=format_count, number=format_number)


# -- catalogues -----------------------------------------------------------------------

def _po_text(code: str) -> bytes:
    return (resources.files("generator") / "locale" / code / "LC_MESSAGES" / "messages.po").read_bytes()


@cache
def catalogue(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``code`` (English: none, the msgids are English).

    Compiled from the shipped ``.po`` with Babel; fuzzy entries are left out, as ``msgfmt``
    does, so a guessed translation never reaches a page."""
    if code == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    po = read_po(io.BytesIO(_po_text(code)), locale=code)
    buf = io.BytesIO()
    write_mo(buf, po, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf)


def parse_languages(option: str | None, flag: str = "--lang") -> tuple[str, ...]:
    """``--lang en,cs`` as a tuple of language codes, in the order given (the first is the
    site's root); refused, naming what is offered, when a code is not one of
    :data:`LANGUAGES` or is given twice."""
    if option is None or not option.strip():
        return (DEFAULT_LANGUAGE,)
    codes = tuple(part.strip().lower() for part in option.split(","))
    offered = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
    for code in codes:
        if code not in LANGUAGES:
            shown = code or "an empty name"
            raise InputError(f"{flag} {option}: expected languages from {offered}, separated by "
                             f"commas; found {shown}. Give e.g. {flag} cs, or {flag} en,cs for "
                             "both (the first at the site's root, the other under cs/).")
    if len(set(codes)) != len(codes):
        raise InputError(f"{flag} {option}: expected each language once, found one twice. "
                         f"Name each once, e.g. {flag} en,cs.")
    return codes


@contextmanager
def using(code: str, site: Iterable[str] | None = None) -> Iterator[Language]:
    """Render in ``code`` inside the block (``site``: every language of the build)."""
    lang = Language(code, catalogue(code), tuple(site) if site else (code,))
    token = _ACTIVE.set(lang)
    try:
        yield lang
    finally:
        _ACTIVE.reset(token)


T = TypeVar("T")


def translated(code: str, items: Iterable[T], site: Iterable[str] | None = None) -> Iterator[T]:
    """``items`` (a build's stream), each step of it made in ``code``.

    The language is set around every ``next()`` rather than for the generator's lifetime, so
    whoever consumes the stream, in whichever thread, sees their own language between steps;
    workers forked during a step inherit it."""
    lang = Language(code, catalogue(code), tuple(site) if site else (code,))
    it = iter(items)
    while True:
        token = _ACTIVE.set(lang)
        try:
            item = next(it)
        except StopIteration:
            return
        finally:
            _ACTIVE.reset(token)
        yield item


# -- where each language's pages are ---------------------------------------------------

def site_path(page: str, code: str, site: tuple[str, ...]) -> str:
    """The path of ``page`` of language ``code`` from the root of the whole output."""
    return page if code == site[0] else f"{code}/{page}"


def language_links(page: str) -> list[tuple[str, str, str]]:
    """(code, name, href) for the same page in each other language of the build, relative
    to ``page`` (empty for a build of one language). The 404 page, served at any path,
    links the other language's dashboard."""
    lang = _current()
    here = site_path(page, lang.code, lang.site)
    target = "index.html" if page == "404.html" else page
    links = []
    for code in lang.site:
        if code == lang.code:
            continue
        there = site_path(target, code, lang.site)
        rel = posixpath.relpath(there, posixpath.dirname(here) or ".")
        links.append((code, LANGUAGES[code], rel))
    return links


# -- numbers and dates -------------------------------------------------------------------

@cache
def _locale(code: str) -> Locale:
    return Locale.parse(code)


def format_count(n: int | float | None) -> str:
    """A whole number with the language's grouping: ``23,931``; Czech ``23 931`` (a
    non-breaking space). Non-whole numbers as :func:`format_number`."""
    if n is None:
        return ""
    if isinstance(n, float) and not n.is_integer():
        return format_number(n)
    code = language()
    if code == DEFAULT_LANGUAGE:
        return f"{int(n):,}"
    return format_decimal(int(n), locale=_locale(code))


def format_number(value: int | float) -> str:
    """A number in a sentence (the contract's form: ``1`` not ``1.0``, ``0.95``, no
    exponent), with the language's decimal sign (Czech ``0,95``). Not grouped, as in
    English."""
    text = fmt_number(value)
    code = language()
    if code == DEFAULT_LANGUAGE:
        return text
    return text.replace(".", _locale(code).number_symbols["latn"]["decimal"])


def format_date(value: date | datetime | str | None) -> str:
    """A date for a reader of the language (``1 December 2026``; Czech ``1. prosince
    2026``); an ISO string is parsed first, anything else is shown as it is."""
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value[:10])
        except ValueError:
            return value
    if isinstance(value, datetime):
        value = value.date()
    return _babel_date(value, format="long", locale=_locale(language()))
