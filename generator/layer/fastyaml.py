"""A fast reader for the plain YAML most layer records are written in.

PyYAML's parser is C, but turning its events into Python values is not, and on a layer of
thirty thousand records that construction dominates loading. Almost every record uses a
small subset — block mappings and sequences, one-line flow lists, plain and simply quoted
scalars — so this module reads exactly that subset line by line and returns ``None`` for
anything else (block scalars, anchors, tags, multi-line plain or quoted scalars, escapes,
nested flow collections, tabs, document markers, ...), which then goes to PyYAML.

Whatever it accepts, it must read exactly as :mod:`generator.layer.yamlish`'s loader does
(core-schema scalars; the dialect's ``": "`` in plain scalars). A differential test holds
the two to that.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["fast_parse"]


class _Unsupported(Exception):
    """The text is outside the subset; the caller falls back to PyYAML."""


_NULL = re.compile(r"^(?:~|null|Null|NULL)$")
_BOOL_TRUE = frozenset({"true", "True", "TRUE"})
_BOOL_FALSE = frozenset({"false", "False", "FALSE"})
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_INT_OTHER = re.compile(r"^(?:0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:(?:0|[1-9][0-9]*)\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?(?:0|[1-9][0-9]*)[eE][-+]?[0-9]+)$"
)
_SPECIAL_FLOAT = re.compile(r"^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
_KEY = re.compile(r"^(?P<key>[A-Za-z0-9_][A-Za-z0-9_.\-/ ]*?):(?:[ ]+|$)")
# First characters that make a plain scalar something else in YAML.
_BAD_START = set("[]{}#&*!|>'\"%@`,?:-")


#: Below Python's own limit on converting digits (4,300), which raises ValueError.
_MAX_INT_DIGITS = 4000

_MAYBE_NOT_TEXT = frozenset("-+.0123456789~nNtTfF")


def _resolve(text: str) -> Any:
    if text and text[0] not in _MAYBE_NOT_TEXT:
        return text  # the common case: a word can only be text
    if text == "" or _NULL.match(text):
        return None
    if text in _BOOL_TRUE:
        return True
    if text in _BOOL_FALSE:
        return False
    if _INT.match(text):
        if len(text) > _MAX_INT_DIGITS:
            raise _Unsupported  # Python refuses to convert it; PyYAML's constructor keeps text
        return int(text)
    if _INT_OTHER.match(text):
        raise _Unsupported  # rare; let PyYAML's constructor decide
    if _FLOAT.match(text):
        return float(text)
    if _SPECIAL_FLOAT.match(text):
        raise _Unsupported
    return text


def _strip_comment(text: str) -> str:
    """Cut a `` #`` comment off a plain scalar's line."""
    at = text.find(" #")
    if at != -1:
        text = text[:at]
    return text.rstrip(" ")


def _single_quoted(text: str) -> tuple[str, str]:
    """('value', rest) for text starting with ``'``; the quote must close on this line."""
    out = []
    i = 1
    while True:
        j = text.find("'", i)
        if j == -1:
            raise _Unsupported
        out.append(text[i:j])
        if text[j + 1 : j + 2] == "'":
            out.append("'")
            i = j + 2
            continue
        return "".join(out), text[j + 1 :]


def _double_quoted(text: str) -> tuple[str, str]:
    j = text.find('"', 1)
    if j == -1:
        raise _Unsupported
    body = text[1:j]
    if "\\" in body:
        raise _Unsupported
    return body, text[j + 1 :]


def _after_quote(rest: str) -> None:
    rest = rest.strip(" ")
    if rest and not rest.startswith("#"):
        raise _Unsupported


# Characters YAML does not allow in a document (NUL and the other C0/C1 controls, surrogates,
# U+FFFE/U+FFFF): libyaml refuses them, so must we.
_NOT_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class _Doc:
    def __init__(self, text: str) -> None:
        if "\t" in text or "\r" in text or _NOT_PRINTABLE.search(text):
            raise _Unsupported
        # (line number, indent, content without the indent or trailing spaces)
        self.lines: list[tuple[int, int, str]] = []
        append = self.lines.append
        for number, raw in enumerate(text.split("\n"), start=1):
            content = raw.lstrip(" ")
            if not content or content[0] == "#":
                continue
            if raw[0] in "-.%" and (raw[:3] in ("---", "...") or raw[0] == "%"):
                raise _Unsupported
            content = content.rstrip(" ")
            if not content:
                continue
            append((number, len(raw) - len(raw.lstrip(" ")), content))
        self.pos = 0
        self.dialect_lines: list[int] = []
        self.duplicates: list[tuple[str, int]] = []
        #: line of each key of the outermost mapping
        self.key_lines: dict[str, int] = {}
        self.top_indent = self.lines[0][1] if self.lines else 0

    # -- scalars -----------------------------------------------------------------------

    def scalar(self, text: str, number: int, in_flow: bool = False) -> Any:
        """A one-line scalar value (text already stripped of leading spaces)."""
        first = text[0]
        if first == "'":
            value, rest = _single_quoted(text)
            if in_flow:
                return value, rest
            _after_quote(rest)
            return value
        if first == '"':
            value, rest = _double_quoted(text)
            if in_flow:
                return value, rest
            _after_quote(rest)
            return value
        plain = _strip_comment(text)
        if not plain:
            return None
        if plain[0] in _BAD_START and not (plain[0] == "-" and len(plain) > 1 and plain[1] != " "):
            raise _Unsupported
        if plain[-1] == ":":
            raise _Unsupported
        if ": " in plain:
            self.dialect_lines.append(number)
        return _resolve(plain)

    def flow_sequence(self, text: str, number: int) -> list:
        """``[a, 'b', "c"]`` on one line, scalars only."""
        body = text[1:]
        items: list[Any] = []
        while True:
            body = body.lstrip(" ")
            if body.startswith("]"):
                _after_quote(body[1:])
                return items
            if body[:1] in ("'", '"'):
                value, body = self.scalar(body, number, in_flow=True)
                items.append(value)
            else:
                end = len(body)
                for stop in (",", "]"):
                    k = body.find(stop)
                    if k != -1:
                        end = min(end, k)
                piece = body[:end].strip(" ")
                if not piece or end == len(body):
                    raise _Unsupported
                if (piece[0] in _BAD_START or ": " in piece or piece.endswith(":") or "#" in piece
                        or any(c in piece for c in "[]{}")):
                    raise _Unsupported
                items.append(_resolve(piece))
                body = body[end:]
            body = body.lstrip(" ")
            if body.startswith(","):
                body = body[1:]
                if body.lstrip(" ").startswith("]"):
                    raise _Unsupported  # trailing comma: leave it to PyYAML
                continue
            if body.startswith("]"):
                continue
            raise _Unsupported

    def value(self, text: str, number: int, indent: int) -> Any:
        """The value after ``key:`` (``text`` non-empty) on line ``number``."""
        first = text[0]
        if first == "[":
            return self.flow_sequence(text, number)
        if first == "{":
            raise _Unsupported
        value = self.scalar(text, number)
        # A more-indented line right after a plain scalar would continue it.
        if self.pos < len(self.lines) and self.lines[self.pos][1] > indent:
            raise _Unsupported
        return value

    # -- blocks ------------------------------------------------------------------------

    def block(self, indent: int) -> Any:
        number, ind, content = self.lines[self.pos]
        if ind != indent:
            raise _Unsupported
        if _is_item(content):
            return self.sequence(indent)
        return self.mapping(indent)

    def nested(self, parent_indent: int, number: int) -> Any:
        """The block after ``key:`` with nothing on its line (or null)."""
        if self.pos >= len(self.lines):
            return None
        _, ind, content = self.lines[self.pos]
        if ind > parent_indent:
            return self.block(ind)
        if ind == parent_indent and content.startswith("- "):
            return self.sequence(ind)
        return None

    def mapping(self, indent: int, first: str | None = None, first_number: int = 0) -> dict:
        out: dict[str, Any] = {}
        while True:
            if first is not None:
                number, content, first = first_number, first, None
            else:
                if self.pos >= len(self.lines):
                    return out
                number, ind, content = self.lines[self.pos]
                if ind < indent:
                    return out
                if ind > indent:
                    raise _Unsupported
                if _is_item(content):
                    return out
                self.pos += 1
            key, rest = _split_key(content)
            if rest and rest[0] == "#":
                rest = ""
            if rest:
                value = self.value(rest, number, indent)
            else:
                value = self.nested(indent, number)
            if key in out:
                self.duplicates.append((key, number))
            elif indent == self.top_indent and key not in self.key_lines:
                self.key_lines[key] = number
            out[_resolve_key(key)] = value

    def sequence(self, indent: int) -> list:
        out: list[Any] = []
        while self.pos < len(self.lines):
            number, ind, content = self.lines[self.pos]
            if ind != indent or not _is_item(content):
                if ind > indent:
                    raise _Unsupported
                return out
            self.pos += 1
            item = content[2:].lstrip(" ")
            if not item or item.startswith("#"):
                raise _Unsupported  # "-" with a nested block below
            if item.startswith("- "):
                raise _Unsupported
            item_indent = indent + (len(content) - len(item))
            if item[0] not in "'\"[{" and _KEY.match(item):
                out.append(self.mapping(item_indent, first=item, first_number=number))
                continue
            if item.startswith("["):
                out.append(self.flow_sequence(item, number))
            elif item.startswith("{"):
                raise _Unsupported
            else:
                if ": " in _strip_comment(item) and item[0] not in "'\"":
                    raise _Unsupported  # YAML reads `- a: b` with an odd key as a mapping
                out.append(self.scalar(item, number))
            if self.pos < len(self.lines) and self.lines[self.pos][1] > indent:
                raise _Unsupported
        return out


def _is_item(content: str) -> bool:
    """A block sequence entry: ``- x`` or a lone ``-``."""
    return content[0] == "-" and (len(content) == 1 or content[1] == " ")


_KEY_TEXT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-/ ]*")


def _split_key(content: str) -> tuple[str, str]:
    """(key, the rest after ``: ``) of a ``key: value`` line; the same lines as :data:`_KEY`."""
    colon = content.find(":")
    if colon <= 0 or (colon + 1 < len(content) and content[colon + 1] != " "):
        raise _Unsupported
    key = content[:colon]
    if key[-1] == " " or not _KEY_TEXT.fullmatch(key) or key == "<<":
        raise _Unsupported
    return key, content[colon + 1 :].lstrip(" ")


def _resolve_key(key: str) -> Any:
    value = _resolve(key)
    if not isinstance(value, str):
        raise _Unsupported  # non-text keys (1:, true:) — leave them to PyYAML
    return value


def fast_parse(text: str, *, max_nodes: int | None = None, max_depth: int | None = None,
               ) -> tuple[Any, list[int], list[tuple[str, int]], dict[str, int]] | None:
    """(value, dialect lines, duplicate keys, top-level key lines) for text in the subset;
    None otherwise.

    A document that might exceed ``max_nodes`` or ``max_depth`` is left to PyYAML, whose
    counting composer reports the limit: here the bounds are estimated from the lines
    alone (at most four nodes per line plus one per flow-list comma; every level of
    nesting in the subset is a new indentation, or a sequence at its key's indentation, plus
    one for a flow list), so the common
    case pays nothing.
    """
    try:
        doc = _Doc(text)
        if not doc.lines:
            return None, [], [], {}
        if max_nodes is not None and 4 * len(doc.lines) + text.count(",") > max_nodes:
            return None
        if max_depth is not None and 2 * len({ind for _, ind, _ in doc.lines}) + 1 > max_depth:
            return None
        value = doc.block(doc.lines[0][1])
        if doc.pos != len(doc.lines):
            raise _Unsupported
        return value, doc.dialect_lines, doc.duplicates, doc.key_lines
    except _Unsupported:
        return None
    except RecursionError:
        return None
