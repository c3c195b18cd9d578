"""``devcontext query``: run a text or cross-reference query and show its EXPLAIN trace.

::

    devcontext query text "eval gate" [--limit N] [--json] [--repo DIR]
    devcontext query cross-ref M000 [--depth D] [--limit N] [--json] [--repo DIR]

``--limit``, ``--json`` and ``--repo`` are shared by both kinds: they go before or after it
(``devcontext query --repo R text "cache"``).

The arguments go through the same validation as ``GET /v1/explain`` (so the messages are the
same); ``--json`` prints the trace exactly as the server's ``explain`` field carries it.
"""

from __future__ import annotations

import argparse
import sys

from ..jsonio import canonical_json_text
from ..query import run_query
from ..query.crossref import DEFAULT_DEPTH, MAX_DEPTH
from ..query.trace_text import render_trace
from ..query.text import DEFAULT_LIMIT, MAX_LIMIT
from ..workspace import Workspace
from .common import add_repo_option, limits_from_args, share_options

__all__ = ["register", "run"]


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--limit", metavar="N",
                   help=f"at most N hits (default {DEFAULT_LIMIT}, at most {MAX_LIMIT})")
    add_repo_option(p)
    p.add_argument("--json", action="store_true", help="the trace as JSON (the wire form)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "query",
        help="search the layer or walk its references, with the EXPLAIN trace",
        description="Run a query and print its EXPLAIN trace: the query as executed, how "
        "many objects were scanned and matched, the ordering rules, every hit with its score "
        "and why, and every reference that could not be followed.",
    )
    kinds = p.add_subparsers(dest="query_kind", metavar="KIND", required=True)
    text = kinds.add_parser(
        "text", help="rank objects by where the words occur (id ×4, title ×3, summary ×1)",
        description="Rank every object by the query's terms: per matched term, 4 if it "
        "occurs in the id, 3 in the title, 1 in the summary.")
    text.add_argument("value", help="the words to search for")
    walk = kinds.add_parser(
        "cross-ref", help="walk the typed references from one object, breadth-first",
        description="Walk the layer's typed edges (both directions) from an issue, milestone "
        "or any object, breadth-first, listing every reference that leads nowhere.")
    walk.add_argument("start", help="an issue or milestone id or slug, an id of any kind, or a URI")
    walk.add_argument("--depth", metavar="D",
                      help=f"hops to walk (default {DEFAULT_DEPTH}; deeper than {MAX_DEPTH} "
                      "is clamped)")
    share_options(p, (text, walk), _common)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.query_kind == "text":
        params = {"kind": "text", "value": args.value}
    else:
        params = {"kind": "cross_ref", "start": args.start}
        if args.depth is not None:
            params["depth"] = args.depth
    if args.limit is not None:
        params["limit"] = args.limit
    trace = run_query(Workspace.open(args.repo, limits=limits_from_args(args)).index, params)
    if args.json:
        sys.stdout.write(canonical_json_text(trace, indent=2))
    else:
        sys.stdout.write(render_trace(trace))
    return 0
