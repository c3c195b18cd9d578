"""The small wire types the registry adds where the engine has none: the policy document,
the query explain's input and envelope, one object's input, and the error body every
surface answers with.

``devcontext.compile``/``devcontext.explain`` reuse the engine's own models
(:mod:`generator.engine.models`), the query explain its :class:`~generator.query.models.Trace`,
and ``objects.get`` the layer's :class:`~generator.model.LayerObject` — one definition each.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..engine.models import Tier, WireModel
from ..query.models import Trace

__all__ = [
    "CompilerPolicy",
    "EdgeWeight",
    "ErrorBody",
    "ErrorDetail",
    "ObjectInput",
    "PolicyDefaults",
    "PolicyInput",
    "QueryExplainInput",
    "QueryExplanation",
    "RefusedEdge",
    "SelectorRelevance",
    "TierPolicy",
]


class PolicyInput(WireModel):
    """``devcontext.policy`` takes nothing: the policy is the compiler's, not the request's."""


class TierPolicy(WireModel):
    tier: Tier
    rank: int = Field(ge=0, description="Position in the spend order (0 is spent first).")
    meaning: str
    kinds: tuple[str, ...] = Field(description="The kinds spent from this tier; empty for "
                                   "`history`, which takes every kind no other tier names.")


class EdgeWeight(WireModel):
    edge: str
    forward: float = Field(description="Weight when the walk follows the edge as declared.")
    reverse: float = Field(description="Weight when the walk follows it backwards.")
    forward_reason: str
    reverse_reason: str


class RefusedEdge(WireModel):
    edge: str
    reason: str


class SelectorRelevance(WireModel):
    selector: str
    relevance: float = Field(description="The relevance this selector gives what it finds.")


class PolicyDefaults(WireModel):
    budget_tokens: int
    max_depth: int
    floor: float
    bytes_per_token: int
    intent_ceiling: float = Field(description="An intent match is worth this × the share of "
                                  "the intent's terms it hits.")
    intent_min_term: int = Field(description="Intent words shorter than this are not terms.")


class CompilerPolicy(WireModel):
    """The compiler's policy: tiers in spend order with their meanings and kinds, edge
    weights per direction, the edges never followed, selector base relevances, defaults."""

    tiers: tuple[TierPolicy, ...]
    edges: tuple[EdgeWeight, ...]
    refused_edges: tuple[RefusedEdge, ...]
    selectors: tuple[SelectorRelevance, ...]
    stale_statuses: tuple[str, ...]
    stop_words: tuple[str, ...]
    defaults: PolicyDefaults


class QueryExplainInput(WireModel):
    """``GET /v1/explain``'s parameters: ``kind=text`` takes ``value`` (and ``limit``),
    ``kind=cross_ref`` takes ``start`` (and ``depth``, ``limit``)."""

    kind: Literal["text", "cross_ref"]
    value: str | None = Field(None, description="text: the words to search for.")
    start: str | None = Field(None, description="cross_ref: an issue or milestone id or slug, "
                              "an id of any kind, or a URI.")
    depth: int | None = Field(None, description="cross_ref: hops to walk (clamped, and the "
                              "clamp recorded in `query`).")
    limit: int | None = Field(None, description="At most this many hits.")


class QueryExplanation(WireModel):
    """The ``explain`` envelope: ``{"kind": "explain", "explain": <trace>}``."""

    kind: Literal["explain"] = "explain"
    explain: Trace


class ObjectInput(WireModel):
    """One object, by its canonical identifier."""

    uri: str = Field(description="The canonical identifier, e.g. `majordomus://adr/adr-0002`.")


class ErrorDetail(WireModel):
    code: str = Field(description="A short machine word: invalid_request, not_found, ...")
    message: str = Field(description="What was wrong, what was expected and the fix.")
    parameter: str | None = Field(None, description="The parameter at fault, when one is.")


class ErrorBody(WireModel):
    """Every 4xx and 5xx answer of the HTTP API."""

    error: ErrorDetail
