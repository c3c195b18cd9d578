"""The ``devcontext`` command line: one module per verb under :mod:`generator.commands`.

Exit codes: 0 success; 1 the command ran and found what the user asked it to fail on
(errors in ``check``, an over-budget context with ``--strict``, ...); 2 the command could
not run (bad arguments, no layer, invalid request). Tracebacks only with ``--debug``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from . import __version__
from .commands import build, check, explain, mcp, pack, query, serve, synth
from .commands import compile as compile_verb
from .commands import list as list_verb
from .commands.requestopts import spell_for_cli
from .errors import DevContextError, NotFoundError, RequestError

__all__ = ["COMMANDS", "build_parser", "main", "run"]

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


def _debug_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")


def _sub_verbs(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parsers of ``parser``'s sub-commands (argparse keeps them on its action)."""
    found: dict[int, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found.setdefault(id(child), child)  # aliases share one parser
    return list(found.values())


def _share_debug(parser: argparse.ArgumentParser) -> None:
    """``--debug`` before the verb, after it, or after a sub-verb: every level accepts it."""
    for child in _sub_verbs(parser):
        _debug_option(child)
        child._actions[-1].default = argparse.SUPPRESS  # the top level holds the default
        _share_debug(child)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="devcontext",
        description="Compile, explain and publish the development context of an AI layer.",
    )
    parser.add_argument("--version", action="version", version=f"devcontext {__version__}")
    _debug_option(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS.values():
        module.register(sub)
    _share_debug(parser)
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
        message = exc.message
        if isinstance(exc, (RequestError, NotFoundError)):  # the engine names wire fields
            message = spell_for_cli(message)
        print(f"devcontext {args.command}: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run() -> None:
    """The ``devcontext`` program: :func:`main`, then the process ends at once, its heap not
    taken apart object by object (after a command on a ``large`` layer, tearing down its
    index alone took ~0.7 s, the answer long written). The commands write and close their
    own files; only the standard streams are left to flush, and they are flushed first. An
    exception (``--debug``, argparse's exit) ends the process the usual way."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream: nothing to keep
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
