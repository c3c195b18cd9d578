"""The MCP server: the operation registry's tools over stdio, answered from the layer as it
is on disk at each call (:mod:`.live`)."""

from .live import LiveLayer, stat_signature
from .server import McpApp, build_server, serve_stdio, tool_of

__all__ = ["LiveLayer", "McpApp", "build_server", "serve_stdio", "stat_signature", "tool_of"]
