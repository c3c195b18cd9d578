"""The operation registry: one frozen declaration per operation, and every surface's view
of it.

An :class:`Operation` names what it is (id, kind, module, tags), where it is reachable
(:class:`Exposure`: MCP tool, HTTP route and operationId, CLI verb — ``None`` where a
surface does not carry it, so absence is explicit), its input and output models, how it
parses arguments (:mod:`.arguments`) and its pure handler (:mod:`.handlers`), its policies
(benchmark required, cache) and its benchmark cases. The MCP tools and the OpenAPI document
are generated from these declarations; the CLI verbs and the live server's routes are
checked against them by the tests (``tests/operations/test_registry.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ..engine.cache import COMPILE_CACHE_SIZE, EXPLAIN_CACHE_SIZE
from ..engine.models import CompiledContext, CompileInput, ExplainInput, Explanation
from ..engine.policy import DEFAULT_BUDGET_TOKENS, DEFAULT_FLOOR, DEFAULT_MAX_DEPTH
from ..index import Index
from ..model import LayerObject
from ..pack import PackInput, PackOutput
from ..query.crossref import MAX_DEPTH as QUERY_MAX_DEPTH
from ..query.terms import MAX_VALUE_CHARS
from . import arguments, handlers
from .models import (
    CompilerPolicy,
    ObjectInput,
    PolicyInput,
    QueryExplainInput,
    QueryExplanation,
)

__all__ = [
    "NON_OPERATION_COMMANDS",
    "OPERATIONS",
    "TRANSPORTS",
    "BenchmarkCase",
    "CachePolicy",
    "Exposure",
    "Operation",
    "Policies",
    "by_route",
    "by_tool",
    "operation",
]

#: The transports a benchmark is measured on, in the order they are reported.
TRANSPORTS = ("direct", "http", "mcp")


@dataclass(frozen=True)
class Exposure:
    """Where the one definition is reachable; ``None`` means the surface does not carry it."""

    mcp_tool: str | None
    http_route: str | None
    operation_id: str | None
    cli_command: str | None

    @property
    def transports(self) -> tuple[str, ...]:
        """``direct`` always (the in-process call), then each surface that carries it."""
        carried = {"http": self.http_route is not None, "mcp": self.mcp_tool is not None}
        return tuple(t for t in TRANSPORTS if t == "direct" or carried[t])


@dataclass(frozen=True)
class CachePolicy:
    """An in-process cache of answers, bounded, keyed by the layer fingerprint (and the git
    state and the canonical input), so an edit to the layer can never serve a stale answer."""

    scope: str
    entries: int
    key: str = "layer fingerprint + git state + canonical input"


@dataclass(frozen=True)
class Policies:
    benchmark_required: bool
    cache: CachePolicy | None = None


@dataclass(frozen=True)
class BenchmarkCase:
    """A named request; ``arguments(index)`` gives its JSON arguments for that layer."""

    name: str
    arguments: Callable[[Index], dict[str, Any]]
    description: str


@dataclass(frozen=True)
class Operation:
    id: str
    summary: str
    description: str
    kind: str
    module: str
    tags: tuple[str, ...]
    exposure: Exposure
    input_model: type[BaseModel]
    output_model: type[BaseModel]
    #: ``parse(data, text=...)``: arguments into the input model, or a RequestError.
    parse: Callable[..., BaseModel]
    #: ``handler(index, input, git)``: pure.
    handler: Callable[..., BaseModel]
    policies: Policies
    benchmark_cases: tuple[BenchmarkCase, ...] = ()
    #: Input fields that take a list (repeated or comma-separated as query parameters).
    list_fields: tuple[str, ...] = ()
    #: JSON Schema keywords the parser enforces beyond the model's types (a positive budget,
    #: a floor in [0, 1], a non-blank identifier), added to the input schema of every surface
    #: so a client sees them. Rules that need the layer (a path inside the repository, an
    #: issue the layer holds) are not schema: they answer 400 or 404 naming the parameter.
    constraints: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: The handler also takes ``files=`` (the source tree's bytes, path -> bytes).
    needs_files: bool = False

    def call(self, index: Index, data: BaseModel, git: Any = None,
             files: Mapping[str, bytes] | None = None) -> BaseModel:
        """The handler on a parsed input (the source tree passed on when it needs it)."""
        if self.needs_files:
            if files is None:
                raise ValueError(f"{self.id} needs the source tree's files")
            return self.handler(index, data, git, files=files)
        return self.handler(index, data, git)

    def run(self, index: Index, data: Mapping[str, Any], git: Any = None, *,
            text: bool = False, files: Mapping[str, bytes] | None = None) -> BaseModel:
        """Parse and answer in one call, uncached (the direct transport)."""
        return self.call(index, self.parse(data, text=text), git, files)


# -- benchmark cases -------------------------------------------------------------------------

#: Explain's ``absent`` case: an identifier no layer holds (upstream's own case).
ABSENT_URI = "majordomus://rule/nothing-like-this@1"
INTENT_SENTENCE = "what context a session is given for its work and what it costs"


def _smallest(index: Index, kind: str) -> str | None:
    return min((o.identity for o in index.by_kind.get(kind, [])), default=None)


def _first_uri(index: Index, kind: str) -> str:
    return min((o.uri for o in index.by_kind.get(kind, [])), default=None) or min(index.objects)


def _named(kind: str) -> Callable[[Index], dict[str, Any]]:
    def arguments(index: Index) -> dict[str, Any]:
        name = _smallest(index, kind)
        return {kind: name} if name is not None else {}
    return arguments


COMPILE_CASES = (
    BenchmarkCase("no-seed", lambda index: {}, "the default request, no seed"),
    BenchmarkCase("issue", _named("issue"), "the smallest issue identity of the layer"),
    BenchmarkCase("milestone", _named("milestone"), "the smallest milestone identity"),
    BenchmarkCase("intent", lambda index: {"intent": INTENT_SENTENCE}, "a fixed sentence"),
)
EXPLAIN_CASES = (
    BenchmarkCase("policy", lambda index: {"uri": _first_uri(index, "policy")},
                  "the first policy object's identifier, default request: in the answer"),
    BenchmarkCase("absent", lambda index: {"uri": ABSENT_URI},
                  "an identifier the index does not hold: standing unknown"),
)
POLICY_CASES = (BenchmarkCase("default", lambda index: {}, "the whole policy"),)
QUERY_CASES = (
    BenchmarkCase("text", lambda index: {"kind": "text", "value": "cache"},
                  "a one-word text search"),
    BenchmarkCase("cross_ref", lambda index: {"kind": "cross_ref",
                                              "start": _smallest(index, "issue") or "I0001",
                                              "depth": 2},
                  "a two-hop walk from the smallest issue"),
)
PACK_CASES = (
    BenchmarkCase("issue", _named("issue"), "the smallest issue's context, as Markdown"),
)
OBJECT_CASES = (
    BenchmarkCase("policy", lambda index: {"uri": _first_uri(index, "policy")},
                  "the first policy object, whole"),
)


NON_BLANK = {"pattern": r"\S"}
#: The request fields' meanings are the contract's (``spec/devcontext-explain-input.schema.json``,
#: word for word, but for the defaults, stated by value, and the issue's slug, which the
#: product also takes); the engine's models carry none, so they are given here.
REQUEST_CONSTRAINTS = {
    "issue": {**NON_BLANK, "description": "An issue id (`I0301`), its slug or its canonical "
              "identifier. Its milestone, its dependencies, its declared scope and the "
              "decisions over that scope follow from it."},
    "milestone": {**NON_BLANK, "description": "A milestone id or slug, or its canonical "
                  "identifier."},
    "intent": {"description": "What the session is trying to do, in words. The only input "
               "the compiler infers from, and every entry it produces says so and carries a "
               "confidence below one."},
    "paths": {"description": "Repository-relative paths the work touches, added to whatever "
              "the seeds declare."},
    "uris": {"description": "Canonical identifiers to seed with directly, for a request about "
             "something that is neither an issue nor a milestone."},
    "budget_tokens": {"minimum": 1, "description": "The ceiling in estimated tokens; "
                      f"{DEFAULT_BUDGET_TOKENS} when absent."},
    "max_depth": {"minimum": 0, "description": "How far from a seed the walk goes; "
                  f"{DEFAULT_MAX_DEPTH} when absent."},
    "floor": {"minimum": 0, "maximum": 1, "description": "Relevance below which an entry is "
              f"reported rather than given; {DEFAULT_FLOOR:g} when absent."},
    "all_blocking_rules": {"description": "Every blocking rule of the layer, not only the "
                           "ones the work reaches. Honest and usually over budget: the answer "
                           "then says `over_budget` rather than dropping what it may not "
                           "drop."},
}
#: Longer digit strings are refused by the query engine (``query.operations.MAX_DIGITS``).
_DIGITS_MAX = 999_999_999
QUERY_CONSTRAINTS = {
    "value": {**NON_BLANK, "maxLength": MAX_VALUE_CHARS},
    "start": NON_BLANK,
    "depth": {"minimum": 0, "maximum": _DIGITS_MAX,
              "description": f"cross_ref: hops to walk; deeper than {QUERY_MAX_DEPTH} is "
              "clamped, and the clamp recorded in `query`."},
    "limit": {"minimum": 1, "maximum": _DIGITS_MAX},
}


# -- the declarations ------------------------------------------------------------------------

OPERATIONS: tuple[Operation, ...] = (
    Operation(
        id="devcontext.compile",
        summary="Compile the token-budgeted context of a request",
        description="What a session working on the request is given, and why: every selected "
        "entry with how it was reached, every exclusion with its reason and cost, what was "
        "merged, the budget per tier.",
        kind="query",
        module="devcontext",
        tags=("context", "provenance", "budget"),
        exposure=Exposure(mcp_tool="devcontext_compile", http_route="/api/v1/devcontext/compile",
                          operation_id="devcontext.compile", cli_command="compile"),
        input_model=CompileInput,
        output_model=CompiledContext,
        parse=arguments.parse_compile,
        handler=handlers.compile_handler,
        policies=Policies(benchmark_required=True,
                          cache=CachePolicy(scope="process", entries=COMPILE_CACHE_SIZE)),
        benchmark_cases=COMPILE_CASES,
        list_fields=("paths", "uris"),
        constraints=REQUEST_CONSTRAINTS,
    ),
    Operation(
        id="devcontext.explain",
        summary="Why one identifier is, or is not, in a compiled context",
        description="One canonical identifier judged under a request: selected, excluded, "
        "deduplicated, not_reached or unknown — with the entry, the exclusion or the collapse, "
        "and the budget it was judged under.",
        kind="query",
        module="devcontext",
        tags=("context", "provenance", "introspection"),
        exposure=Exposure(mcp_tool="devcontext_explain", http_route="/api/v1/devcontext/explain",
                          operation_id="devcontext.explain", cli_command="explain"),
        input_model=ExplainInput,
        output_model=Explanation,
        parse=arguments.parse_explain,
        handler=handlers.explain_handler,
        policies=Policies(benchmark_required=True,
                          cache=CachePolicy(scope="process", entries=EXPLAIN_CACHE_SIZE)),
        benchmark_cases=EXPLAIN_CASES,
        list_fields=("paths", "uris"),
        constraints={**REQUEST_CONSTRAINTS, "uri": {
            **NON_BLANK, "description": "The canonical identifier to explain."}},
    ),
    Operation(
        id="devcontext.policy",
        summary="The compiler's policy",
        description="The tiers in spend order with their meanings and kinds, the edge weights "
        "per direction, the edges never followed, the selectors' base relevances and the "
        "request defaults — the data the compiler runs on.",
        kind="query",
        module="devcontext",
        tags=("context", "policy"),
        exposure=Exposure(mcp_tool="devcontext_policy", http_route="/api/v1/devcontext/policy",
                          operation_id="devcontext.policy", cli_command=None),
        input_model=PolicyInput,
        output_model=CompilerPolicy,
        parse=arguments.parse_policy,
        handler=handlers.policy_handler,
        policies=Policies(benchmark_required=True),
        benchmark_cases=POLICY_CASES,
    ),
    Operation(
        id="query.explain",
        summary="The EXPLAIN trace of a text search or a cross-reference walk",
        description="kind=text ranks objects by where the words occur (id ×4, title ×3, "
        "summary ×1 per matched term); kind=cross_ref walks the typed references from one "
        "object. The trace says what was scanned and matched, the ordering rules, each hit's "
        "reason, and every reference that could not be followed.",
        kind="query",
        module="query",
        tags=("search", "introspection"),
        exposure=Exposure(mcp_tool="explain", http_route="/v1/explain",
                          operation_id="query.explain", cli_command="query"),
        input_model=QueryExplainInput,
        output_model=QueryExplanation,
        parse=arguments.parse_query_explain,
        handler=handlers.query_explain_handler,
        policies=Policies(benchmark_required=True),
        benchmark_cases=QUERY_CASES,
        constraints=QUERY_CONSTRAINTS,
    ),
    Operation(
        id="objects.get",
        summary="One object of the layer, whole, with its body",
        description="Context entries carry no prose, by design: this is how a caller gets an "
        "object's Markdown body, its fields as parsed and its provenance.",
        kind="query",
        module="objects",
        tags=("objects",),
        exposure=Exposure(mcp_tool="objects_get", http_route="/api/v1/object",
                          operation_id="objects.get", cli_command=None),
        input_model=ObjectInput,
        output_model=LayerObject,
        parse=arguments.parse_object,
        handler=handlers.object_handler,
        policies=Policies(benchmark_required=True),
        benchmark_cases=OBJECT_CASES,
        constraints={"uri": NON_BLANK},
    ),
    Operation(
        id="devcontext.pack",
        summary="The compiled context handed over",
        description="Compile the request and hand the context over: a header (the request, "
        "the budget used, what was left out, the pack's own size), then every selected "
        "entry's own text in the order the budget spent it, as Markdown, XML or JSON. Not on "
        "the live HTTP API: it needs the source tree's bytes, which the server's snapshot of "
        "the last good build does not keep.",
        kind="query",
        module="devcontext",
        tags=("context", "handover"),
        exposure=Exposure(mcp_tool="devcontext_pack", http_route=None, operation_id=None,
                          cli_command="pack"),
        input_model=PackInput,
        output_model=PackOutput,
        parse=arguments.parse_pack,
        handler=handlers.pack_handler,
        policies=Policies(benchmark_required=True),
        benchmark_cases=PACK_CASES,
        list_fields=("paths", "uris"),
        constraints={**REQUEST_CONSTRAINTS, "format": {
            "description": "markdown to paste (default), xml for agent prompts, json for "
            "programs."}},
        needs_files=True,
    ),
)

#: CLI verbs that are not operations (they build, serve or inspect the layer as a whole).
NON_OPERATION_COMMANDS: dict[str, str] = {
    "build": "writes the static site",
    "check": "reports diagnostics",
    "list": "lists identifiers",
    "mcp": "serves the operations over MCP",
    "serve": "serves the site and the operations over HTTP",
    "synth": "writes a synthetic layer",
}

_BY_ID = {op.id: op for op in OPERATIONS}
_BY_TOOL = {op.exposure.mcp_tool: op for op in OPERATIONS if op.exposure.mcp_tool}
_BY_ROUTE = {op.exposure.http_route: op for op in OPERATIONS if op.exposure.http_route}


def operation(op_id: str) -> Operation:
    return _BY_ID[op_id]


def by_tool(name: str) -> Operation | None:
    return _BY_TOOL.get(name)


def by_route(route: str) -> Operation | None:
    return _BY_ROUTE.get(route)
