"""Text folding and query terms: the one definition the Python engine and ``search.js`` share.

Both sides implement exactly these steps (``templates/static/search.js`` mirrors this module
line for line; ``tests/query/test_parity.py`` checks they agree, code point by code point).

**Fold** (applied to the query and to every field that is matched):

1. NFKD (compatibility decomposition: ``ﬁ`` → ``fi``, full-width ``Ａ`` → ``A``, ``é`` → ``e`` +
   combining acute),
2. lower-case (the full Unicode lower-case mapping, ``str.lower`` / ``toLowerCase``),
3. NFKD again (lower-casing can produce precomposed letters, ``É`` → ``é``),
4. drop every nonspacing mark (general category ``Mn``): accents, diaeresis, dakuten, …, so
   ``Café`` and ``cafe`` fold alike,
5. ``ß`` → ``ss`` and ``ς`` → ``σ`` (the two case-fold differences that survive steps 1–4 in
   running text; the final-sigma rule of step 2 then never matters).

An all-ASCII string folds to its ASCII lower case (the steps above give exactly that; both
sides take the shortcut). Folded text is left decomposed: a Hangul syllable folds to its
two or three jamo (so ``하`` finds ``한``, and one syllable is long enough to be a term),
and a query string shows its terms in that form.

**Terms** of a query value: the maximal runs of letters, marks and digits (general categories
``L*``, ``M*``, ``N*``) in the folded value; everything else (spaces, punctuation, symbols,
emoji, controls) separates terms. Then, in order of first appearance:

* a term shorter than :data:`MIN_TERM_CHARS` code points is dropped (``shorter than 2
  characters``) — so a single CJK ideograph is not a term, two are;
* a :data:`STOP_WORDS` term is dropped (``stop word``);
* a repeat of a kept term is merged into it (terms are distinct);
* past :data:`MAX_TERMS` distinct terms, the rest are dropped (``beyond 16 terms``).

Dropped terms are reported in the query string as executed, never silently ignored.

**Match**: a term matches a field when it occurs as a substring of the field's folded text.
As terms hold no separator, that is the same as "a substring of one of the field's words", so
``eval`` matches ``evaluation`` and ``re-evaluate`` but never spans two words.

The character classes come from each side's Unicode database (Python 3.11: Unicode 14.0; a
current Chromium: a later version). Parity is exact for every character assigned by the older
of the two; characters assigned since may fold or split differently in the browser.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "MIN_TERM_CHARS",
    "MAX_TERMS",
    "MAX_VALUE_CHARS",
    "STOP_WORDS",
    "DROP_SHORT",
    "DROP_STOP",
    "DROP_EXTRA",
    "fold",
    "split_terms",
    "query_terms",
    "is_blank",
]

#: Terms shorter than this many code points are dropped.
MIN_TERM_CHARS = 2
#: At most this many distinct terms are searched; the rest are dropped (and reported).
MAX_TERMS = 16
#: A longer query value is refused (it is a search box, not a document).
MAX_VALUE_CHARS = 1000
#: English function words that would match nearly every record by substring.
STOP_WORDS: frozenset[str] = frozenset(
    "a an and are as at be but by for from has have in into is it its not of on or that the "
    "their them then there this to was were what when which will with you your".split()
)

DROP_SHORT = f"shorter than {MIN_TERM_CHARS} characters"
DROP_STOP = "stop word"
DROP_EXTRA = f"beyond {MAX_TERMS} terms"

_FOLD_MAP = str.maketrans({"ß": "ss", "ς": "σ"})


def fold(text: str) -> str:
    """The folded form of ``text`` (see the module docstring for the five steps)."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).lower())
    category = unicodedata.category
    kept = "".join(c for c in decomposed if c < "\u0300" or category(c) != "Mn")
    return kept.translate(_FOLD_MAP)


def _is_term_char(char: str) -> bool:
    if char.isascii():
        return char.isalnum()
    return unicodedata.category(char)[0] in "LMN"


def split_terms(folded: str) -> list[str]:
    """The maximal runs of letters, marks and digits of an already folded string, in order."""
    out: list[str] = []
    start = None
    for i, char in enumerate(folded):
        if _is_term_char(char):
            if start is None:
                start = i
        elif start is not None:
            out.append(folded[start:i])
            start = None
    if start is not None:
        out.append(folded[start:])
    return out


def is_blank(value: str) -> bool:
    """True when ``value`` holds nothing but separators (``Z*``) and control characters (``Cc``)."""
    return all(unicodedata.category(c)[0] == "Z" or unicodedata.category(c) == "Cc" for c in value)


def query_terms(value: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """(terms searched, (dropped term, reason) pairs), both in order of first appearance."""
    terms: list[str] = []
    dropped: list[tuple[str, str]] = []
    seen_dropped: set[str] = set()
    for term in split_terms(fold(value)):
        if term in terms:
            continue
        if len(term) < MIN_TERM_CHARS:
            reason = DROP_SHORT
        elif term in STOP_WORDS:
            reason = DROP_STOP
        elif len(terms) >= MAX_TERMS:
            reason = DROP_EXTRA
        else:
            terms.append(term)
            continue
        if term not in seen_dropped:
            seen_dropped.add(term)
            dropped.append((term, reason))
    return tuple(terms), tuple(dropped)
