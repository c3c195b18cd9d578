"""Field values as text: the one reading of a YAML scalar every consumer of a record shares.

YAML gives booleans, numbers and dates where a layer means text (``version: 2``); these
helpers turn them back into what was written, and say in words what a value is when a
message must tell the user what was found.
"""

from __future__ import annotations

from typing import Any

from ..phrases import Phrase, say

__all__ = ["scalar_text", "say_words", "first_text", "as_text_list", "say_type_word"]


def say_words(value: Any) -> Phrase:
    """What ``value`` is, as a record's messages say it ("the number 3", "a list"), a phrase
    so a page says it in its reader's language (the value is a parameter, shown as
    written): a boolean with its value, a long text cut at 40 characters."""
    return _said(value, max_chars=40, boolean_value=True)


def say_type_word(value: object) -> Phrase:
    """What ``value`` is, as the manifest's and sources' messages say it: a boolean is
    "a boolean", a text is shown whole."""
    return _said(value, max_chars=None, boolean_value=False)


def _said(value: Any, *, max_chars: int | None, boolean_value: bool) -> Phrase:
    if value is None:
        return say("nothing")
    if isinstance(value, bool):
        return (say("the boolean {value}", value=str(value).lower()) if boolean_value
                else say("a boolean"))
    if isinstance(value, (int, float)):
        return say("the number {value}", value=str(value))
    if isinstance(value, str):
        if max_chars is not None and len(value) > max_chars:
            value = value[:max_chars - 3] + "..."
        return say("the text {value}", value=repr(value))
    if isinstance(value, list):
        return say("a list")
    if isinstance(value, dict):
        return say("a mapping")
    return _type_name(value)


def _type_name(value: Any) -> Phrase:
    # A Python type's name is said as it is in every language (not a catalogue entry).
    return Phrase("{name}", (("name", type(value).__name__),))


def scalar_text(value: Any) -> str | None:
    """A scalar as text (``true``, ``3``, ``0.5``); None for lists, mappings and null."""
    if value is None or isinstance(value, (list, dict)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    return str(value)


def first_text(fields: dict, keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` whose value is non-blank text, stripped."""
    for key in keys:
        text = scalar_text(fields.get(key))
        if text is not None and text.strip():
            return text.strip()
    return None


def as_text_list(value: Any) -> list[str]:
    """A list field's scalar items as text (one text is a list of one)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for t in (scalar_text(v) for v in value) if t is not None]
    return []
