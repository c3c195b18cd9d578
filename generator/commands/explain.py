"""``devcontext explain URI``: one identifier's standing under a request."""

from __future__ import annotations

import argparse
import sys

from ..engine.explain import explain
from ..engine.request import parse_input
from ..gitinfo import read_git
from ..jsonio import canonical_json_text
from ..textview import render_explanation
from ..workspace import Workspace
from .common import add_repo_option, limits_from_args
from .requestopts import add_request_options, request_from_args

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help="why one identifier is, or is not, in a compiled context",
        description="Explain one identifier's standing (selected, excluded, deduplicated, "
        "not_reached or unknown) under a request, with the budget it was judged under.",
    )
    p.add_argument("uri", help="the canonical identifier, e.g. majordomus://adr/adr-0052")
    add_repo_option(p)
    add_request_options(p)
    p.add_argument("--json", action="store_true", help="the exact wire form")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    data = parse_input({"uri": args.uri, **request_from_args(args)}, explain=True)
    ws = Workspace.open(args.repo, limits=limits_from_args(args))
    answer = explain(ws.index, data, git=read_git(ws.root))
    if args.json:
        sys.stdout.write(canonical_json_text(answer, indent=2))
    else:
        sys.stdout.write(render_explanation(answer))
    return 0
