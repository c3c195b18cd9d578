"""Split a Markdown file into its YAML front matter and its body."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FrontMatter", "split_front_matter"]


@dataclass(frozen=True)
class FrontMatter:
    #: The YAML text between the fences, or None when the file has no front matter.
    yaml_text: str | None
    #: The Markdown after the closing fence (the whole file when there is no front matter).
    body: str
    #: 1-based line of the first YAML line (2 when the file opens with ``---``).
    yaml_first_line: int
    #: True when an opening fence has no closing one.
    unclosed: bool = False


def split_front_matter(text: str) -> FrontMatter:
    """``---`` on the first line opens front matter; a line ``---`` or ``...`` closes it."""
    if text.startswith("\ufeff"):
        text = text[1:]
    first, sep, rest = text.partition("\n")
    if first.rstrip() != "---" or not sep:
        return FrontMatter(None, text, 1)
    lines = rest.split("\n")
    for index, line in enumerate(lines):
        if line.rstrip() in ("---", "..."):
            yaml_text = "\n".join(lines[:index])
            body = "\n".join(lines[index + 1 :])
            return FrontMatter(yaml_text, body.lstrip("\n"), 2)
    return FrontMatter(rest, "", 2, unclosed=True)
