"""The wire type of ``explain``: the EXPLAIN trace of one query.

Field names are exactly those of ``spec/tero-explain.md``. The models are frozen and
closed; optional fields that are absent (a hit's ``title``) are omitted on the wire. An
unresolved edge's ``from`` is a Python keyword, so the attribute is ``source`` and the
model serialises by alias.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Hit", "UnresolvedEdge", "Trace"]


class _Wire(BaseModel):
    model_config = ConfigDict(
        frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True
    )

    def wire(self) -> dict[str, Any]:
        """The JSON-ready form: aliases, no nulls."""
        return self.model_dump(mode="json", exclude_none=True, by_alias=True)


class Hit(_Wire):
    """One result: where it is (``anchor``, the URI), its score and why it is here."""

    anchor: str
    kind: str
    title: str | None = None
    #: text: the weighted match score (higher first); cross_ref: the hop count (lower first).
    score: int
    why: str


class UnresolvedEdge(_Wire):
    """A reference considered during a walk that leads to no object of the layer."""

    source: str = Field(alias="from")  # URI of the declaring object
    field: str
    reference: str
    why: str


class Trace(_Wire):
    """The EXPLAIN trace: a pure function of the query and the index."""

    #: The query as executed: terms searched (and dropped), limits and clamps applied.
    query: str
    #: Objects looked at.
    candidates_scanned: int
    #: Objects that qualified, before the ``limit`` cap (so truncation is visible).
    candidates_matched: int
    #: The ordering rules, outermost first.
    order_by: tuple[str, ...]
    hits: tuple[Hit, ...]
    unresolved_edges: tuple[UnresolvedEdge, ...] = ()
