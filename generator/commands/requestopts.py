"""The request options shared by ``compile`` and ``explain``."""

from __future__ import annotations

import argparse

from ..engine.models import CompileInput

__all__ = ["add_request_options", "request_from_args"]


def add_request_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("request")
    g.add_argument("--issue", metavar="ID", help="issue id, slug or identifier")
    g.add_argument("--milestone", metavar="ID", help="milestone id, slug or identifier")
    g.add_argument("--uri", dest="uris", action="append", default=[], metavar="URI",
                   help="seed with this canonical identifier (repeatable)")
    g.add_argument("--path", dest="paths", action="append", default=[], metavar="PATH",
                   help="a repository-relative path the work touches (repeatable)")
    g.add_argument("--intent", metavar="TEXT", help="what the session is trying to do")
    g.add_argument("--budget-tokens", type=int, metavar="N", help="token ceiling (default 24000)")
    g.add_argument("--floor", type=float, metavar="F", help="relevance floor in [0, 1] (default 0.25)")
    g.add_argument("--max-depth", type=int, metavar="D", help="walk depth (default 3)")
    g.add_argument("--all-blocking-rules", action="store_true",
                   help="every blocking rule of the layer, not only those reached")


def request_from_args(args: argparse.Namespace) -> dict:
    data = {
        "issue": args.issue,
        "milestone": args.milestone,
        "uris": tuple(args.uris),
        "paths": tuple(args.paths),
        "intent": args.intent,
        "budget_tokens": args.budget_tokens,
        "floor": args.floor,
        "max_depth": args.max_depth,
        "all_blocking_rules": True if args.all_blocking_rules else None,
    }
    return {k: v for k, v in data.items() if v not in (None, ())}


def compile_input(args: argparse.Namespace) -> CompileInput:
    from ..engine.request import parse_input

    return parse_input(request_from_args(args))
