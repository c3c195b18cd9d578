"""``devcontext check``: load the layer, report counts per kind and every diagnostic."""

from __future__ import annotations

import argparse
import sys

from ..diagnostics import count_by_severity
from ..jsonio import canonical_json_text
from ..workspace import Workspace
from .common import add_repo_option, limits_from_args, plural
from .report import checkout_prefix, diagnostic_line, github_command

__all__ = ["register", "run", "FORMATS"]

#: The output formats of ``--format``.
FORMATS = ("text", "json", "github")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="load the layer and report every problem",
        description="Load the layer, print the number of objects per kind and every "
        "diagnostic (file, line, message). Exit 0 when there are no errors, 1 when there are.",
    )
    add_repo_option(p)
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (default); json, machine-readable; github, one GitHub workflow "
                   "command per diagnostic (annotations in CI, paths from the checkout's root)")
    p.add_argument("--json", action="store_const", const="json", dest="format",
                   help="the same as --format json")
    p.add_argument("--strict", action="store_true", help="also fail (exit 1) on warnings")
    p.add_argument("--quiet", "-q", action="store_true", help="omit info diagnostics")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.repo, limits=limits_from_args(args))
    index = ws.index
    diagnostics = index.diagnostics
    counts = count_by_severity(diagnostics)
    failed = counts["error"] > 0 or (args.strict and counts["warning"] > 0)
    if args.format == "json":
        payload = {
            "fingerprint": index.fingerprint,
            "files": len(ws.layer.files),
            "objects": len(index.objects),
            "kinds": index.counts_by_kind(),
            "edges": len(index.edges),
            "unresolved": len(index.unresolved),
            "counts": counts,
            "diagnostics": [d.model_dump(exclude_none=True) for d in diagnostics],
            "ok": not failed,
        }
        sys.stdout.write(canonical_json_text(payload, indent=2))
        return 1 if failed else 0
    out = sys.stdout
    shown = [d for d in diagnostics if not (args.quiet and d.severity == "info")]
    verdict = ("FAILED" if failed else "ok") + (
        f": {plural(counts['error'], 'error')}, {plural(counts['warning'], 'warning')}, "
        f"{plural(counts['info'], 'info', 'info')}" + (" (--strict: warnings fail)" if args.strict else ""))
    if args.format == "github":
        prefix = checkout_prefix(ws.root)
        for d in shown:
            print(github_command(d, prefix), file=out)
        print(verdict, file=out)
        return 1 if failed else 0
    print(f"{ws.label}: {plural(len(ws.layer.files), 'file')}, "
          f"{plural(len(index.objects), 'object')}, {plural(len(index.edges), 'edge')}", file=out)
    width = max((len(k) for k in index.by_kind), default=4)
    for kind, n in index.counts_by_kind().items():
        print(f"  {kind:<{width}}  {n:>6,}", file=out)
    if shown:
        print(file=out)
    for d in shown:
        print(diagnostic_line(d), file=out)
    print(file=out)
    print(verdict, file=out)
    return 1 if failed else 0
