"""What a Markdown body says about itself: its first heading (a title) and the first
paragraph of a named section (an ADR's decision, as its summary).

A summary is one line of plain text (search ranks it, pages and search results show it):
a section that opens with a list gives its items as sentences, without their markers,
so the line does not read "- a - b"."""

from __future__ import annotations

import re

__all__ = ["first_heading", "section_paragraph"]

_H1 = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.M)
#: A list item's marker at the start of a line: ``-``, ``*``, ``+``, ``1.`` or ``1)``.
_LIST_MARKER = re.compile(r"^(?:[-*+]|\d{1,9}[.)])[ \t]+")


def first_heading(body: str | None) -> str | None:
    """The text of the first ``# heading`` outside a code fence."""
    if not body:
        return None
    in_fence = False
    for line in body.split("\n"):
        if line.startswith("```") or line.startswith("~~~"):
            in_fence = not in_fence
            continue
        if not in_fence:
            match = _H1.match(line)
            if match:
                return match.group(1).strip()
    return None


def section_paragraph(body: str | None, heading: str) -> str | None:
    """The first paragraph under ``## <heading>`` (an ADR's decision, say), as one line;
    a list's items without their markers."""
    if not body:
        return None
    pattern = re.compile(rf"^##[ \t]+{re.escape(heading)}[ \t]*$", re.M | re.I)
    match = pattern.search(body)
    if not match:
        return None
    rest = body[match.end() :].lstrip("\n")
    paragraph: list[str] = []
    is_list = False
    for line in rest.split("\n"):
        if not line.strip() or line.startswith("#"):
            break
        line = line.strip()
        if not paragraph:
            is_list = _LIST_MARKER.match(line) is not None
        if is_list:  # a wrapped paragraph's "2024. " is text; in a list it is an item
            line = _LIST_MARKER.sub("", line)
        paragraph.append(line)
    text = " ".join(paragraph).strip()
    if not text:
        return None
    return text if len(text) <= 400 else text[:397].rstrip() + "..."
