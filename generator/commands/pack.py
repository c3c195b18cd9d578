"""``devcontext pack``: the context a session is given, ready to paste or to feed a program."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from ..engine.compile import compile_context
from ..errors import InputError
from ..gitinfo import read_git
from ..pack import PackFormat, build_pack
from ..workspace import Workspace
from .common import add_repo_option
from .requestopts import add_request_options, compile_input

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pack",
        help="the compiled context handed over: each selected entry's own text",
        description="Compile a request and write the context a session is given: a short "
        "header (the request, the budget used, what was left out, the explain page, the pack's "
        "own size), then every selected entry's own text in the order the budget spent it.",
    )
    add_repo_option(p)
    add_request_options(p)
    p.add_argument("--format", choices=[f.value for f in PackFormat], default="markdown",
                   help="markdown to paste (default), xml for agent prompts, json for programs")
    p.add_argument("--out", metavar="FILE", help="write the pack to FILE instead of standard output")
    p.set_defaults(run=run)


def _write_atomically(path: Path, data: bytes) -> None:
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise InputError(f"--out {path}: the directory `{directory}` does not exist; create it "
                         "or name a file in an existing directory", field="out")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"--out {path}: cannot be written: {exc.strerror}. Check the path and "
                         "its permissions", field="out") from exc


def run(args: argparse.Namespace) -> int:
    compile_input(args)  # the flags are checked before the layer is loaded
    ws = Workspace.open(args.repo)
    data = compile_input(args, ws.index)  # --uri in any form the outputs print, as compile
    answer = compile_context(ws.index, data, git=read_git(ws.root))
    pack, body = build_pack(answer, ws.tree.files, args.format)
    if args.out:
        _write_atomically(Path(args.out), body)
        s = pack.size
        print(f"wrote {args.out}: {len(pack.entries)} entries, {s.bytes:,} bytes (~{s.tokens:,} "
              f"tokens; {answer.budget.used_tokens:,} of {answer.budget.limit_tokens:,} budgeted "
              f"+ {s.overhead_bytes:,} bytes of headings)", file=sys.stderr)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(body)
        sys.stdout.buffer.flush()
    return 0
