"""``devcontext synth``: write a deterministic synthetic layer."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .common import plural

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "synth",
        help="write a realistic, deterministic synthetic layer",
        description="Write a synthetic AI layer (milestones, issues with a dependency DAG, "
        "ADRs, rules, contracts, sessions, source files, a few dangling references). The same "
        "arguments always write the same bytes.",
    )
    p.add_argument("--size", choices=("small", "medium", "large"), default="small")
    p.add_argument("--issues", type=int, metavar="N", help="override the number of issues")
    p.add_argument("--out", required=True, metavar="DIR", help="directory to write the layer to")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import RequestError
    from ..synth import synthesize, write_layer

    if args.issues is not None and args.issues < 1:
        raise RequestError("--issues must be at least 1", field="issues")
    started = time.perf_counter()
    files = synthesize(args.size, issues=args.issues)
    written = write_layer(files, Path(args.out))
    size = sum(len(b) for b in files.values())
    print(
        f"wrote {plural(written, 'file')} ({size / 1e6:.1f} MB) of a {args.size} synthetic layer "
        f"to {args.out} in {time.perf_counter() - started:.1f}s",
        file=sys.stdout,
    )
    return 0
