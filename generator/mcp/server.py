"""``devcontext mcp``: the registry's operations as MCP tools over stdio (official SDK).

Tools are generated from :data:`generator.operations.OPERATIONS`: name, description, input
schema (the operation's input model; with a token, a required ``token`` property) and
output schema (its output model). A call answers with the operation's wire JSON as
structured content (and the same JSON as text, for clients that read only text); a bad
argument is a tool error (``isError``) whose text is the message the HTTP API gives.

This is the SDK's low-level ``Server`` rather than ``MCPServer``, on purpose: MCPServer
derives a tool's arguments from a function signature and validates them with pydantic's
own messages, drops unknown arguments silently and writes nulls into structured content.
The contract is the other way round — the schema comes from the registry's model, unknown
arguments are refused, a bad one reads as over HTTP, and the JSON is the same on every
surface — so the tools are listed and answered from the registry directly.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from .. import __version__
from ..engine.cache import LRU
from ..errors import DevContextError, RequestError
from ..jsonio import canonical_plain_json, to_jsonable
from ..operations import OPERATIONS, Operation, Runner, by_tool
from ..operations.schemas import input_schema, output_schema
from .live import LiveLayer, Now

__all__ = ["McpApp", "build_server", "serve_stdio", "tool_of"]

log = logging.getLogger("devcontext.mcp")

#: Serialised answers kept (the engine's own caches sit below: compile 16, explain 8).
ANSWER_CACHE_SIZE = 32

INSTRUCTIONS = (
    "devcontext compiles the token-budgeted development context of a repository's AI layer "
    "and explains it: devcontext_compile (what a session working on an issue, milestone, "
    "paths or intent is given, and why), devcontext_explain (why one identifier is or is not "
    "in it), devcontext_policy (the compiler's tiers, weights and defaults), explain (ranked "
    "text search or a cross-reference walk, with its EXPLAIN trace), objects_get (one "
    "object whole, with its Markdown body — entries carry no prose) and devcontext_pack (the "
    "compiled context handed over: each selected entry's own text)."
)


def tool_of(op: Operation, *, token: bool = False) -> types.Tool:
    """The MCP tool of one operation, from its declaration."""
    assert op.exposure.mcp_tool is not None
    return types.Tool(
        name=op.exposure.mcp_tool,
        title=op.summary,
        description=f"{op.summary}. {op.description} (operation `{op.id}`)",
        input_schema=input_schema(op, token=token),
        output_schema=output_schema(op),
        annotations=types.ToolAnnotations(read_only_hint=True, idempotent_hint=True,
                                          destructive_hint=False, open_world_hint=False),
    )


class McpApp:
    """The tools and their answers, independent of the transport (tests call it directly)."""

    def __init__(self, live: LiveLayer, *, token: str | None = None,
                 runner: Runner | None = None) -> None:
        self.live = live
        self.token = token
        self.runner = runner or Runner()
        self.tools = [tool_of(op, token=token is not None) for op in OPERATIONS
                      if op.exposure.mcp_tool is not None]
        self.answers: LRU[tuple[dict[str, Any], str]] = LRU(ANSWER_CACHE_SIZE)

    def _check_token(self, arguments: dict[str, Any]) -> None:
        if self.token is None:
            return
        given = arguments.pop("token", None)
        if given is None:
            raise RequestError("this server needs a `token` argument: the token it was started "
                               "with (`devcontext mcp --token T`)", field="token")
        if not isinstance(given, str) or not hmac.compare_digest(
                given.encode("utf-8"), self.token.encode("utf-8")):
            raise RequestError("the `token` argument does not match the token this server was "
                               "started with", field="token")

    def call(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        """Answer one ``tools/call``; every product error becomes a tool error."""
        op = by_tool(name)
        if op is None:
            names = ", ".join(t.name for t in self.tools)
            return _error(f"there is no tool `{name}`; the tools are {names}")
        arguments = dict(arguments or {})
        try:
            self._check_token(arguments)
            now = self.live.current()
            wire, text = self._answer(op, now, arguments)
        except DevContextError as exc:
            return _error(exc.message)
        except Exception:  # noqa: BLE001 - the client gets a clean error, the log the traceback
            log.exception("the tool %s failed", name)
            return _error(f"the tool `{name}` failed on this request; the error is in the "
                          "server's log (its standard error)")
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                    structured_content=wire)

    def _answer(self, op: Operation, now: Now,
                arguments: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The answer's wire form and its canonical JSON text, kept per layer fingerprint,
        git state and arguments (as the live HTTP API keeps its serialised answers)."""
        def compute() -> tuple[dict[str, Any], str]:
            return self._serialise(self.runner.answer(op, now.index, arguments, now.git,
                                                      files=now.files))

        try:
            key = (now.index.fingerprint, now.git, op.id, canonical_plain_json(arguments))
        except (TypeError, ValueError):  # arguments JSON cannot write again: not kept
            return compute()
        return self.answers.get_or_compute(key, compute)

    @staticmethod
    def _serialise(answer: Any) -> tuple[dict[str, Any], str]:
        wire = to_jsonable(answer)
        return wire, canonical_plain_json(wire).decode("utf-8")


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)],
                                is_error=True)


def build_server(app: McpApp) -> Server:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=app.tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return app.call(params.name, params.arguments)

    return Server("devcontext", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio(app: McpApp) -> None:
    """Serve one client over standard input and output until it closes them."""
    server = build_server(app)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
