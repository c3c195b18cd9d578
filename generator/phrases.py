"""Sentences the engine and the loader say, kept as a template and its parameters.

The wire (JSON, terminal, MCP) carries a sentence's English text, byte for byte what it always
said; a page says the same sentence in its reader's language. So whoever makes a sentence
makes a :class:`Phrase` — ``say("`{path}` is indexed under {n} identifiers", path=p, n=3)`` —
and keeps both: ``str(phrase)`` is the English text, and the site's
:func:`generator.site.i18n.speak` translates the template through the build's catalogue and
formats the parameters for its language.

Pure: no catalogue, no I/O. Templates are ``str.format`` fields by name with no format
spec (the language decides how a number is written); ``make messages`` extracts the
templates of :func:`say` and :func:`say_n` calls. A parameter is
- ``str``: said as it is (names, paths, URIs, identifiers — the layer's own words);
- ``int``: a count, grouped (``24,000``; Czech ``24 000``);
- ``float``: a number in the contract's form (``0.95``; Czech ``0,95``);
- ``Phrase``: a sentence inside the sentence, said in the same language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from string import Formatter
from typing import Callable, Union

__all__ = ["N_", "Param", "Phrase", "Recounted", "positional", "say", "say_n", "reworded",
           "param_text", "placeholders"]

Param = Union[str, int, float, "Phrase"]


@dataclass(frozen=True, slots=True)
class Phrase:
    """A sentence: its English template (the catalogue's msgid), the plural template when
    the sentence depends on a count (``n``, one of the parameters), and the parameters."""

    template: str
    params: tuple[tuple[str, Param], ...] = ()
    plural: str | None = None
    #: The English text, made once: the wire needs it where the phrase is made, and an
    #: English page says the same text again (not compared, not pickled).
    _english: str | None = field(default=None, compare=False, repr=False)
    #: The hash, made once: the build's standing table hashes every fact, and its phrase
    #: with it, once to find the fact and again to find its row (not compared, not pickled).
    _hash: int | None = field(default=None, compare=False, repr=False)

    def __hash__(self) -> int:  # the value dataclass would give, remembered
        found = self._hash
        if found is None:
            found = hash((self.template, self.params, self.plural))
            object.__setattr__(self, "_hash", found)
        return found

    def __str__(self) -> str:
        text = self._english
        if text is None:  # said for every row of a large answer (~900): written out, most
            # parameters names; the plural form when the count asks for it
            template = self.template
            if self.plural is not None and self.plural != template and self.count() != 1:
                template = self.plural
            text = template.format_map({k: v if type(v) is str else _english_param(v)
                                        for k, v in self.params})
            object.__setattr__(self, "_english", text)
        return text

    def __reduce__(self):
        return (Phrase, (self.template, self.params, self.plural))

    def count(self) -> int:
        for name, value in reversed(self.params):  # as dict(params) would: the last one
            if name == "n":
                return int(value)
        raise KeyError("n")

    def render(self, choose: Callable[["Phrase"], str],
               param: Callable[[Param], str]) -> str:
        """The sentence with ``choose(self)`` as its template and each parameter written by
        ``param`` (how a language says numbers and nested phrases)."""
        return choose(self).format_map({k: param(v) for k, v in self.params})


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it here (a fixed wording the
    wire carries in English and a page shows translated)."""
    return message


def say(template: str, /, **params: Param) -> Phrase:
    """A sentence; ``template`` is a literal, so ``make messages`` finds it."""
    _check(template, params)
    return Phrase(template, tuple(params.items()))


def say_n(singular: str, plural: str, /, n: int, **params: Param) -> Phrase:
    """A sentence whose form depends on the count ``n`` (also a parameter: ``{n}``)."""
    _check(singular, {"n": n, **params})
    _check(plural, {"n": n, **params})
    return Phrase(singular, (("n", n), *params.items()), plural)


def reworded(phrase: Phrase, /, *values: Param) -> Phrase:
    """``phrase``'s sentence with other values for its parameters, given in the order of
    its own, as :func:`say` or :func:`say_n` would make it — without checking the template
    again: for a sentence made once as a model (its template checked, and found by ``make
    messages``, there) and said many times over."""
    params = tuple([(name, value) for (name, _), value in zip(phrase.params, values,
                                                               strict=True)])
    return Phrase(phrase.template, params, phrase.plural)


def positional(template: str, names: tuple[str, ...], spec: str = "") -> str:
    """``template`` with its named fields by position in ``names`` and ``spec`` added
    (``"{used} of {limit}"``, ``("n", "used", "limit")``, ``":,"`` -> ``"{1:,} of {2:,}"``),
    its literal braces kept: a sentence said many times over, formatted with one
    ``str.format`` of its values in order."""
    return "".join(literal.replace("{", "{{").replace("}", "}}") + (
        "" if name is None else "{%d%s}" % (names.index(name), spec))
        for literal, name, _, _ in Formatter().parse(template))


class Recounted:
    """``model``'s sentence said many times over with other counts (every parameter an
    ``int``, given in the order of its own), its English text made at once with one
    ``str.format``: what :func:`reworded` and ``str()`` make, without a dict or a walk of
    the parameters per sentence — for a sentence said hundreds of times an answer (a
    refusal for budget), whose English the wire carries."""

    __slots__ = ("template", "plural", "names", "_one", "_other", "_n")

    def __init__(self, model: Phrase) -> None:
        self.template = model.template
        self.plural = model.plural
        self.names = tuple(name for name, _ in model.params)
        # each count thousands-separated, as ``str()`` writes an int: ``{used}`` -> ``{1:,}``
        self._one = positional(model.template, self.names, ":,")
        plural = model.plural if model.plural not in (None, model.template) else None
        self._other = positional(plural, self.names, ":,") if plural is not None else self._one
        # the count that picks the form: ``n``, the last one so named (as :meth:`count`)
        self._n = (len(self.names) - 1 - self.names[::-1].index("n")
                   if plural is not None else -1)

    def __call__(self, *counts: int) -> Phrase:
        if len(counts) != len(self.names):
            raise ValueError(f"{self.template!r} takes {len(self.names)} counts, "
                             f"given {len(counts)}")
        n = self._n
        english = (self._one if n < 0 or counts[n] == 1 else self._other).format(*counts)
        return Phrase(self.template, tuple(zip(self.names, counts)), self.plural, english)


@lru_cache(maxsize=4096)
def placeholders(template: str) -> frozenset[str]:
    """The parameter names ``template`` uses (a translation must use the same ones).
    Cached: templates are the code's literals, and every phrase made checks its own."""
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name)


def _check(template: str, params: dict[str, Param]) -> None:
    # A sentence that names a parameter nobody gave fails where it is made, not when some
    # page, later and in another language, says it.
    missing = placeholders(template) - params.keys()
    if missing:
        raise KeyError(f"{template!r} needs {sorted(missing)}")


def param_text(value: Param, *, phrase: Callable[["Phrase"], str],
               count: Callable[[int], str], number: Callable[[float], str]) -> str:
    """A parameter as text, each kind written by its writer (a language's, or English)."""
    if isinstance(value, Phrase):
        return phrase(value)
    if isinstance(value, bool):
        raise TypeError("a phrase parameter is a name, a count, a number or a phrase, not a bool")
    if isinstance(value, int):
        return count(value)
    if isinstance(value, float):
        return number(value)
    return value


def _english_number(value: float) -> str:
    # Imported here: the engine's modules make phrases, so this module must not start the
    # engine package while it is being imported.
    from .engine.numbers import fmt_number

    return fmt_number(value)


def _english_param(value: Param) -> str:
    kind = type(value)
    if kind is str:  # most parameters: said as they are, so said at once
        return value
    if kind is int:
        return f"{value:,}"
    return param_text(value, phrase=str, count="{:,}".format, number=_english_number)
