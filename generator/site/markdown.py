"""Render untrusted Markdown safely: raw HTML off, links sanitised, relative links to
layer files rewritten to their object pages (others rendered as plain text)."""

from __future__ import annotations

import posixpath
from typing import Callable

from markdown_it import MarkdownIt

from .i18n import _

__all__ = ["MarkdownRenderer"]

_SAFE_SCHEMES = ("http://", "https://", "mailto:")


class MarkdownRenderer:
    """One configured markdown-it instance; ``render(text, base_dir, link_for)``."""

    def __init__(self) -> None:
        md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
        md.enable(["table", "strikethrough"])
        self.md = md
        self.md.validateLink = self._validate  # type: ignore[method-assign]
        self._resolve: Callable[[str], str | None] = lambda href: None
        md.core.ruler.push("rewrite_links", self._rewrite_rule)
        md.core.ruler.push("demote_headings", self._demote_headings)

    @staticmethod
    def _validate(url: str) -> bool:
        lowered = url.strip().lower()
        if lowered.startswith(("javascript:", "vbscript:", "data:", "file:")):
            return False
        return True

    @staticmethod
    def _demote_headings(state) -> None:
        """A body sits under the page's own h1 and h2: its `#` becomes h3, and so on."""
        for token in state.tokens:
            if token.type in ("heading_open", "heading_close"):
                level = min(6, int(token.tag[1]) + 2)
                token.tag = f"h{level}"

    def _rewrite_rule(self, state) -> None:
        for block in state.tokens:
            if block.children is None:
                continue
            open_stack: list = []
            for token in block.children:
                if token.type == "link_open":
                    href = token.attrGet("href") or ""
                    target = self._target(href)
                    if target is None:
                        token.attrs.pop("href", None)
                        token.tag = "span"
                        token.attrSet("class", "dead-link")
                        token.attrSet("title", _("not part of the site: {href}").format(href=href))
                        open_stack.append(True)
                    else:
                        token.attrSet("href", target)
                        if target.startswith(("http://", "https://")):
                            token.attrSet("rel", "noopener noreferrer")
                        open_stack.append(False)
                elif token.type == "link_close":
                    if open_stack and open_stack.pop():
                        token.tag = "span"
                elif token.type == "image":
                    src = token.attrGet("src") or ""
                    if not src.lower().startswith(("http://", "https://")):
                        # No local images in the site; keep the description as text.
                        token.type = "text"
                        token.content = _("[image: {name}]").format(name=token.content or src)
                        token.children = None
                        token.attrs = {}

    def _target(self, href: str) -> str | None:
        stripped = href.strip()
        lowered = stripped.lower()
        if lowered.startswith(_SAFE_SCHEMES):
            return stripped
        if lowered.startswith("#"):
            return None  # anchors inside a foreign document do not exist on our page
        if ":" in stripped.split("/", 1)[0]:
            return None  # another scheme
        return self._resolve(stripped)

    def render(self, text: str, base_dir: str, resolve: Callable[[str], str | None]) -> str:
        """``resolve(repo_path)`` gives the page link for a repository path, or None."""

        def resolve_relative(href: str) -> str | None:
            path_part = href.split("#", 1)[0].split("?", 1)[0]
            if not path_part:
                return None
            joined = posixpath.normpath(posixpath.join(base_dir if base_dir != "." else "", path_part))
            if joined.startswith("../") or joined == "..":
                return None
            return resolve(joined.lstrip("/"))

        self._resolve = resolve_relative
        try:
            return self.md.render(text)
        finally:
            self._resolve = lambda href: None
