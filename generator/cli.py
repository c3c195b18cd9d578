"""The ``devcontext`` command line: one module per verb under :mod:`generator.commands`.

Exit codes: 0 success; 1 the command ran and found what the user asked it to fail on
(errors in ``check``, an over-budget context with ``--strict``, ...); 2 the command could
not run (bad arguments, no layer, invalid request). Tracebacks only with ``--debug``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from . import __version__
from .commands import build, check, explain, mcp, pack, query, serve, synth
from .commands import compile as compile_verb
from .commands import list as list_verb
from .errors import DevContextError

__all__ = ["COMMANDS", "build_parser", "main"]

#: Verb -> its module under generator.commands, exposing ``register(subparsers)`` and
#: ``run(args)``; the subcommands are listed in this order.
COMMANDS: dict[str, ModuleType] = {
    "build": build,
    "check": check,
    "compile": compile_verb,
    "explain": explain,
    "list": list_verb,
    "mcp": mcp,
    "pack": pack,
    "query": query,
    "serve": serve,
    "synth": synth,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="devcontext",
        description="Compile, explain and publish the development context of an AI layer.",
    )
    parser.add_argument("--version", action="version", version=f"devcontext {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS.values():
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except DevContextError as exc:
        if args.debug:
            raise
        print(f"devcontext {args.command}: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
