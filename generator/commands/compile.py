"""``devcontext compile``: the context a session working on the request is given."""

from __future__ import annotations

import argparse
import sys

from ..engine.compile import compile_context
from ..engine.policy import tier_rules
from ..gitinfo import read_git
from ..jsonio import canonical_json_text
from ..textview import render_compiled
from ..workspace import Workspace
from .common import add_repo_option, limits_from_args
from .requestopts import add_request_options, compile_input

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compile",
        help="compile the token-budgeted context of a request",
        description="Compile the development context of an issue, milestone, identifiers, "
        "paths or intent: what is selected and how it was reached, what is excluded and what "
        "it would cost, what was merged.",
    )
    add_repo_option(p)
    add_request_options(p)
    p.add_argument("--json", action="store_true", help="the exact wire form")
    p.add_argument("--strict", action="store_true", help="exit 1 when the context is over budget")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    compile_input(args)  # the flags are checked before the layer is loaded
    ws = Workspace.open(args.repo, limits=limits_from_args(args))
    data = compile_input(args, ws.index)  # with the index: --uri in any form the outputs print
    compiled = compile_context(ws.index, data, git=read_git(ws.root))
    if args.json:
        sys.stdout.write(canonical_json_text(compiled, indent=2))
    else:
        sys.stdout.write(render_compiled(compiled, tier_rules(compiled, ws.index)))
    return 1 if args.strict and compiled.budget.over_budget else 0
