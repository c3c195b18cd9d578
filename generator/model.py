"""The layer's objects, as typed, frozen values.

Everything the loader produces is one of these. Nothing is toggled in place: a changed
file produces new objects. ``fields`` keeps the record's own metadata as parsed (the YAML
mapping or the front matter) so pages can show it and the index can read references from
it; ``body`` keeps the Markdown prose for pages and is never copied into a context entry.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["Provenance", "LayerObject", "URI_SCHEME", "uri_for"]

URI_SCHEME = "majordomus"


def uri_for(kind: str, identity: str) -> str:
    """``majordomus://<kind>/<identity>``: the canonical identifier of an object."""
    return f"{URI_SCHEME}://{kind}/{identity}"


class Provenance(BaseModel):
    """Where an object lives. Computed by the loader, never authored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: Repository-relative path, forward slashes.
    path: str
    #: The directory it sits in; ``.`` for the repository root.
    directory: str
    #: The ``sources.yaml`` class (or built-in default class) that discovered it.
    source_class: str
    #: The manifest section its path falls under, when it falls under one.
    section: str | None = None
    #: Size of the file in bytes.
    bytes: int
    #: For objects that are one item of a list file (``claims.3``).
    member: str | None = None


class LayerObject(BaseModel):
    """One object of the layer: an issue, a rule, an ADR, a source file, ..."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    uri: str
    kind: str
    identity: str
    title: str | None = None
    #: The kind's description field (an issue's objective, a milestone's outcome, ...).
    summary: str | None = None
    status: str | None = None
    version: str | None = None
    #: Scalars worth carrying into a context entry (class, milestone, priority, ...).
    facts: dict[str, str] = {}
    tags: tuple[str, ...] = ()
    #: The Markdown prose, for pages only.
    body: str | None = None
    #: The record's own metadata, as parsed.
    fields: dict[str, Any] = {}
    #: 1-based line of each top-level key in the file, when known.
    field_lines: dict[str, int] = {}
    provenance: Provenance

    @property
    def path(self) -> str:
        return self.provenance.path

    def line_of(self, field: str) -> int | None:
        return self.field_lines.get(field)
