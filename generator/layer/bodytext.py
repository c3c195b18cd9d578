"""What a Markdown body says about itself: its first heading (a title) and the first
paragraph of a named section (an ADR's decision, as its summary)."""

from __future__ import annotations

import re

__all__ = ["first_heading", "section_paragraph"]

_H1 = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.M)


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
    """The first paragraph under ``## <heading>`` (an ADR's decision, say)."""
    if not body:
        return None
    pattern = re.compile(rf"^##[ \t]+{re.escape(heading)}[ \t]*$", re.M | re.I)
    match = pattern.search(body)
    if not match:
        return None
    rest = body[match.end() :].lstrip("\n")
    paragraph = []
    for line in rest.split("\n"):
        if not line.strip() or line.startswith("#"):
            break
        paragraph.append(line.strip())
    text = " ".join(paragraph).strip()
    if not text:
        return None
    return text if len(text) <= 400 else text[:397].rstrip() + "..."
