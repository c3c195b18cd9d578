"""Validate a request and resolve its seeds against the index (pure).

Errors are typed (:class:`RequestError` naming the field, :class:`NotFoundError` naming
what is missing and how to list what exists), never tracebacks.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from pydantic import ValidationError

from ..errors import NotFoundError, RequestError
from ..index import Index, normalise_path
from .models import CompileInput, CompileRequest, ExplainInput, Seed
from .numbers import fmt_number
from .policy import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_FLOOR,
    DEFAULT_MAX_DEPTH,
    INTENT_MIN_TERM,
    STOP_WORDS,
)

__all__ = ["ResolvedRequest", "resolve_request", "parse_input", "intent_terms", "normalise_request_path"]


@dataclass(frozen=True)
class ResolvedRequest:
    request: CompileRequest
    seeds: tuple[Seed, ...]
    #: URIs of the seeds that are objects (issue, milestone, uris), sorted.
    object_seeds: tuple[str, ...]
    #: The normalised request paths, sorted and de-duplicated.
    paths: tuple[str, ...]
    terms: tuple[str, ...]


def _pydantic_message(exc: ValidationError) -> tuple[str, str]:
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first.get("loc", ())) or "input"
    kind = first.get("type", "")
    if kind == "extra_forbidden":
        return field, f"unknown field `{field}`; the request accepts issue, milestone, uris, " \
            "paths, intent, budget_tokens, max_depth, floor and all_blocking_rules"
    if kind == "missing":
        return field, f"field `{field}` is required"
    return field, f"field `{field}`: {first.get('msg', 'invalid value')}"


def parse_input(data: Mapping[str, Any], *, explain: bool = False) -> CompileInput:
    """A request from plain data (JSON, query parameters), refusing unknown fields."""
    model = ExplainInput if explain else CompileInput
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        field, message = _pydantic_message(exc)
        raise RequestError(message, field=field) from None


def normalise_request_path(raw: str) -> str:
    path = normalise_path(raw)
    if not path:
        raise RequestError("an empty path is not a scope; name a repository-relative path",
                           field="paths")
    if path.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path):
        raise RequestError(f"path `{raw}` is absolute; it lies outside the repository. "
                           "Give it relative to the repository root", field="paths")
    if ".." in path.split("/"):
        raise RequestError(f"path `{raw}` contains `..`, so it may lie outside the "
                           "repository; give it relative to the repository root", field="paths")
    return path


_TERM_SPLIT = re.compile(r"[^\w-]+", re.UNICODE)


def intent_terms(intent: str | None) -> tuple[str, ...]:
    """Terms of ≥ 3 characters, lower-cased, stop words dropped, de-duplicated, sorted."""
    if not intent:
        return ()
    terms = set()
    for piece in _TERM_SPLIT.split(intent):
        if len(piece) >= INTENT_MIN_TERM:
            word = piece.lower()
            if word not in STOP_WORDS:
                terms.add(word)
    return tuple(sorted(terms))


def _resolve_named(index: Index, kind: str, name: str | None, field: str) -> Seed | None:
    if name is None:
        return None
    trimmed = name.strip()
    if not trimmed:
        raise RequestError(f"field `{field}` is blank; name a {kind} or leave the field out",
                           field=field)
    obj = index.lookup(kind, trimmed)
    if obj is None:
        held = len(index.by_kind.get(kind, []))
        raise NotFoundError(
            f"the layer holds no {kind} `{trimmed}` (by id, slug or identifier); it holds "
            f"{held} {kind}(s) — list them with `devcontext list --kind {kind}`",
            field=field,
        )
    resolved = obj.identity if trimmed != obj.identity else None
    return Seed(uri=obj.uri, kind=kind, **{"from": field}, resolved=resolved)


def resolve_request(index: Index, data: CompileInput) -> ResolvedRequest:
    """Validate in the contract's order, fill defaults, resolve seeds."""
    budget = DEFAULT_BUDGET_TOKENS if data.budget_tokens is None else data.budget_tokens
    if budget <= 0:
        raise RequestError(
            f"budget_tokens is {budget}; a budget of zero buys nothing — give a positive "
            f"number of tokens (the default is {DEFAULT_BUDGET_TOKENS})",
            field="budget_tokens",
        )
    floor = DEFAULT_FLOOR if data.floor is None else float(data.floor)
    if math.isnan(floor) or not 0.0 <= floor <= 1.0:
        raise RequestError(
            f"floor is {fmt_number(floor) if not math.isnan(floor) else 'NaN'}; the relevance "
            "floor must lie between 0 and 1 inclusive",
            field="floor",
        )
    depth = DEFAULT_MAX_DEPTH if data.max_depth is None else data.max_depth
    if depth < 0:
        raise RequestError(f"max_depth is {depth}; it must be 0 or more", field="max_depth")

    seeds: list[Seed] = []
    for kind, name in (("issue", data.issue), ("milestone", data.milestone)):
        seed = _resolve_named(index, kind, name, kind)
        if seed is not None:
            seeds.append(seed)
    for uri in data.uris:
        obj = index.get(uri)
        if obj is None:
            raise NotFoundError(
                f"the index holds nothing under `{uri}`; list identifiers with "
                "`devcontext list`", field="uris")
        seeds.append(Seed(uri=uri, kind=obj.kind, **{"from": "uris"}))
    paths: list[str] = []
    for raw in data.paths:
        path = normalise_request_path(raw)
        paths.append(path)
        seeds.append(Seed(uri=path, kind="path", **{"from": "paths"}))
    intent = data.intent.strip() if data.intent else None
    if intent:
        seeds.append(Seed(uri=intent, kind="intent", **{"from": "intent"}))

    request = CompileRequest(
        issue=data.issue.strip() if data.issue else None,
        milestone=data.milestone.strip() if data.milestone else None,
        intent=intent or None,
        paths=tuple(paths),
        uris=tuple(data.uris),
        budget_tokens=budget,
        max_depth=depth,
        floor=floor,
        all_blocking_rules=bool(data.all_blocking_rules),
    )
    object_seeds = tuple(sorted({s.uri for s in seeds if s.kind not in ("path", "intent")}))
    return ResolvedRequest(
        request=request,
        seeds=tuple(seeds),
        object_seeds=object_seeds,
        paths=tuple(sorted(set(paths))),
        terms=intent_terms(intent),
    )
