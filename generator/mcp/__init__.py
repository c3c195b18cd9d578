"""The MCP server: the operation registry's tools over stdio, answered from the layer as it
is on disk at each call (:mod:`.live`)."""

from .live import LiveLayer, Now, depended_paths, stat_rows
from .server import McpApp, build_server, serve_stdio, tool_of

__all__ = ["LiveLayer", "McpApp", "Now", "build_server", "depended_paths", "serve_stdio",
           "stat_rows", "tool_of"]
