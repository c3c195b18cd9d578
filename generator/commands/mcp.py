"""``devcontext mcp``: serve the operations as MCP tools over standard input and output.

::

    devcontext mcp [--repo DIR] [--token T]

Standard output carries the protocol only; anything else goes to standard error. The layer
is read once at start (so a missing layer fails at once, exit 2) and again at a call only
when a file under the repository changed.
"""

from __future__ import annotations

import argparse
import logging
import sys

from .common import add_repo_option

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve compile, explain, policy, query, objects and pack as MCP tools over stdio",
        description="Run a Model Context Protocol server over standard input and output. Its "
        "tools are the operation registry's: devcontext_compile, devcontext_explain, "
        "devcontext_policy, explain, objects_get and devcontext_pack. Register it in an MCP "
        "client as the command `devcontext mcp --repo DIR`.",
    )
    add_repo_option(p)
    p.add_argument("--token", metavar="T",
                   help="require every tool call to carry the argument token=T")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import anyio

    from ..mcp import LiveLayer, McpApp, serve_stdio

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="devcontext mcp: %(message)s")
    if args.token is not None and not args.token.strip():
        from ..errors import RequestError

        raise RequestError("--token is empty; give a non-empty token or leave the option out",
                           field="token")
    live = LiveLayer(args.repo)
    live.current()  # fail now, with the loader's message, rather than at the first call
    anyio.run(serve_stdio, McpApp(live, token=args.token))
    return 0
