"""YAML text for the layer's subset: block mappings, block and flow lists, plain or quoted
scalars; no anchors, no block scalars.

Written by hand rather than by a YAML library so the output stays byte-stable and looks
hand-written (flow lists for tags, block lists elsewhere, dates unquoted).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping


class Raw(str):
    """A scalar written exactly as given (dates, and the dialect's unquoted ``": "`` titles)."""


class Flow(list):
    """A list written in flow style: ``[a, b]``."""


_YAML_WORDS = frozenset(
    "y n yes no true false on off null ~ = <<".split()
)
_NUMBER_LIKE = re.compile(r"[-+]?(?:[0-9][0-9_:.eE+-]*|\.[0-9].*|\.(?:inf|nan))", re.IGNORECASE)
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_CHARS = re.compile(r"[,\[\]{}]")
_NUMBER_START = frozenset("0123456789+-.")


def _scalar(value: object, flow: bool = False) -> str:
    if type(value) is str:  # the common case first
        return _quoted(value) if _needs_quotes(value, flow) else value
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Raw):
        return str(value)
    text = str(value)
    return _quoted(text) if _needs_quotes(text, flow) else text


def _needs_quotes(text: str, flow: bool) -> bool:
    # Refused as plain: an indicator or a space first, ":" or a space last, ": " or " #"
    # inside, or anything not printable (tabs, newlines, control and format characters).
    if not text or text[0] in _INDICATORS or text[0] == " " or text[-1] in ": ":
        return True
    if ": " in text or " #" in text or not text.isprintable():
        return True
    if flow and _FLOW_CHARS.search(text):
        return True
    if len(text) <= 5 and text.lower() in _YAML_WORDS:
        return True
    return text[0] in _NUMBER_START and _NUMBER_LIKE.fullmatch(text) is not None


def _quoted(text: str) -> str:
    if not text.isprintable() or "\\" in text:
        return json.dumps(text)  # JSON escapes are valid YAML double-quoted escapes
    if '"' not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"


def yaml_text(mapping: Mapping[str, object]) -> str:
    """A block mapping as YAML text, ending with a newline."""
    lines: list[str] = []
    _emit(lines, mapping, "")
    lines.append("")
    return "\n".join(lines)


def _emit(lines: list[str], mapping: Mapping[str, object], pad: str) -> None:
    for key, value in mapping.items():
        if isinstance(value, dict):
            if value:
                lines.append(f"{pad}{key}:")
                _emit(lines, value, pad + "  ")
            else:
                lines.append(f"{pad}{key}: {{}}")
        elif isinstance(value, Flow):
            lines.append(f"{pad}{key}: [" + ", ".join(_scalar(v, True) for v in value) + "]")
        elif isinstance(value, list):
            if not value:
                lines.append(f"{pad}{key}: []")
                continue
            lines.append(f"{pad}{key}:")
            for item in value:
                if isinstance(item, dict):
                    sub: list[str] = []
                    inner = pad + "    "
                    _emit(sub, item, inner)
                    sub[0] = pad + "  - " + sub[0][len(inner):]
                    lines.extend(sub)
                else:
                    lines.append(f"{pad}  - {_scalar(item)}")
        else:
            lines.append(f"{pad}{key}: {_scalar(value)}")


def front_matter(mapping: Mapping[str, object], body: str, extra: str = "") -> str:
    return "---\n" + yaml_text(mapping) + extra + "---\n\n" + body
