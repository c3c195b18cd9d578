"""``devcontext build``: load the layer and write the site (placeholder until the site lands)."""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path

from ..diagnostics import count_by_severity
from ..workspace import Workspace
from .common import add_repo_option, plural

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build the static site", description="Build the site.")
    add_repo_option(p)
    p.add_argument("--out", default="site", metavar="DIR", help="output directory (default: site)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    ws = Workspace.open(args.repo, exclude=[out])
    index = ws.index
    counts = count_by_severity(index.diagnostics)
    print(f"{ws.label}: {plural(len(index.objects), 'object')} in "
          f"{plural(len(ws.layer.files), 'file')}; {plural(len(index.edges), 'edge')}; "
          f"{counts['error']} error(s), {counts['warning']} warning(s)")
    for kind, n in index.counts_by_kind().items():
        print(f"  {kind}: {n}")
    out.mkdir(parents=True, exist_ok=True)
    rows = "".join(f"<li>{html.escape(k)}: {n}</li>" for k, n in index.counts_by_kind().items())
    (out / "index.html").write_text(
        f"<!doctype html><meta charset=utf-8><title>devcontext</title><ul>{rows}</ul>\n",
        encoding="utf-8",
    )
    print(f"wrote {out / 'index.html'}", file=sys.stdout)
    return 0
