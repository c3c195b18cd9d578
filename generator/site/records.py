"""The static JSON API under ``site/api/v1/``: its payload models and their JSON Schemas.

Every file is written through :func:`generator.jsonio.canonical_json`; every payload type
here has a schema in ``site/api/v1/schemas/``, generated from the same models.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel

from ..engine.models import CompiledContext
from ..model import Provenance
from ..pack.models import Pack

__all__ = [
    "ContextSummary",
    "OperationLink",
    "SiteIndex",
    "ObjectSummary",
    "ObjectsIndex",
    "EdgeRecord",
    "StandingGroup",
    "ObjectRecord",
    "SCHEMAS",
    "API_VERSION",
]

API_VERSION = "v1"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ContextSummary(_Model):
    kind: str
    id: str
    uri: str
    title: str | None = None
    state: str | None = None
    page: str
    json_url: str
    #: The context's pack: what a session is given (``devcontext pack --format markdown``).
    pack: str
    selected: int
    excluded: int
    used_tokens: int
    limit_tokens: int
    required_tokens: int
    over_budget: bool


class OperationLink(_Model):
    """One operation of the registry: its reference page, and its HTTP route when the live
    API answers it (``devcontext serve``; the OpenAPI document is ``api/openapi.json``)."""

    id: str
    summary: str
    page: str
    http_route: str | None = None


class SiteIndex(_Model):
    """``api/v1/index.json``: the layer at a glance and every compiled context."""

    api: str = API_VERSION
    fingerprint: str
    files: int
    objects: int
    edges: int
    unresolved: int
    kinds: dict[str, int]
    diagnostics: dict[str, int]
    defaults: dict[str, float | int]
    contexts: list[ContextSummary]
    issue_states: dict[str, int]
    #: Every operation with its reference page (``reference/<id>.html``).
    operations: list[OperationLink] = []


class ObjectSummary(_Model):
    uri: str
    kind: str
    identity: str
    title: str | None = None
    status: str | None = None
    state: str | None = None
    version: str | None = None
    path: str
    page: str
    json_url: str


class ObjectsIndex(RootModel[list[ObjectSummary]]):
    """``api/v1/objects.json``: every object of the layer."""


class EdgeRecord(_Model):
    edge: str
    field: str
    uri: str
    page: str | None = None


class UnresolvedRecord(_Model):
    field: str
    reference: str
    target: str | None = None
    correction: str
    line: int | None = None


class StandingGroup(_Model):
    """The object's standing in every context of one kind where it stands the same way:
    the standing, its word, its detail and its cost said once, then each of those contexts
    with the object's relevance there (most of an object's standings differ only in the
    context, and a policy stands in every one). Every context that reached the object is
    in exactly one group; groups are in the order of their first context, and a group's
    contexts in context order (kind, then id)."""

    context_kind: str = Field(description="`issue` or `milestone`: the kind of every context of the group.")
    standing: str = Field(description="`selected`, `excluded` or `deduplicated`.")
    word: str = Field(description="The tier it was selected in, the reason it was excluded, or the "
                                  "deduplication key.")
    detail: str = Field(description="What the context says of it: `required` or empty for a selected "
                                    "entry, the exclusion's detail (for a budget exclusion a fixed "
                                    "sentence: the running sums are in the context), or the name it "
                                    "was folded into.")
    cost_tokens: int | None = Field(default=None, description="What including it costs, in tokens "
                                                              "(absent for a deduplicated name).")
    contexts: list[tuple[str, float | None]] = Field(
        description="`[id, relevance]` of each context of the group (relevance null for a "
                    "deduplicated name). The context's identifier is "
                    "`majordomus://<context_kind>/<id>`; its compiled answer is "
                    "`api/v1/devcontext/compile/<context_kind>/<id>.json` and its page "
                    "`contexts/<context_kind>/<id>.html` (the id written as every file name "
                    "is: letters, digits and `. _ - @` as they are, any other UTF-8 byte as "
                    "`~XX`, a leading `.` as `~2E`); the object's row on that page is "
                    "`#<context_anchor>` of the record.")


class ObjectRecord(_Model):
    """``api/v1/objects/<kind>/<identity>.json``: one object, its edges, its standing."""

    uri: str
    kind: str
    identity: str
    title: str | None = None
    summary: str | None = None
    status: str | None = None
    state: str | None = None
    state_reasons: list[str] = []
    version: str | None = None
    tags: list[str] = []
    facts: dict[str, str] = {}
    fields: dict[str, Any] = {}
    provenance: Provenance
    page: str
    edges_out: list[EdgeRecord] = []
    edges_in: list[EdgeRecord] = []
    external: list[EdgeRecord] = []
    unresolved: list[UnresolvedRecord] = []
    context_anchor: str = Field(description="The fragment of the object's row on the page of each "
                                            "context it stands in (the same on every one).")
    standings: list[StandingGroup] = Field(
        default=[], description="Its standing in every compiled context that reached it, "
                                "contexts that say the same grouped; every other context did not "
                                "reach it.")


#: schema file name -> model, written to ``api/v1/schemas/``.
SCHEMAS: dict[str, type[BaseModel]] = {
    "index.schema.json": SiteIndex,
    "objects.schema.json": ObjectsIndex,
    "object.schema.json": ObjectRecord,
    "compiled-context.schema.json": CompiledContext,
    "pack.schema.json": Pack,
}


def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
