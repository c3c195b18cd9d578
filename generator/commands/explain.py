"""``devcontext explain NAME``: one identifier's standing under a request."""

from __future__ import annotations

import argparse
import sys

from ..engine.explain import explain
from ..engine.request import parse_input
from ..gitinfo import read_git
from ..identifiers import resolve_identifier
from ..jsonio import canonical_json_text
from ..textview import render_explanation
from ..workspace import Workspace
from .common import add_repo_option, limits_from_args
from .requestopts import NO_SEED_NOTE, add_request_options, has_seed, request_from_args

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help="why one identifier is, or is not, in a compiled context",
        description="Explain one identifier's standing (selected, excluded, deduplicated, "
        "not_reached or unknown) under a request, with the budget it was judged under. The "
        "identifier may be given in any form the outputs print: majordomus://adr/adr-0052, "
        "adr/adr-0052 or adr-0052.",
    )
    p.add_argument("uri", metavar="IDENTIFIER",
                   help="the object: its identifier (majordomus://adr/adr-0052), kind/identity "
                   "(adr/adr-0052) or bare id (adr-0052, I0102)")
    add_repo_option(p)
    add_request_options(p)
    p.add_argument("--json", action="store_true", help="the exact wire form")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    parse_input({"uri": args.uri, **request_from_args(args)}, explain=True)  # flags first
    ws = Workspace.open(args.repo, limits=limits_from_args(args))
    # A name that names nothing is answered `unknown` (with the nearest identifiers), not
    # refused; an ambiguous one is refused with its candidates.
    uri = resolve_identifier(ws.index, args.uri, flag="the identifier", strict=False)
    data = parse_input({"uri": uri, **request_from_args(args, ws.index)}, explain=True)
    answer = explain(ws.index, data, git=read_git(ws.root))
    if args.json:
        sys.stdout.write(canonical_json_text(answer, indent=2))
        if not has_seed(args):
            print(f"devcontext explain: {NO_SEED_NOTE}", file=sys.stderr)
    else:
        sys.stdout.write(render_explanation(answer, note=None if has_seed(args) else NO_SEED_NOTE))
    return 0
