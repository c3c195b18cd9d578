"""``devcontext list``: every identifier in the layer (optionally of one kind)."""

from __future__ import annotations

import argparse
import sys

from ..jsonio import canonical_json_text
from ..workspace import Workspace
from .common import add_repo_option, limits_from_args

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the layer's objects",
                       description="List every object's identifier, kind and title.")
    add_repo_option(p)
    p.add_argument("--kind", metavar="KIND", help="only objects of this kind (issue, adr, ...)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.repo, limits=limits_from_args(args))
    index = ws.index
    if args.kind and args.kind not in index.by_kind:
        print(f"devcontext list: the layer holds no objects of kind `{args.kind}`; kinds: "
              f"{', '.join(index.kinds())}", file=sys.stderr)
        return 2
    objs = index.by_kind[args.kind] if args.kind else list(index.objects.values())
    rows = []
    for obj in sorted(objs, key=lambda o: o.uri):
        state = index.issue_states.get(obj.uri)
        rows.append({"uri": obj.uri, "kind": obj.kind, "title": obj.title, "status": obj.status,
                     "state": state.state if state else None, "path": obj.provenance.path})
    if args.json:
        sys.stdout.write(canonical_json_text(rows, indent=2))
        return 0
    for r in rows:
        extra = f" [{r['state']}]" if r["state"] else (f" [{r['status']}]" if r["status"] else "")
        print(f"{r['uri']}{extra}  {r['title'] or ''}".rstrip())
    return 0
