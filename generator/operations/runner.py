"""Answering an operation on a surface: parse, answer through the cache its policy declares,
and map errors to one error body.

The compile and explain caches are the engine's (:class:`~generator.engine.EngineCache`,
whose sizes the registry's cache policies declare); the other operations are answered
directly. Errors map the same way on every surface: a bad argument is 400 (an MCP tool
error), something the index does not hold 404, both with the same message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from ..engine import EngineCache
from ..engine.compile import GitInfo
from ..engine.models import CompileInput, ExplainInput
from ..errors import DevContextError, NotFoundError
from ..index import Index
from .arguments import fields_from_pairs
from .models import ErrorBody, ErrorDetail
from .registry import Operation

__all__ = ["Runner", "error_of"]


def error_of(exc: DevContextError) -> tuple[int, ErrorBody]:
    """The HTTP status and the error body of a product error (as ``serve/api.py`` answers)."""
    status = 404 if isinstance(exc, NotFoundError) else 400
    detail = ErrorDetail(code=exc.code, message=exc.message, parameter=getattr(exc, "field", None))
    return status, ErrorBody(error=detail)


class Runner:
    """One per server (or process): holds the caches the registry's policies declare."""

    def __init__(self, cache: EngineCache | None = None) -> None:
        self.cache = cache or EngineCache()

    def call(self, op: Operation, index: Index, data: BaseModel, git: GitInfo | None = None,
             files: Mapping[str, bytes] | None = None) -> BaseModel:
        """Answer a parsed input, through the operation's cache when it declares one."""
        if op.policies.cache is not None:
            if isinstance(data, ExplainInput):
                return self.cache.explain(index, data, git)
            if isinstance(data, CompileInput):
                return self.cache.compile(index, data, git)
        return op.call(index, data, git, files)

    def answer(self, op: Operation, index: Index, arguments: Mapping[str, Any],
               git: GitInfo | None = None, *, text: bool = False,
               files: Mapping[str, bytes] | None = None) -> BaseModel:
        """Parse JSON (or, with ``text``, query-string) arguments and answer; raises the
        product's errors. ``files``: the source tree, for an operation that needs it."""
        return self.call(op, index, op.parse(arguments, text=text), git, files)

    def answer_pairs(self, op: Operation, index: Index, pairs: Iterable[tuple[str, str]],
                     git: GitInfo | None = None) -> BaseModel:
        """Answer query parameters, as the live HTTP API receives them."""
        return self.answer(op, index, fields_from_pairs(pairs, op.list_fields), git, text=True)
