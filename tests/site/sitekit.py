"""Build sites for tests, and look inside them."""

from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from pathlib import Path

from generator.engine.compile import GitInfo
from generator.site.build import SiteInputs, build_site
from generator.workspace import Workspace
from generator.writer import write_site


def build(repo: Path | None, out: Path, label: str | None = None) -> Path:
    ws = Workspace.open(repo, exclude=[out])
    inputs = SiteInputs(index=ws.index, git=GitInfo(), files=ws.tree.files,
                        label=label or ("demo layer (nimbus)" if ws.is_demo else "test layer"))
    write_site(build_site(inputs), out)
    return out


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".gitkeep"}


class PageScan(HTMLParser):
    """Collects links, ids, scripts and anything that could execute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []  # (attribute, value)
        self.ids: set[str] = set()
        self.scripts: list[dict] = []
        self.handlers: list[tuple[str, str]] = []
        self.dangerous_urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if "id" in values and values["id"] is not None:
            self.ids.add(values["id"])
        if tag == "script":
            self.scripts.append(values)
        for name, value in attrs:
            if name.lower().startswith("on"):
                self.handlers.append((tag, name))
            if name in ("href", "src", "action", "formaction", "xlink:href") and value is not None:
                self.links.append((name, value))
                if value.strip().lower().startswith(("javascript:", "vbscript:", "data:")):
                    self.dangerous_urls.append(value)

    handle_startendtag = handle_starttag


def scan(path: Path) -> PageScan:
    parser = PageScan()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def internal_target(page_rel: str, url: str) -> tuple[str, str] | None:
    """(site-relative file, fragment) for an internal link, None for external ones."""
    if url.startswith(("http://", "https://", "mailto:")):
        return None
    path, _, fragment = url.partition("#")
    if not path:
        return page_rel, fragment
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(page_rel), path))
    return joined, fragment
