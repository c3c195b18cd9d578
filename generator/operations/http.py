"""The registry over HTTP: ``answer(route, index, pairs, git) -> (status, JSON bytes)``.

What the live server calls for the registry's routes (and the OpenAPI document). Query
parameters are read as :func:`~generator.operations.arguments.fields_from_pairs` reads
them; errors are :func:`~generator.operations.runner.error_of`'s body and status.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import lru_cache

from ..engine.compile import GitInfo
from ..errors import DevContextError
from ..index import Index
from ..jsonio import canonical_json
from .openapi import OPENAPI_ROUTE, openapi_document
from .registry import OPERATIONS, by_route
from .runner import Runner, error_of

__all__ = ["REGISTRY_ROUTES", "HttpSurface", "openapi_bytes"]

log = logging.getLogger("devcontext.serve")

#: Every route the registry declares, then the document describing them.
REGISTRY_ROUTES: tuple[str, ...] = tuple(
    op.exposure.http_route for op in OPERATIONS if op.exposure.http_route) + (OPENAPI_ROUTE,)


@lru_cache(maxsize=1)
def openapi_bytes() -> bytes:
    """The document as served and written (indented: people read it too)."""
    return canonical_json(openapi_document(), indent=2)


class HttpSurface:
    def __init__(self, runner: Runner | None = None) -> None:
        self.runner = runner or Runner()

    def answer(self, route: str, index: Index, pairs: Iterable[tuple[str, str]],
               git: GitInfo | None = None) -> tuple[int, bytes]:
        if route == OPENAPI_ROUTE:
            return 200, openapi_bytes()
        op = by_route(route)
        if op is None:
            return _not_found(route)
        try:
            return 200, canonical_json(self.runner.answer_pairs(op, index, pairs, git))
        except DevContextError as exc:
            status, body = error_of(exc)
            return status, canonical_json(body)
        except Exception:  # noqa: BLE001 - the client gets a clean 500, the log the traceback
            log.exception("the API failed on %s", route)
            return 500, canonical_json({"error": {
                "code": "internal_error",
                "message": "the server failed to answer this request; the error is in the "
                "server's log"}})


def _not_found(route: str) -> tuple[int, bytes]:
    return 404, canonical_json({"error": {
        "code": "not_found",
        "message": f"no operation is served at {route}; the routes are "
        + ", ".join(REGISTRY_ROUTES)}})
