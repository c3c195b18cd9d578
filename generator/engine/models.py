"""The wire types of ``devcontext.compile`` and ``devcontext.explain``.

Names, field names and enum words are exactly those of the JSON Schemas in
``spec/`` (whose ``description`` strings are the contract). Optional fields that are
absent are omitted on the wire, never written as null; an entry's ``facts`` is omitted
when empty. ``Tier`` is declared in spend order and that order is load-bearing.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_serializer

from ..diagnostics import Diagnostic
from ..phrases import Phrase
from .numbers import BYTES_PER_TOKEN

__all__ = [
    "Tier",
    "TIER_ORDER",
    "TIER_MEANING",
    "Selector",
    "SELECTOR_ORDER",
    "ExclusionReason",
    "Standing",
    "Discovery",
    "EntryProvenance",
    "ContextEntry",
    "Excluded",
    "Deduplicated",
    "Conflict",
    "TierSpend",
    "Budget",
    "Seed",
    "CommitReference",
    "GitContext",
    "CompileInput",
    "ExplainInput",
    "CompileRequest",
    "CompiledContext",
    "Explanation",
    "WireModel",
    "Said",
    "said",
    "made",
    "made_excluded",
    "made_refused",
    "made_entry",
    "made_discovery",
    "Refusal",
    "LazyPhrase",
]


class WireModel(BaseModel):
    """Frozen, closed, and serialised without nulls."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False)

    def wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True, by_alias=True)


class Said(WireModel):
    """A wire model whose sentence (``detail``, a discovery's ``reason``) is also kept as the
    :class:`~generator.phrases.Phrase` it was made from, so a page can say it in its
    reader's language. The phrase is a private attribute: never serialised, kept by
    pickling (the build's workers) and ``model_copy``, and part of equality (phrases compare
    by value). A model read back from JSON has none; a page that needs it must not get
    such a model (it would have to show English)."""

    _phrase: Phrase | None = PrivateAttr(default=None)

    @property
    def phrase(self) -> Phrase | None:
        # read from the private dict itself: ``self._phrase`` is found only by pydantic's
        # __getattr__, after Python's own look-up fails, through two AttributeErrors (~4 µs
        # a read, and a build reads the phrase of every row it shows). A LazyPhrase makes
        # its phrase when read so.
        return self.__pydantic_private__["_phrase"]


_M = TypeVar("_M", bound=Said)
_W = TypeVar("_W", bound=WireModel)


def said(model: _M, phrase: Phrase) -> _M:
    """``model`` carrying ``phrase``, the sentence its text was made from."""
    model._phrase = phrase
    return model


_setattr = object.__setattr__
#: A field without a default, in :func:`_template`'s dict (every one is given by the maker).
_REQUIRED = object()
_TEMPLATES: dict[type, tuple[dict[str, Any], bool]] = {}


def _template(cls: type[WireModel]) -> tuple[dict[str, Any], bool]:
    """Every field of ``cls`` in declaration order with its default, and whether the model
    keeps a phrase (a :class:`Said`)."""
    found = _TEMPLATES.get(cls)
    if found is None:
        fields = {name: _REQUIRED if f.is_required() else f.get_default(call_default_factory=True)
                  for name, f in cls.model_fields.items()}
        found = _TEMPLATES[cls] = (fields, issubclass(cls, Said))
    return found


def made(cls: type[_W], phrase: Phrase | None = None, /, **values: Any) -> _W:
    """A wire model of values the engine made and typed itself, as ``cls(**values)`` (with
    :func:`said`, when given a phrase) makes it: the same fields in the same order, the
    same fields set, the same private state, so equal to it, pickled and dumped the same.

    Without validation and without pydantic's per-instance machinery (a large answer makes
    ~1,500 of these: an answer's rows, not its boundary). Only for values already of their
    field's type (``tests/engine/test_made.py`` holds it to the validated form); what comes
    from outside is validated by the models themselves."""
    fields, keeps_phrase = _template(cls)
    m = cls.__new__(cls)
    _setattr(m, "__dict__", {**fields, **values})
    _setattr(m, "__pydantic_fields_set__", set(values))
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", {"_phrase": phrase} if keeps_phrase else None)
    return m


def made_excluded(phrase: Phrase | None, uri: str, kind: str | None, tier: "Tier",
                  reason: "ExclusionReason", detail: str, cost_tokens: int,
                  relevance: float) -> "Excluded":
    """``made(Excluded, phrase, uri=..., ...)`` with every field given: the exclusion row,
    which a large answer makes ~900 times (most of them refusals for budget), without the
    keyword dict, the merge with the defaults and the field walk per row."""
    m = _new(Excluded)
    values = {"uri": uri, "kind": kind, "tier": tier, "reason": reason, "detail": detail,
              "cost_tokens": cost_tokens, "relevance": relevance}
    _setattr(m, "__dict__", values)
    _setattr(m, "__pydantic_fields_set__", _EXCLUDED_SET.copy())
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", {"_phrase": phrase})
    return m


class Tier(StrEnum):
    """Declared in authority order: the order the budget spends in."""

    task = "task"
    governance = "governance"
    source = "source"
    decision = "decision"
    knowledge = "knowledge"
    history = "history"

    @property
    def rank(self) -> int:
        return TIER_ORDER.index(self)

    @property
    def meaning(self) -> str:
        return TIER_MEANING[self]


TIER_ORDER: tuple[Tier, ...] = tuple(Tier)

TIER_MEANING: dict[Tier, str] = {
    Tier.task: "What was asked for: the issue, its milestone, the paths named, the intent. "
    "Never dropped.",
    Tier.governance: "What the work will be judged against: the policy, the scope, the "
    "directory contracts that reach the named paths, and the rules. A blocking rule is "
    "never dropped.",
    Tier.source: "The code and the cases the work touches.",
    Tier.decision: "The architectural decisions already in force over it.",
    Tier.knowledge: "What a previous session left: handovers, session records, curated "
    "knowledge.",
    Tier.history: "Supporting evidence: use cases, claims, features, and the rest of the layer.",
}


class Selector(StrEnum):
    seed = "seed"
    relation = "relation"
    scope_path = "scope_path"
    contract = "contract"
    governance = "governance"
    session_state = "session_state"
    intent_match = "intent_match"

SELECTOR_ORDER: tuple[Selector, ...] = tuple(Selector)


class ExclusionReason(StrEnum):
    budget = "budget"
    relevance = "relevance"
    depth = "depth"
    stale = "stale"
    superseded = "superseded"
    unresolved = "unresolved"

    @property
    def request_bound(self) -> bool:
        """Raising the request's limit brings the entry back."""
        return self in (ExclusionReason.budget, ExclusionReason.relevance, ExclusionReason.depth)


class Standing(StrEnum):
    selected = "selected"
    excluded = "excluded"
    deduplicated = "deduplicated"
    not_reached = "not_reached"
    unknown = "unknown"


class Discovery(Said):
    selector: Selector
    reason: str
    via: str | None = None
    edge: str | None = None
    depth: int = Field(ge=0)
    confidence: float
    weight: float


#: Discovery's fields, in the order :func:`made_discovery` writes them (checked: a field
#: added to the model must be added there), and every one set
_DISCOVERY_FIELDS = ("selector", "reason", "via", "edge", "depth", "confidence", "weight")
assert tuple(Discovery.model_fields) == _DISCOVERY_FIELDS, "made_discovery writes every field"
_DISCOVERY_SET = set(dict.fromkeys(_DISCOVERY_FIELDS))


def made_discovery(phrase: Phrase | None, selector: Selector, reason: str, via: str | None,
                   edge: str | None, depth: int, confidence: float,
                   weight: float) -> Discovery:
    """``made(Discovery, phrase, selector=..., ...)`` with every field given, by position:
    the walk's discoveries (~100 an answer, one per step it keeps), without the keyword
    dict, the merge with the defaults and the field walk per step."""
    m = object.__new__(Discovery)
    _setattr(m, "__dict__", {"selector": selector, "reason": reason, "via": via, "edge": edge,
                             "depth": depth, "confidence": confidence, "weight": weight})
    _setattr(m, "__pydantic_fields_set__", _DISCOVERY_SET.copy())
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", {"_phrase": phrase})
    return m


class EntryProvenance(WireModel):
    path: str
    directory: str
    source_class: str
    section: str | None = None
    bytes: int = Field(ge=0)


class ContextEntry(WireModel):
    uri: str
    kind: str
    title: str | None = None
    provenance: EntryProvenance
    tier: Tier
    relevance: float
    confidence: float
    discovered_by: tuple[Discovery, ...]
    depth: int = Field(ge=0)
    cost_tokens: int = Field(ge=0)
    cost_bytes: int = Field(ge=0)
    version: str | None = None
    status: str | None = None
    required: bool
    facts: dict[str, str] = {}

    @model_serializer(mode="wrap")
    def _omit_empty_facts(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        if not data.get("facts"):
            data.pop("facts", None)
        return data


#: ContextEntry's fields, in the order :func:`made_entry` writes them (checked: a field
#: added to the model must be added there), and every one set, as :func:`made` sets them
_ENTRY_FIELDS = ("uri", "kind", "title", "provenance", "tier", "relevance", "confidence",
                 "discovered_by", "depth", "cost_tokens", "cost_bytes", "version", "status",
                 "required", "facts")
assert tuple(ContextEntry.model_fields) == _ENTRY_FIELDS, "made_entry writes every field"
_ENTRY_SET = set(dict.fromkeys(_ENTRY_FIELDS))


def made_entry(uri: str, kind: str, title: str | None, provenance: EntryProvenance,
               tier: "Tier", relevance: float, confidence: float,
               discovered_by: tuple[Discovery, ...], depth: int, cost_tokens: int,
               cost_bytes: int, version: str | None, status: str | None, required: bool,
               facts: dict[str, str]) -> ContextEntry:
    """``made(ContextEntry, uri=..., ...)`` with every field given, by position: a large
    answer's ~110 selected entries, without the keyword dict, the merge with the defaults
    and the field walk per entry."""
    m = _new(ContextEntry)
    _setattr(m, "__dict__", {
        "uri": uri, "kind": kind, "title": title, "provenance": provenance, "tier": tier,
        "relevance": relevance, "confidence": confidence, "discovered_by": discovered_by,
        "depth": depth, "cost_tokens": cost_tokens, "cost_bytes": cost_bytes,
        "version": version, "status": status, "required": required, "facts": facts})
    _setattr(m, "__pydantic_fields_set__", _ENTRY_SET.copy())
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", None)
    return m


class Excluded(Said):
    uri: str
    kind: str | None = None
    tier: Tier
    reason: ExclusionReason
    detail: str
    cost_tokens: int = Field(ge=0)
    relevance: float


_new = object.__new__
#: Excluded's fields, in the order :func:`made_excluded` writes them (checked here: a field
#: added to the model must be added there).
_EXCLUDED_FIELDS = ("uri", "kind", "tier", "reason", "detail", "cost_tokens", "relevance")
assert tuple(Excluded.model_fields) == _EXCLUDED_FIELDS, "made_excluded writes every field"
#: every field set, as :func:`made`'s ``set(values)`` makes it (copied, it iterates and
#: pickles in the same order)
_EXCLUDED_SET = set(dict.fromkeys(_EXCLUDED_FIELDS))


class Refusal(NamedTuple):
    """A refusal for budget as the spend found it: the row's own values (``uri`` ..
    ``relevance``), the pot when it was refused (``used``), the budget that brings it in
    (``needed``) and the bound below which none can (``low``, its pot plus its cost),
    whether that budget is the least (``sure``), the limit, and the answer's final sum (``final``: its detail
    says its pot only where that differs). What a row's detail sentence, its phrase and
    the page's row are each made from (a large answer has ~600: a tuple, not a model)."""

    uri: str
    kind: str | None
    tier: "Tier"
    cost: int
    relevance: float
    used: int
    needed: int
    low: int
    sure: bool
    limit: int
    final: int


class LazyPhrase(dict):
    """A :class:`Said` row's private state, ``{"_phrase": phrase}``, whose phrase is made
    only when something asks for it (explain, a page that says the row from it), from
    ``record`` by :meth:`make`: a large answer's ~600 refusals for budget are rarely said
    from their phrase (the wire carries their English, the page reads their records).

    To pydantic and to whoever reads it, the dict it stands for: the phrase is made first
    by every look at its items, its equality, its copies and its pickle (a plain dict),
    so a row carrying one is equal to, copies and pickles as the row validated with its
    phrase (``tests/engine/test_made.py``)."""

    __slots__ = ("record",)
    #: what the phrase is made from (set once made: ``p = Sub(); p.record = r``, without a
    #: Python ``__init__``, which cost more than the rest of a large answer's ~600 of them)
    record: Any

    @staticmethod
    def make(record: Any) -> Phrase:
        raise NotImplementedError("a LazyPhrase subclass says how its record is said")

    def filled(self) -> dict[str, Any]:
        """This dict with its phrase made (once; a phrase set on it is kept)."""
        if not dict.__contains__(self, "_phrase"):
            dict.__setitem__(self, "_phrase", self.make(self.record))
        return self

    def __missing__(self, key: str) -> Any:
        if key != "_phrase" or dict.__contains__(self, key):
            raise KeyError(key)
        return dict.__getitem__(self.filled(), key)

    def get(self, key: str, default: Any = None) -> Any:
        return dict.get(self.filled(), key, default)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self.filled(), key)

    def __iter__(self):
        return dict.__iter__(self.filled())

    def __len__(self) -> int:
        return dict.__len__(self.filled())

    def keys(self):
        return dict.keys(self.filled())

    def values(self):
        return dict.values(self.filled())

    def items(self):
        return dict.items(self.filled())

    def copy(self) -> dict[str, Any]:
        return dict(dict.items(self.filled()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyPhrase):  # its phrase made too: its dict is compared as is
            other.filled()
        return dict.__eq__(self.filled(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return dict.__repr__(self.filled())

    def __reduce__(self):
        return (dict, (list(dict.items(self.filled())),))


def made_refused(private: LazyPhrase, uri: str, kind: str | None, tier: "Tier",
                 detail: str, cost_tokens: int, relevance: float) -> "Excluded":
    """:func:`made_excluded` of a refusal for budget whose phrase ``private`` makes when
    asked (:class:`LazyPhrase`): equal to the row made, or validated, with its phrase."""
    m = _new(Excluded)
    _setattr(m, "__dict__", {"uri": uri, "kind": kind, "tier": tier,
                             "reason": ExclusionReason.budget, "detail": detail,
                             "cost_tokens": cost_tokens, "relevance": relevance})
    _setattr(m, "__pydantic_fields_set__", _EXCLUDED_SET.copy())
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", private)
    return m


class Deduplicated(Said):
    kept: str
    dropped: tuple[str, ...]
    key: str
    detail: str
    paths: int = Field(ge=0)


class Conflict(Said):
    current: str
    against: str
    kind: str
    detail: str


class TierSpend(WireModel):
    tier: Tier
    meaning: str
    selected: int = Field(ge=0)
    excluded: int = Field(ge=0)
    tokens: int = Field(ge=0)
    required: int = Field(ge=0)


class Budget(WireModel):
    limit_tokens: int = Field(ge=0)
    used_tokens: int = Field(ge=0)
    required_tokens: int = Field(ge=0)
    remaining_tokens: int = Field(ge=0)
    over_budget: bool
    bytes_per_token: int = BYTES_PER_TOKEN
    tiers: tuple[TierSpend, ...]


class Seed(WireModel):
    uri: str
    kind: str
    from_: str = Field(alias="from")
    resolved: str | None = None

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class CommitReference(WireModel):
    commit: str
    named_by: str
    covers: str | None = None


class GitContext(WireModel):
    branch: str | None = None
    head: str | None = None
    working_tree: str
    commits: tuple[CommitReference, ...] = ()

    @model_serializer(mode="wrap")
    def _omit_empty_commits(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        if not data.get("commits"):
            data.pop("commits", None)
        return data


class CompileInput(WireModel):
    """The request. Every field is optional; unknown fields are refused."""

    issue: str | None = None
    milestone: str | None = None
    intent: str | None = None
    paths: tuple[str, ...] = ()
    uris: tuple[str, ...] = ()
    budget_tokens: int | None = None
    max_depth: int | None = None
    floor: float | None = None
    all_blocking_rules: bool | None = None


class ExplainInput(CompileInput):
    """``DevContextExplainInput``: the identifier, and the request to judge it under."""

    uri: str


class CompileRequest(WireModel):
    """The request as executed: defaults filled, paths normalised. Echoed in the answer."""

    issue: str | None = None
    milestone: str | None = None
    intent: str | None = None
    paths: tuple[str, ...] = ()
    uris: tuple[str, ...] = ()
    budget_tokens: int
    max_depth: int
    floor: float
    all_blocking_rules: bool


class CompiledContext(WireModel):
    """The compiled answer: what a session working on the request is given, and why."""

    schema_: int = Field(1, alias="schema")
    fingerprint: str
    request: CompileRequest
    git: GitContext
    seeds: tuple[Seed, ...]
    selected: tuple[ContextEntry, ...]
    excluded: tuple[Excluded, ...]
    deduplicated: tuple[Deduplicated, ...]
    conflicts: tuple[Conflict, ...]
    budget: Budget
    diagnostics: tuple[Diagnostic, ...]

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Explanation(Said):
    """Why one identifier is, or is not, in a compiled context."""

    uri: str
    standing: Standing
    detail: str
    entry: ContextEntry | None = None
    excluded: Excluded | None = None
    deduplicated: Deduplicated | None = None
    budget: Budget
