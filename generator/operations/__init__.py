"""The operation registry: one declaration per operation (``devcontext.compile``,
``devcontext.explain``, ``devcontext.policy``, ``query.explain``, ``objects.get``), from
which the MCP tools and the OpenAPI document are generated and against which the CLI verbs
and the live HTTP routes are checked."""

from .registry import (
    NON_OPERATION_COMMANDS,
    OPERATIONS,
    TRANSPORTS,
    BenchmarkCase,
    CachePolicy,
    Exposure,
    Operation,
    Policies,
    by_route,
    by_tool,
    operation,
)
from .runner import Runner, error_of

__all__ = [
    "NON_OPERATION_COMMANDS",
    "OPERATIONS",
    "TRANSPORTS",
    "BenchmarkCase",
    "CachePolicy",
    "Exposure",
    "Operation",
    "Policies",
    "Runner",
    "by_route",
    "by_tool",
    "error_of",
    "operation",
]
