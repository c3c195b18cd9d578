"""Where each field of a record is written: the line of every top-level key, and of every
item of a block list (``key[i]``), so a diagnostic points at what it is about."""

from __future__ import annotations

from typing import Any

__all__ = ["top_level_lines", "item_lines", "with_item_lines", "item_line"]


def top_level_lines(text: str, offset: int) -> dict[str, int]:
    """key -> line of its first appearance at the left margin (``offset`` is line 1's number)."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        head = line[:1]
        if head and (head.isalnum() or head in "_-\"'") and not line.startswith("- "):
            key = line.split(":", 1)[0].strip().strip("\"'")
            if key and key not in lines:
                lines[key] = number + offset - 1
    return lines


def item_lines(text_lines: list[str], at: int, count: int) -> list[int]:
    """0-based lines of the ``count`` items of the block list whose key is on line ``at``
    (nothing when the list is written inline, ``key: [a, b]``: its key line is theirs)."""
    head = text_lines[at]
    if head.partition(":")[2].split(" #", 1)[0].strip():
        return []
    key_indent = len(head) - len(head.lstrip())
    out: list[int] = []
    item_indent = None
    for number in range(at + 1, len(text_lines)):
        line = text_lines[number]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        is_item = stripped == "-" or stripped.startswith("- ")
        if indent < key_indent or (indent == key_indent and not is_item):
            break
        if is_item and (item_indent is None or indent == item_indent):
            item_indent = indent
            out.append(number)
            if len(out) == count:
                break
    return out


def with_item_lines(fields: dict[str, Any], lines: dict[str, int], text: str,
                    offset: int) -> dict[str, int]:
    """``lines`` plus ``key[i]`` -> the line of each item of a list field, so a diagnostic
    about one reference points at it rather than at its key."""
    lists = [(key, len(value)) for key, value in fields.items()
             if isinstance(value, list) and value and key in lines]
    if not lists:
        return lines
    text_lines = text.split("\n")
    out = dict(lines)
    for key, count in lists:
        at = lines[key] - offset
        if not 0 <= at < len(text_lines):
            continue
        for i, number in enumerate(item_lines(text_lines, at, count)):
            out[f"{key}[{i}]"] = number + offset
    return out


def item_line(lines: dict[str, int], key: str, i: int) -> int | None:
    """The line of item ``i`` of list field ``key``: its own when the list is a block list,
    else the key's (an inline list, or a record whose lines are not known)."""
    return lines.get(f"{key}[{i}]") or lines.get(key)
