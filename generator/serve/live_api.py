"""The live API: the engine's compile and explain over HTTP, answered from the last good
build's index through one :class:`EngineCache`, and the query explain when present.

``GET /api/v1/devcontext/explain``  operationId ``devcontext.explain``: the Explanation
``GET /api/v1/devcontext/compile``  operationId ``devcontext.compile``: the compiled answer
``GET /v1/explain``                 the query engine's ``{"kind": "explain", ...}`` envelope

The operation registry's other routes (``/api/v1/devcontext/policy``, ``/api/v1/object``)
and its OpenAPI document (``/api/openapi.json``) are answered by
:class:`generator.operations.http.HttpSurface`, through the same engine cache.

Parameters are the request's fields (``uri`` only for explain). ``paths`` and ``uris`` may
be repeated or comma-separated; every other parameter is given at most once. A bad
parameter answers 400 ``{"error": {"code", "message", "parameter"}}``; an issue, milestone
or identifier the layer does not hold answers 404 the same way; anything unexpected is
logged and answers 500 without a traceback.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any, Callable

from ..engine import EngineCache, parse_input
from ..errors import DevContextError, NotFoundError, RequestError
from ..jsonio import canonical_json, canonical_json_text
from ..operations.arguments import fields_from_pairs
from ..operations.http import REGISTRY_ROUTES, HttpSurface, openapi_bytes
from ..operations.openapi import OPENAPI_ROUTE
from ..operations.runner import Runner
from .incremental import Snapshot

__all__ = ["LiveApi", "API_ROUTES", "error_body"]

log = logging.getLogger("devcontext.serve")

EXPLAIN_ROUTE = "/api/v1/devcontext/explain"
COMPILE_ROUTE = "/api/v1/devcontext/compile"
QUERY_ROUTE = "/v1/explain"
#: The registry's routes this module does not answer itself.
REGISTRY_ONLY_ROUTES = tuple(r for r in REGISTRY_ROUTES
                             if r not in (EXPLAIN_ROUTE, COMPILE_ROUTE, QUERY_ROUTE))
API_ROUTES = (EXPLAIN_ROUTE, COMPILE_ROUTE, QUERY_ROUTE, *REGISTRY_ONLY_ROUTES)

#: Request fields that take a list.
LIST_FIELDS = ("paths", "uris")
#: Serialised answers kept per (fingerprint, git, route, canonical request).
RESPONSE_CACHE_SIZE = 64


def error_body(code: str, message: str, parameter: str | None = None) -> bytes:
    error: dict[str, Any] = {"code": code, "message": message}
    if parameter is not None:
        error["parameter"] = parameter
    return canonical_json({"error": error})


class LiveApi:
    """Answers the API routes: ``handle(route, pairs) -> (status, JSON bytes)``."""

    def __init__(self, snapshot: Callable[[], Snapshot | None], cache: EngineCache | None = None) -> None:
        self.snapshot = snapshot
        self.cache = cache or EngineCache()
        self._responses: OrderedDict[tuple, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.registry = HttpSurface(Runner(self.cache))

    def handle(self, route: str, pairs: list[tuple[str, str]]) -> tuple[int, bytes]:
        try:
            if route == OPENAPI_ROUTE:  # the document needs no layer
                return 200, openapi_bytes()
            snap = self.snapshot()
            if snap is None:
                return 503, error_body("not_ready", "the site is still being built; try again "
                                       "in a moment")
            if route in REGISTRY_ONLY_ROUTES:
                return self.registry.answer(route, snap.index, pairs, snap.git)
            if route == QUERY_ROUTE:
                return 200, self._query(snap, pairs)
            return 200, self._engine(snap, route, pairs)
        except RequestError as exc:
            return 400, error_body(exc.code, exc.message, exc.field)
        except NotFoundError as exc:
            return 404, error_body(exc.code, exc.message, exc.field)
        except DevContextError as exc:
            return 400, error_body(exc.code, exc.message, getattr(exc, "field", None))
        except Exception:  # noqa: BLE001 - the client gets a clean 500, the log the traceback
            log.exception("the API failed on %s", route)
            return 500, error_body("internal_error", "the server failed to answer this request; "
                                   "the error is in the server's log")

    # -- engine routes -------------------------------------------------------------------

    def _engine(self, snap: Snapshot, route: str, pairs: list[tuple[str, str]]) -> bytes:
        data = request_fields(pairs)
        explain = route == EXPLAIN_ROUTE
        request = parse_input(data, explain=explain, text=True)
        key = (snap.index.fingerprint, snap.git, route, canonical_json_text(request.wire()))
        with self._lock:
            body = self._responses.get(key)
            if body is not None:
                self._responses.move_to_end(key)
                return body
        if explain:
            answer = self.cache.explain(snap.index, request, snap.git)
        else:
            answer = self.cache.compile(snap.index, request, snap.git)
        body = canonical_json(answer)
        with self._lock:
            self._responses[key] = body
            while len(self._responses) > RESPONSE_CACHE_SIZE:
                self._responses.popitem(last=False)
        return body

    # -- query explain -------------------------------------------------------------------

    def _query(self, snap: Snapshot, pairs: list[tuple[str, str]]) -> bytes:
        try:
            from ..query import explain_query
        except ImportError:
            raise NotFoundError("query explain is not available in this build of devcontext",
                                field=None) from None
        params: dict[str, str] = {}
        for name, value in pairs:
            if name in params:
                raise RequestError(f"parameter `{name}` is given more than once; give it once",
                                   field=name)
            params[name] = value
        return canonical_json(explain_query(snap.index, params))


def request_fields(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Query parameters as request fields: lists for ``paths``/``uris`` (repeated or
    comma-separated), single strings otherwise (pydantic converts and validates them)."""
    return fields_from_pairs(pairs, LIST_FIELDS)
