"""An object's fields as text for its page: scalars inline, lists and maps as an indented,
YAML-like block (a reading aid, not a serialisation: the JSON record has the values)."""

from __future__ import annotations

from typing import Any

__all__ = ["field_rows"]


def field_rows(fields: dict) -> list[tuple[str, str, bool]]:
    """(key, text, is_block) for each field, in the fields' own order."""
    rows = []
    for key, value in fields.items():
        if isinstance(value, (dict, list)):
            rows.append((key, _block(value, 0).rstrip("\n"), True))
        else:
            rows.append((key, "" if value is None else _scalar(value), False))
    return rows


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _empty(value: dict | list) -> str:
    return "{}" if isinstance(value, dict) else "[]"


def _block(value: Any, indent: int) -> str:
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return pad + "{}\n"
        out = []
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}{k}:\n{_block(v, indent + 1)}")
            else:
                out.append(f"{pad}{k}: {_empty(v) if isinstance(v, (dict, list)) else _scalar(v)}\n")
        return "".join(out)
    if isinstance(value, list):
        if not value:
            return pad + "[]\n"
        out = []
        for v in value:
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}- {_block(v, indent + 1).lstrip()}")
            else:
                # an empty map in a list is printed "[]", as it always was (golden files)
                out.append(f"{pad}- {'[]' if isinstance(v, (dict, list)) else _scalar(v)}\n")
        return "".join(out)
    return pad + _scalar(value) + "\n"
