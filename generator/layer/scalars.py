"""Field values as text: the one reading of a YAML scalar every consumer of a record shares.

YAML gives booleans, numbers and dates where a layer means text (``version: 2``); these
helpers turn them back into what was written, and say in words what a value is when a
message must tell the user what was found.
"""

from __future__ import annotations

from typing import Any

__all__ = ["scalar_text", "words", "first_text", "as_text_list", "type_word"]


def words(value: Any) -> str:
    """What ``value`` is, as a message says it ("the number 3", "a list")."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


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


def type_word(value: object) -> str:
    """What ``value`` is, as the manifest's and sources' messages say it (no truncation;
    a boolean is "a boolean")."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
