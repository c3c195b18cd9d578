"""Validate a request and resolve its seeds against the index (pure).

Errors are typed (:class:`RequestError` naming the field, :class:`NotFoundError` naming
what is missing and how to list what exists), never tracebacks. A message names a request
field in backticks as the wire form spells it (`` `budget_tokens` ``); a surface with its
own spelling rewrites those (the CLI says `` `--budget-tokens` ``, see
:func:`generator.commands.requestopts.spell_for_cli`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from pydantic import ValidationError

from ..errors import NotFoundError, RequestError
from ..identifiers import nearest
from ..index import Index
from ..layer.kinds import a_kind
from ..paths import normalise_path
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
        return field, f"`{field}` is required"
    return field, f"`{field}`: {first.get('msg', 'invalid value')}"


_TEXT_FIELDS = ("uri", "issue", "milestone", "intent")
_LIST_FIELDS = ("paths", "uris")
_WHOLE_FIELDS = ("budget_tokens", "max_depth")


def _typed(data: Mapping[str, Any], text: bool) -> dict[str, Any]:
    """Check (or, for text input, convert) each field's type as the input schema states it.

    JSON input must already carry the schema's types: ``"5"`` is not a budget and ``1`` is
    not a boolean. Text input (query parameters) is converted, with a message naming the
    parameter when it does not read as its type.
    """
    out: dict[str, Any] = {}
    for key, value in data.items():
        if value is None:
            out[key] = None
            continue
        if key in _TEXT_FIELDS:
            if not isinstance(value, str):
                raise RequestError(f"`{key}` must be text; found {type(value).__name__}", field=key)
        elif key in _LIST_FIELDS:
            items = [value] if (text and isinstance(value, str)) else value
            if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
                raise RequestError(f"`{key}` must be a list of text", field=key)
            value = tuple(items)
        elif key in _WHOLE_FIELDS:
            if text and isinstance(value, str):
                if not re.fullmatch(r"\s*-?\d+\s*", value):
                    raise RequestError(f"`{key}` must be a whole number; found `{value}`", field=key)
                value = int(value)
            elif isinstance(value, float) and value.is_integer():
                value = int(value)  # JSON Schema's integer admits 5.0
            elif isinstance(value, bool) or not isinstance(value, int):
                raise RequestError(f"`{key}` must be a whole number; found {value!r}", field=key)
        elif key == "floor":
            if text and isinstance(value, str):
                try:
                    value = float(value)
                except ValueError:
                    raise RequestError(f"`floor` must be a number between 0 and 1; found `{value}`",
                                       field=key) from None
            elif isinstance(value, bool) or not isinstance(value, (int, float)):
                raise RequestError(f"`floor` must be a number between 0 and 1; found {value!r}",
                                   field=key)
        elif key == "all_blocking_rules":
            if text and isinstance(value, str):
                word = value.strip().lower()
                if word not in ("true", "false", "1", "0", "yes", "no", ""):
                    raise RequestError("`all_blocking_rules` must be true or false; found "
                                       f"`{value}`", field=key)
                value = word in ("true", "1", "yes", "")
            elif not isinstance(value, bool):
                raise RequestError(f"`all_blocking_rules` must be true or false; found {value!r}",
                                   field=key)
        out[key] = value
    return out


def parse_input(data: Mapping[str, Any], *, explain: bool = False, text: bool = False) -> CompileInput:
    """A request from plain data, refusing unknown fields and wrongly typed values.

    ``text=True`` for query parameters and other all-text sources: numbers and booleans are
    read from their text forms.
    """
    model = ExplainInput if explain else CompileInput
    allowed = set(model.model_fields)
    for key in data:
        if key not in allowed:
            raise RequestError(
                f"unknown field `{key}`; the request accepts "
                f"{', '.join(sorted(allowed))}", field=key)
    try:
        return model.model_validate(_typed(data, text))
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
        raise RequestError(f"`{field}` is blank; name {a_kind(kind)} or leave it out",
                           field=field)
    obj = index.lookup(kind, trimmed)
    if obj is None:
        held = len(index.by_kind.get(kind, []))
        raise NotFoundError(
            f"the layer holds no {kind} `{trimmed}` (by id, slug or identifier); it holds "
            f"{held} {kind}{'' if held == 1 else 's'} — list them with `devcontext list --kind {kind}`",
            field=field,
        )
    resolved = obj.identity if trimmed != obj.identity else None
    return Seed(uri=obj.uri, kind=kind, **{"from": field}, resolved=resolved)


def resolve_request(index: Index, data: CompileInput) -> ResolvedRequest:
    """Validate in the contract's order, fill defaults, resolve seeds."""
    budget = DEFAULT_BUDGET_TOKENS if data.budget_tokens is None else data.budget_tokens
    if budget <= 0:
        raise RequestError(
            f"`budget_tokens` is {budget}; it must be a whole number of tokens, 1 or more "
            f"(the default is {DEFAULT_BUDGET_TOKENS})",
            field="budget_tokens",
        )
    floor = DEFAULT_FLOOR if data.floor is None else float(data.floor)
    if math.isnan(floor) or not 0.0 <= floor <= 1.0:
        raise RequestError(
            f"`floor` is {fmt_number(floor) if not math.isnan(floor) else 'NaN'}; the relevance "
            "floor must lie between 0 and 1 inclusive",
            field="floor",
        )
    depth = DEFAULT_MAX_DEPTH if data.max_depth is None else data.max_depth
    if depth < 0:
        raise RequestError(f"`max_depth` is {depth}; it must be 0 or more", field="max_depth")

    seeds: list[Seed] = []
    for kind, name in (("issue", data.issue), ("milestone", data.milestone)):
        seed = _resolve_named(index, kind, name, kind)
        if seed is not None:
            seeds.append(seed)
    for uri in data.uris:
        obj = index.get(uri)
        if obj is None:
            close = nearest(index, uri)
            hint = f"; the nearest it holds: {', '.join(f'`{u}`' for u in close)}" if close else ""
            raise NotFoundError(
                f"`uris` names `{uri}`, and the index holds nothing under it{hint}; list "
                "identifiers with `devcontext list`", field="uris")
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
