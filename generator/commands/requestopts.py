"""The request options shared by ``compile`` and ``explain``."""

from __future__ import annotations

import argparse
import re

from ..engine.models import CompileInput
from ..identifiers import resolve_identifier
from ..index import Index

__all__ = ["CLI_SPELLING", "NO_SEED_NOTE", "add_request_options", "compile_input", "has_seed",
           "request_from_args", "spell_for_cli"]

#: A request field (or query parameter) -> the flag that sets it on the command line.
CLI_SPELLING: dict[str, str] = {
    "issue": "--issue",
    "milestone": "--milestone",
    "uris": "--uri",
    "paths": "--path",
    "intent": "--intent",
    "budget_tokens": "--budget-tokens",
    "floor": "--floor",
    "max_depth": "--max-depth",
    "all_blocking_rules": "--all-blocking-rules",
    "limit": "--limit",
    "depth": "--depth",
}

_QUOTED_FIELD = re.compile(r"`(" + "|".join(map(re.escape, CLI_SPELLING)) + r")`")


def spell_for_cli(text: str) -> str:
    """The engine's words with each request field spelled as the command line's flag.

    The engine names a field in backticks as the wire form spells it (`` `budget_tokens` ``,
    what HTTP and JSON callers type); on the command line the user typed
    `` `--budget-tokens` ``, so that is what a message must say.
    """
    return _QUOTED_FIELD.sub(lambda m: f"`{CLI_SPELLING[m.group(1)]}`", text)


def add_request_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("request")
    g.add_argument("--issue", metavar="ID", help="issue id, slug or identifier")
    g.add_argument("--milestone", metavar="ID", help="milestone id, slug or identifier")
    g.add_argument("--uri", dest="uris", action="append", default=[], metavar="URI",
                   help="seed with this object: its identifier, kind/identity or bare id (repeatable)")
    g.add_argument("--path", dest="paths", action="append", default=[], metavar="PATH",
                   help="a repository-relative path the work touches (repeatable)")
    g.add_argument("--intent", metavar="TEXT", help="what the session is trying to do")
    g.add_argument("--budget-tokens", type=int, metavar="N", help="token ceiling (default 24000)")
    g.add_argument("--floor", type=float, metavar="F", help="relevance floor in [0, 1] (default 0.25)")
    g.add_argument("--max-depth", type=int, metavar="D", help="walk depth (default 3)")
    g.add_argument("--all-blocking-rules", action="store_true",
                   help="every blocking rule of the layer, not only those reached")


def request_from_args(args: argparse.Namespace, index: Index | None = None) -> dict:
    """The request the flags give. With ``index``, each ``--uri`` may be any identifier form
    the outputs print (``adr/adr-0002``, ``adr-0002``) and is resolved to its URI."""
    uris = tuple(args.uris)
    if index is not None:
        uris = tuple(resolve_identifier(index, u, flag="--uri") for u in uris)
    data = {
        "issue": args.issue,
        "milestone": args.milestone,
        "uris": uris,
        "paths": tuple(args.paths),
        "intent": args.intent,
        "budget_tokens": args.budget_tokens,
        "floor": args.floor,
        "max_depth": args.max_depth,
        "all_blocking_rules": True if args.all_blocking_rules else None,
    }
    return {k: v for k, v in data.items() if v not in (None, ())}


def has_seed(args: argparse.Namespace) -> bool:
    """Whether the flags name anything to compile for (else: governance only)."""
    return bool(args.issue or args.milestone or args.uris or args.paths or args.intent)


#: What the views say when the flags name no seed.
NO_SEED_NOTE = ("no request given (no --issue, --milestone, --uri, --path or --intent): judged "
                "under governance only — policy, scope and blocking rules; give one of those "
                "flags to judge it under the work it is for")


def compile_input(args: argparse.Namespace, index: Index | None = None) -> CompileInput:
    from ..engine.request import parse_input

    return parse_input(request_from_args(args, index))
