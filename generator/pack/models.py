"""The pack's types: what a session is given, as data (the JSON format is this model,
serialised the product's one way) and as the request an operation declares."""

from __future__ import annotations

from enum import StrEnum

from pydantic import ConfigDict, Field

from ..engine.models import CompileInput, CompileRequest, ExclusionReason, Seed, Tier, WireModel
from ..engine.numbers import BYTES_PER_TOKEN

__all__ = ["PackFormat", "PackInput", "PackEntry", "made_pack_entry", "PackBudget", "PackSize",
           "Pack", "PackOutput", "PACK_SCHEMA"]

#: The pack's own format version (``Pack.schema``).
PACK_SCHEMA = 1


class PackFormat(StrEnum):
    """Markdown to paste into a session, XML in the style agent prompts use, JSON for
    programs."""

    markdown = "markdown"
    xml = "xml"
    json = "json"


class PackInput(CompileInput):
    """``devcontext.pack``: the compile request, and the format to hand the context over in."""

    format: PackFormat = PackFormat.markdown


class PackEntry(WireModel):
    """One selected entry, in spend order, with the object's own text."""

    position: int = Field(ge=1, description="1 for the entry the budget spent first.")
    uri: str
    kind: str
    title: str | None = None
    tier: Tier
    required: bool
    reason: str = Field(description="The best path that reached it, in words: selector, edge, "
                        "what it was reached from, why.")
    path: str = Field(description="The file its text is, repository-relative.")
    cost_tokens: int = Field(ge=0, description="What the budget counted for it.")
    cost_bytes: int = Field(ge=0, description="The file's bytes, which the cost was measured on.")
    replaced_bytes: int = Field(0, ge=0, description="Bytes of the file that are not UTF-8 and "
                                "are carried as U+FFFD; 0 for every text file.")
    text: str = Field(description="The file's own text: exactly the bytes its cost was "
                      "measured on, decoded as UTF-8.")


#: PackEntry's fields, in the order :func:`made_pack_entry` writes them (checked: a field
#: added to the model must be added there), and every one set, as ``made`` sets them
_ENTRY_FIELDS = ("position", "uri", "kind", "title", "tier", "required", "reason", "path",
                 "cost_tokens", "cost_bytes", "replaced_bytes", "text")
assert tuple(PackEntry.model_fields) == _ENTRY_FIELDS, "made_pack_entry writes every field"
_ENTRY_SET = set(dict.fromkeys(_ENTRY_FIELDS))
_setattr = object.__setattr__


def made_pack_entry(position: int, uri: str, kind: str, title: str | None, tier: Tier,
                    required: bool, reason: str, path: str, cost_tokens: int, cost_bytes: int,
                    replaced_bytes: int, text: str) -> PackEntry:
    """``made(PackEntry, position=..., ...)`` with every field given, by position: one per
    selected entry of every context a build packs (~110 a large one), without the keyword
    dict, the merge with the defaults and the field walk per entry. Only for values
    already of their field's type (the answer's own)."""
    m = object.__new__(PackEntry)
    _setattr(m, "__dict__", {
        "position": position, "uri": uri, "kind": kind, "title": title, "tier": tier,
        "required": required, "reason": reason, "path": path, "cost_tokens": cost_tokens,
        "cost_bytes": cost_bytes, "replaced_bytes": replaced_bytes, "text": text})
    _setattr(m, "__pydantic_fields_set__", _ENTRY_SET.copy())
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", None)
    return m


class PackBudget(WireModel):
    limit_tokens: int = Field(ge=0)
    used_tokens: int = Field(ge=0)
    required_tokens: int = Field(ge=0)
    over_budget: bool


class PackSize(WireModel):
    """The pack's own measured size, so a reader can check it against the budget."""

    bytes: int = Field(ge=0, description="The pack's size in this format, measured.")
    tokens: int = Field(ge=0, description="The same, estimated as the engine does "
                        "(bytes ÷ bytes_per_token, rounded up).")
    text_bytes: int = Field(ge=0, description="What the entries' own text takes of it.")
    overhead_bytes: int = Field(ge=0, description="The rest: the header, the entries' headings, "
                                "fences, markup and escaping.")
    bytes_per_token: int = BYTES_PER_TOKEN


class Pack(WireModel):
    """The context a session is given: a header saying what was asked, what it cost and
    what was left out, then every selected entry's own text in the order the budget spent
    them. The answer carries no prose by design; this is where the prose is."""

    schema_: int = Field(PACK_SCHEMA, alias="schema")
    fingerprint: str
    request: CompileRequest
    seeds: tuple[Seed, ...]
    budget: PackBudget
    left_out: dict[ExclusionReason, int] = Field(
        description="Entries reached and not given, counted by reason (only reasons that occur).")
    explain_page: str | None = Field(None, description="The explain page of this context, "
                                     "relative to the site root, when the site has one.")
    size: PackSize
    entries: tuple[PackEntry, ...]

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class PackOutput(WireModel):
    """What the pack operation returns: the rendered pack and its measured size."""

    format: PackFormat
    size: PackSize
    text: str
