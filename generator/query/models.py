"""The wire type of ``explain``: the EXPLAIN trace of one query.

Field names are exactly those of ``spec/tero-explain.md``. The models are frozen and
closed; optional fields that are absent (a hit's ``title``) are omitted on the wire. An
unresolved edge's ``from`` is a Python keyword, so the attribute is ``source`` and the
model serialises by alias.

A trace's sentences (a hit's ``why``, an unresolved edge's ``why``, the ``order_by`` rules)
are given as phrases (:class:`~generator.phrases.Phrase`) where the trace is made: the field holds
the English text (the wire, byte for byte), and the phrase is kept beside it as a private
attribute (never serialised) for a page to say in its reader's language.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from ..phrases import Phrase

__all__ = ["Hit", "UnresolvedEdge", "Trace"]


class _Wire(BaseModel):
    model_config = ConfigDict(
        frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True
    )

    #: The fields given as phrases (one, or a tuple of them): stored as their English text.
    _SAID_FIELDS: ClassVar[tuple[str, ...]] = ()
    _said: dict[str, Any] = PrivateAttr(default_factory=dict)

    def __init__(self, **data: Any) -> None:
        said: dict[str, Any] = {}
        for name in self._SAID_FIELDS:
            value = data.get(name)
            if isinstance(value, Phrase):
                said[name], data[name] = value, str(value)
            elif isinstance(value, tuple) and value and all(isinstance(v, Phrase) for v in value):
                said[name], data[name] = value, tuple(str(v) for v in value)
        super().__init__(**data)
        self._said = said

    def said(self, name: str) -> Any:
        """The phrase (or phrases) field ``name`` was given as; None when it was given as
        plain text (a trace read back from JSON), which a page can only show in English."""
        return self._said.get(name)

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

    _SAID_FIELDS = ("why",)

    def why_said(self) -> Phrase | None:
        return self.said("why")


class UnresolvedEdge(_Wire):
    """A reference considered during a walk that leads to no object of the layer."""

    source: str = Field(alias="from")  # URI of the declaring object
    field: str
    reference: str
    why: str

    _SAID_FIELDS = ("why",)

    def why_said(self) -> Phrase | None:
        return self.said("why")


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

    _SAID_FIELDS = ("order_by",)

    def order_by_said(self) -> tuple[Phrase, ...]:
        return self.said("order_by") or ()
