"""The budget stage (pure): collapse duplicates, retire superseded and stale objects, list
unresolved references, then spend one pot first-fit in tier order.

Order of work: structural (``uri``) records → semantic dedup by file (``path``) and by
version (``identity``) → ``supersedes`` → stale → unresolved → first-fit spend → the
request-bound exclusions (``relevance``, ``depth``) from selection → canonical orders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import fields
from ..diagnostics import Diagnostic
from ..index import Index
from ..layer.records import scalar_text
from ..phrases import Phrase, Recounted, positional, reworded, say, say_n
from .models import (
    SELECTOR_ORDER,
    TIER_ORDER,
    Budget,
    CommitReference,
    Conflict,
    ContextEntry,
    Deduplicated,
    Discovery,
    Excluded,
    ExclusionReason,
    LazyPhrase,
    Refusal,
    Tier,
    TierSpend,
    made,
    made_entry,
    made_excluded,
    made_refused,
    said,
)
from .numbers import BYTES_PER_TOKEN, round3, tokens_for
from .order import natural_key
from .policy import EDGE_RULES, placement
from .prepared import Row, prepared
from . import refits as _refits_module
from .refits import _Refits
from .request import ResolvedRequest
from .select import Candidate, Selection

__all__ = ["Spent", "spend"]

_VERSIONED = re.compile(r"^(?P<stem>.+)@(?P<version>\d+)$")
_SELECTOR_RANK = {s: i for i, s in enumerate(SELECTOR_ORDER)}
# the canonical order's keys, looked up rather than derived per row (~900 rows an answer)
_TIER_RANK = {t: i for i, t in enumerate(TIER_ORDER)}
_REASON_RANK = {r: i for i, r in enumerate(sorted(ExclusionReason,
                                                   key=lambda r: natural_key(r.value)))}


@dataclass(frozen=True)
class Spent:
    selected: tuple[ContextEntry, ...]
    excluded: tuple[Excluded, ...]
    deduplicated: tuple[Deduplicated, ...]
    conflicts: tuple[Conflict, ...]
    budget: Budget
    diagnostics: tuple[Diagnostic, ...]
    commits: tuple[CommitReference, ...]


def _label(d: Discovery) -> str:
    return d.selector.value if not d.edge else f"{d.selector.value}({d.edge})"


def _kind_rank(kind: str) -> int:
    return {"file": 0, "document": 1}.get(kind, 2)


def _cost(cand_obj) -> int:
    return tokens_for(cand_obj.provenance.bytes)


class _Budgeter:
    def __init__(self, index: Index, req: ResolvedRequest, sel: Selection) -> None:
        self.index = index
        self.req = req
        self.sel = sel
        self.limit = req.request.budget_tokens
        self.cands: dict[str, Candidate] = dict(sel.candidates)
        self.seeds = set(req.object_seeds)
        self.prep = prepared(index)
        self.excluded: list[Excluded] = []
        self.dedup: list[Deduplicated] = []
        self.conflicts: list[Conflict] = []
        self.diagnostics: list[Diagnostic] = []

    def exclude(self, uri: str, kind: str | None, tier: Tier, reason: ExclusionReason,
                detail: Phrase, cost: int, relevance: float) -> None:
        # built from values this module made and typed (a large answer has ~900 of them):
        # no validation per row; the schema tests validate the wire form
        self.excluded.append(made_excluded(detail, uri, kind, tier, reason, str(detail), cost,
                                           round3(relevance)))

    # -- collapse ------------------------------------------------------------------------

    def structural(self, selected: list[ContextEntry]) -> None:
        """One ``uri`` record per selected entry reached more than one way: ``kept`` is the
        entry that survived, so the record is made once the spend is done."""
        kept = {e.uri for e in selected}
        for cand in self.sel.candidates.values():
            if cand.uri not in kept:
                continue
            n = len(cand.discoveries)
            if n >= 2:
                labels = sorted({_label(d) for d in cand.discoveries.values()}, key=natural_key)
                detail = say_n("one object reached by {n} discovery path: {paths}",
                               "one object reached by {n} discovery paths: {paths}",
                               n=n, paths=", ".join(labels))
                self.dedup.append(made(Deduplicated, detail, kept=cand.uri, dropped=(), key="uri",
                                       paths=n, detail=str(detail)))

    def by_path(self) -> None:
        # only the candidates at a path the layer indexes more than once can share one (a
        # few of a large answer's ~1,000, often none)
        shared = _shared_path_uris(self.index)
        groups: dict[tuple[str, str], list[Candidate]] = {}
        for uri in shared.intersection(self.cands) if shared else ():
            cand = self.cands[uri]
            prov = cand.obj.provenance
            groups.setdefault((prov.path, prov.member or ""), []).append(cand)
        # only the paths indexed more than once in the answer, in path order
        for path, member in sorted(key for key, group in groups.items() if len(group) > 1):
            group = groups[path, member]
            # A seed is never the one dropped: the request named it.
            group.sort(key=lambda c: (c.uri not in self.seeds, -_kind_rank(c.obj.kind),
                                      -c.relevance, c.uri))
            kept = group[0]
            losers = [c for c in group[1:] if c.uri not in self.seeds]
            if not losers:
                continue
            for loser in losers:
                del self.cands[loser.uri]
            kinds = ", ".join(sorted(c.obj.kind for c in group))
            detail = say_n("`{path}` is indexed under {n} identifier ({kinds}); the most "
                           "specific kind, {kind}, is kept",
                           "`{path}` is indexed under {n} identifiers ({kinds}); the most "
                           "specific kind, {kind}, is kept",
                           n=len(group), path=path, kinds=kinds, kind=kept.obj.kind)
            self.dedup.append(said(Deduplicated(
                kept=kept.uri, dropped=tuple(sorted(c.uri for c in losers)), key="path", paths=1,
                detail=str(detail)), detail))

    def by_version(self) -> None:
        groups: dict[str, list[tuple[int, str]]] = {}
        versioned = _versioned_uris(self.index)
        for uri in self.cands.keys() & versioned.keys():
            stem, version = versioned[uri]
            groups.setdefault(stem, []).append((version, uri))
        for stem, members in sorted(groups.items()):
            if len(members) < 2:
                continue
            # The highest version wins, unless the request names a version: a seed is kept.
            members.sort(key=lambda m: (m[1] not in self.seeds, -m[0], m[1]))
            kept = members[0][1]
            losers = [(v, uri) for v, uri in members[1:] if uri not in self.seeds]
            if not losers:
                continue
            dropped = []
            for _, uri in losers:
                del self.cands[uri]
                dropped.append(uri)
                clash = (say("`{stem}` is in the answer at two versions; `{kept}`, the one the "
                             "request names, applies", stem=stem, kept=kept)
                         if kept in self.seeds else
                         say("`{stem}` is in the answer at two versions; the higher, `{kept}`, "
                             "applies", stem=stem, kept=kept))
                self.conflicts.append(said(Conflict(
                    current=kept, against=uri, kind="version", detail=str(clash)), clash))
            # the version is an identifier's part (``@12``), not a count to group
            version = str(members[0][0])
            if kept in self.seeds and members[0][0] != max(v for v, _ in members):
                detail = say_n("`{stem}` at {n} version; the one the request names, @{version}, "
                               "is in the answer",
                               "`{stem}` at {n} versions; the one the request names, @{version}, "
                               "is in the answer", n=len(members), stem=stem, version=version)
            else:
                detail = say_n("`{stem}` at {n} version; the newest, @{version}, is in the answer",
                               "`{stem}` at {n} versions; the newest, @{version}, is in the answer",
                               n=len(members), stem=stem, version=version)
            self.dedup.append(said(Deduplicated(
                kept=kept, dropped=tuple(sorted(dropped)), key="identity", paths=1,
                detail=str(detail)), detail))

    def supersedes(self) -> None:
        for later_uri in sorted(self.prep.superseding.intersection(self.cands)):
            for edge in self.index.out_edges.get(later_uri, ()):
                if edge.kind != "supersedes":
                    continue
                earlier = edge.target
                cand = self.cands.get(earlier)
                if cand is None or earlier in self.seeds or later_uri not in self.cands:
                    continue
                detail = say("`{later}` stands in for `{earlier}` (it declares `supersedes`); "
                             "the later decision holds", later=later_uri, earlier=earlier)
                self.conflicts.append(said(Conflict(current=later_uri, against=earlier,
                                                    kind="supersedes", detail=str(detail)), detail))
                del self.cands[earlier]
                self.exclude(earlier, cand.obj.kind, cand.tier, ExclusionReason.superseded,
                             detail, _cost(cand.obj), cand.relevance)

    def stale(self) -> None:
        # a candidate's object is the index's at its URI, which prepared found retired
        for uri in sorted(self.prep.stale.intersection(self.cands)):
            cand = self.cands[uri]
            status = cand.obj.status
            if uri in self.seeds:
                self.diagnostics.append(Diagnostic(
                    severity="warning", code="stale_seed", path=cand.obj.provenance.path,
                    message=say("`{uri}` is marked `{status}` and was kept because the request "
                                "names it; check that it is still the thing to work from",
                                uri=uri, status=str(status))))
                continue
            del self.cands[uri]
            self.exclude(uri, cand.obj.kind, cand.tier, ExclusionReason.stale,
                         say("the object declares status `{status}`, so it is not the current "
                             "thing; a seed naming it would keep it", status=str(status)),
                         _cost(cand.obj), cand.relevance)

    def unresolved(self) -> None:
        rows: dict[str, list] = {}
        unresolved_by_source = self.index.unresolved_by_source
        for uri in sorted(unresolved_by_source.keys() & self.cands.keys()):
            cand = self.cands[uri]
            for item in unresolved_by_source[uri]:
                rows.setdefault(item.name, []).append((cand, item))
        for name, found in sorted(rows.items()):
            cand, item = found[0]
            weight = EDGE_RULES[_edge_of(item.field, cand.obj.kind)].forward if _edge_of(
                item.field, cand.obj.kind) in EDGE_RULES else 1.0
            correction = _correction(item)
            if len(found) > 1:
                detail = say_n("named by {path} under `{field}` (and {n} more) and not held: "
                               "{correction}",
                               "named by {path} under `{field}` (and {n} more) and not held: "
                               "{correction}", n=len(found) - 1, path=item.declared_in,
                               field=item.field, correction=correction)
            else:
                detail = say("named by {path} under `{field}` and not held: {correction}",
                             path=item.declared_in, field=item.field, correction=correction)
            self.excluded.append(said(Excluded(
                uri=name, kind=None, tier=placement(name, item.target_kind, self.sel.plan).tier,
                reason=ExclusionReason.unresolved,
                detail=str(detail), cost_tokens=0, relevance=round3(cand.relevance * weight)),
                detail))
            for _, item_i in found:
                self.diagnostics.append(self.prep.unresolved_diagnostic(item_i,
                                                                        _unresolved_warning))

    # -- spend ---------------------------------------------------------------------------

    def spend(self) -> tuple[list[ContextEntry], int, int, dict[Tier, list[int]]]:
        order = sorted(self.cands.values(), key=lambda c: (_TIER_RANK[c.tier], -c.relevance,
                                                           c.uri))
        seeds = self.seeds
        row_of = self.prep.row
        rows = [row_of(cand.obj) for cand in order]
        costs = [row.cost for row in rows]
        required: list[bool] = []
        for cand, row in zip(order, rows):
            cand.required = cand.required or row.required or cand.uri in seeds
            required.append(cand.required)
        # What may not be dropped is reserved first, so a droppable entry can never take the
        # room a required one needs: past the limit only when the required alone exceed it.
        required_tokens = sum(c for c, r in zip(costs, required) if r)
        used = required_tokens
        limit = self.limit
        tiers = {t: [0, 0, 0, 0] for t in TIER_ORDER}  # selected, budget-excluded, tokens, required
        selected: list[ContextEntry] = []
        refits: _Refits | None = None
        # the ~600 refusals of a large answer: recorded here, their rows made in one loop
        # once the spend is done (:func:`refused_rows`)
        refusals: list[tuple[Candidate, int, int, int, bool]] = []
        refused = refusals.append
        for i, cand in enumerate(order):
            cost = costs[i]
            if cand.required:
                pass
            elif used + cost > limit:
                if refits is None:
                    refits = _Refits(costs, required, required_tokens, limit)
                needed, sure = refits.budget_to_include(i, used)
                refused((cand, cost, used, needed, sure))
                tiers[cand.tier][1] += 1
                continue
            else:
                used += cost
            spent = tiers[cand.tier]
            spent[0] += 1
            spent[2] += cost
            spent[3] += 1 if cand.required else 0
            selected.append(self.entry(cand, rows[i]))
        self.excluded.extend(refused_rows(refusals, limit, used))
        if refits is not None and refits.unsearched:
            self.diagnostics.append(allowance_diagnostic(refits.unsearched))
        return selected, used, required_tokens, tiers

    def entry(self, cand: Candidate, row: Row) -> ContextEntry:
        obj = cand.obj
        discoveries = list(cand.discoveries.values())
        if len(discoveries) > 1:  # most entries are reached one way
            discoveries.sort(key=lambda d: (-d.confidence, d.depth, _SELECTOR_RANK[d.selector],
                                            d.reason, d.via or ""))
        rounded = tuple([_rounded(d) for d in discoveries])
        return made_entry(
            obj.uri, obj.kind, obj.title, row.provenance, cand.tier, round3(cand.relevance),
            round3(max(d.confidence for d in discoveries)), rounded, cand.depth, row.cost,
            row.provenance.bytes, obj.version, obj.status, cand.required, dict(row.facts))

    def request_bound(self) -> None:
        floor = self.req.request.floor
        depth = self.req.request.max_depth
        for uri, missed in sorted(self.sel.below_floor.items()):
            self.exclude(uri, missed.obj.kind, missed.tier, ExclusionReason.relevance,
                         reworded(_BELOW_FLOOR, missed.how,
                                  _shown_relevance(missed.relevance, floor), float(floor),
                                  _floor_to_include(missed.relevance)),
                         _cost(missed.obj), missed.relevance)
        for uri, missed in sorted(self.sel.beyond_depth.items()):
            self.exclude(uri, missed.obj.kind, missed.tier, ExclusionReason.depth,
                         reworded(_BEYOND_DEPTH, missed.depth, missed.how, depth),
                         _cost(missed.obj), missed.relevance)

    def commits(self, selected: list[ContextEntry]) -> tuple[CommitReference, ...]:
        refs = set()
        for entry in selected:
            obj = self.index.objects.get(entry.uri)
            for item in fields.evidence(obj) if obj is not None else ():
                if isinstance(item.get("commit"), str):
                    covers = scalar_text(item.get("covers"))
                    refs.add((item["commit"].strip(), entry.uri, covers or ""))
        return tuple(CommitReference(commit=c, named_by=n, covers=v or None)
                     for c, n, v in sorted(refs))


def _shared_path_uris(index: Index) -> frozenset[str]:
    """The URIs of the objects at a path the layer indexes more than once (a file that is
    two kinds of object; a file of several records): the only candidates :meth:`by_path`
    can collapse. Made of URIs and paths only, so once per universe, not per edit."""
    cache = index.universe_cache
    found = cache.get("budget.shared_path_uris")
    if found is None:
        by_path: dict[str, list[str]] = {}
        for uri, obj in index.objects.items():
            by_path.setdefault(obj.provenance.path, []).append(uri)
        found = cache["budget.shared_path_uris"] = frozenset(
            uri for uris in by_path.values() if len(uris) > 1 for uri in uris)
    return found


def _canonical_exclusions(rows: list[Excluded]) -> list[Excluded]:
    """``rows`` in the answer's order: by tier, then reason, then the URI's natural order,
    each group sorted on its own (a large answer's ~1,000 rows fall in a few groups, and
    their keys are then compared by URI alone)."""
    groups: dict[tuple[int, int], list[Excluded]] = {}
    for row in rows:
        groups.setdefault((_TIER_RANK[row.tier], _REASON_RANK[row.reason]), []).append(row)
    ordered: list[Excluded] = []
    for group in sorted(groups):
        ordered.extend(sorted(groups[group], key=lambda row: natural_key(row.uri)))
    return ordered


def _versioned_uris(index: Index) -> dict[str, tuple[str, int]]:
    """uri -> (its stem, its version) for every URI of the layer that ends in ``@N``:
    what :meth:`by_version` groups (made of URIs only, so once per universe)."""
    cache = index.universe_cache
    found = cache.get("budget.versioned_uris")
    if found is None:
        found = {}
        for uri in index.objects:
            match = _VERSIONED.match(uri)
            if match:
                found[uri] = (match.group("stem"), int(match.group("version")))
        cache["budget.versioned_uris"] = found
    return found


def _rounded(d: Discovery) -> Discovery:
    """The discovery with its numbers at the contract's 3 decimals (as ``model_copy`` with
    them would make it; the same one when they already are)."""
    confidence, weight = round3(d.confidence), round3(d.weight)
    if (confidence, weight) == (d.confidence, d.weight) and type(d.confidence) is type(
            d.weight) is float:
        return d
    return d.model_copy(update={"confidence": confidence, "weight": weight})


#: The sentences of an exclusion the request's floor or depth makes (~300 in a large
#: answer), checked once here and reworded per row.
_BELOW_FLOOR = say("reached {how} at relevance {relevance}, below the floor {floor}; "
                   "a floor of {to_include} brings it in", how="", relevance=0.0, floor=0.0,
                   to_include=0.0)
_BEYOND_DEPTH = say_n("{n} hop from a seed ({how}), one beyond max_depth {max_depth}; "
                      "a max_depth of {n} brings it in",
                      "{n} hops from a seed ({how}), one beyond max_depth {max_depth}; "
                      "a max_depth of {n} brings it in", n=0, how="", max_depth=0)

#: The sentences of a refusal for budget (see :func:`budget_detail`), checked once here:
#: a large answer says one for each of its ~600 refusals (its English written by
#: :func:`refused_rows`, its phrase made only when asked, :class:`Recounted`). A row
#: refused at the answer's final sum (most of them) leaves the sum to the answer's
#: ``budget``; one refused at another says its own.
_BUDGET_SURE = say_n("a budget of {n} tokens brings it in",
                     "a budget of {n} tokens brings it in", n=0)
_BUDGET_BOUND = say_n("a budget of {n} tokens brings it in (none below {low} can)",
                      "a budget of {n} tokens brings it in (none below {low} can)", n=0, low=0)
_BUDGET_SURE_THEN = say_n("{used} of {limit} spent or reserved when refused; a budget of {n} "
                          "tokens brings it in",
                          "{used} of {limit} spent or reserved when refused; a budget of {n} "
                          "tokens brings it in", n=0, used=0, limit=0)
_BUDGET_BOUND_THEN = say_n("{used} of {limit} spent or reserved when refused; a budget of {n} "
                           "tokens brings it in (none below {low} can)",
                           "{used} of {limit} spent or reserved when refused; a budget of {n} "
                           "tokens brings it in (none below {low} can)",
                           n=0, used=0, limit=0, low=0)
_SAY_SURE = Recounted(_BUDGET_SURE)
_SAY_BOUND = Recounted(_BUDGET_BOUND)
_SAY_SURE_THEN = Recounted(_BUDGET_SURE_THEN)
_SAY_BOUND_THEN = Recounted(_BUDGET_BOUND_THEN)
#: The templates of the sentences that leave the sum to the answer (a page that says a
#: row from its phrase takes the sum from the answer's ``budget``).
AT_FINAL_SUM = frozenset({_BUDGET_SURE.template, _BUDGET_BOUND.template})


def budget_detail(used: int, limit: int, needed: int, sure: bool, low: int,
                  final: int) -> Phrase:
    """What is particular to one refusal for budget: the budget that brings it back, and
    the pot when it was refused where that is not ``final``, the answer's final sum (its
    ``budget.used_tokens``, which the answer states once; its cost, the limit's meaning and
    the first-fit rule are the row's and the answer's own; the site says them once per
    group). A budget found without settling the least one (or past the answer's allowance of
    searches, which the answer states once: :func:`allowance_diagnostic`) says the bound
    below which none can.

    One whole sentence per case, so a translation can order each its own way; the count
    is the budget's tokens (English says "tokens" either way, as it always did)."""
    if used == final:
        return _SAY_SURE(needed) if sure else _SAY_BOUND(needed, low)
    if sure:
        return _SAY_SURE_THEN(needed, used, limit)
    return _SAY_BOUND_THEN(needed, used, limit, low)


#: What an answer says once when it has refusals past the allowance of searches for the
#: least budget (:data:`.refits.MAX_REFIT_SEARCHES`): their rows name a budget that surely
#: brings them in, with the bound, as a row whose search did not settle does.
_PAST_ALLOWANCE = say_n(
    "the least budget that brings a refused entry in is searched for in an answer's first "
    "{searches} refusals for budget; the {n} refusal past them names a budget that surely "
    "brings it in (everything before it fits, then it does) and the bound below which none "
    "can",
    "the least budget that brings a refused entry in is searched for in an answer's first "
    "{searches} refusals for budget; the {n} refusals past them each name a budget that "
    "surely brings it in (everything before it fits, then it does) and the bound below which "
    "none can", n=0, searches=0)


def allowance_diagnostic(past: int) -> Diagnostic:
    """The answer's note that ``past`` of its refusals came after the allowance of searches
    (an ``info``: a limit of the engine stated, not a problem of the layer or the request)."""
    return Diagnostic(severity="info", code="refit_allowance",
                      message=reworded(_PAST_ALLOWANCE, past, _refits_module.MAX_REFIT_SEARCHES))


def refused_rows(refusals: list[tuple[Candidate, int, int, int, bool]],
                 limit: int, final: int) -> list[Excluded]:
    """The rows of one spend's refusals for budget, ``(candidate, cost, pot, budget that
    brings it in, whether the least)`` each in spend order
    (``final``: the spend's final sum): each row's :class:`~.models.Refusal` kept in its
    private state, which makes its phrase (:func:`budget_detail`'s) only when asked; its
    English written here, with what repeats written once (the limit, the pot while it
    stays: first fit refuses runs of entries at one sum).
    ``tests/engine/test_budget_refits.py`` holds each row to the one made with
    :func:`budget_detail`'s phrase."""
    limit_text = f"{limit:,}"
    sure_en, bound_en = _SURE_EN.format, _BOUND_EN.format
    sure_then, bound_then = _SURE_THEN_EN.format, _BOUND_THEN_EN.format
    rounded: dict[float, float] = {}
    record = tuple.__new__
    pot, pot_text = -1, ""
    rows = []
    for cand, cost, used, needed, sure in refusals:
        low = used + cost
        if used == final:
            if sure:
                detail = sure_en(f"{needed:,}")
            else:
                detail = bound_en(f"{needed:,}", f"{low:,}")
        else:
            if used != pot:
                pot, pot_text = used, f"{used:,}"
            if sure:
                detail = sure_then(f"{needed:,}", pot_text, limit_text)
            else:
                detail = bound_then(f"{needed:,}", pot_text, limit_text, f"{low:,}")
        relevance = rounded.get(cand.relevance)
        if relevance is None:
            relevance = rounded[cand.relevance] = round3(cand.relevance)
        uri, kind, tier = cand.uri, cand.obj.kind, cand.tier
        private = _Refused()
        private.record = record(Refusal, (uri, kind, tier, cost, relevance, used, needed, low,
                                          sure, limit, final))
        rows.append(made_refused(private, uri, kind, tier, detail, cost, relevance))
    return rows


class _Refused(LazyPhrase):
    """A refusal's private state: its phrase, :func:`budget_detail`'s, made from its
    :class:`~.models.Refusal` when asked."""

    __slots__ = ()

    @staticmethod
    def make(record: Refusal) -> Phrase:
        return budget_detail(record.used, record.limit, record.needed, record.sure,
                             record.low, record.final)


def _english_of(model: Phrase) -> str:
    """``model``'s English template with its parameters by position (``{used}`` -> ``{1}``),
    for their texts: one sentence, singular and plural alike (checked)."""
    assert model.plural in (None, model.template), model.template
    return positional(model.template, tuple(name for name, _ in model.params))


_SURE_EN = _english_of(_BUDGET_SURE)
_BOUND_EN = _english_of(_BUDGET_BOUND)
_SURE_THEN_EN = _english_of(_BUDGET_SURE_THEN)
_BOUND_THEN_EN = _english_of(_BUDGET_BOUND_THEN)


def _unresolved_warning(item) -> Diagnostic:
    """The answer's warning for an unresolved reference it reaches (the same in every answer
    that reaches it: made once per index, :meth:`.prepared.Prepared.unresolved_diagnostic`)."""
    return Diagnostic(severity="warning", code="unresolved_reference", path=item.declared_in,
                      line=item.line,
                      message=say("`{reference}` is named and not held: {correction}",
                                  reference=item.reference, correction=_correction(item)))


def _correction(item) -> Phrase | str:
    """What an unresolved reference's fix says: the index's sentence, as the phrase the
    index keeps (``Unresolved.said``, the loader's branch), else its English text."""
    said_fix = getattr(item, "said", None)
    return said_fix if isinstance(said_fix, Phrase) else item.correction


def _edge_of(field: str, kind: str) -> str:
    from ..relations import RELATIONS

    for rel in RELATIONS:
        if rel.field == field and rel.declaring_kind in ("*", kind):
            return rel.edge
    return ""


def _shown_relevance(relevance: float, floor: float) -> float:
    """The relevance for a sentence that says it is below the floor: 3 decimals, or more
    when 3 would round it up to the floor and make the sentence contradict itself."""
    rounded = round3(relevance)
    if rounded < floor:
        return rounded
    return round(relevance, 6)


def _floor_to_include(relevance: float) -> float:
    """The highest 3-decimal floor at or below ``relevance``."""
    import math

    return math.floor(relevance * 1000 + 1e-9) / 1000


def spend(index: Index, req: ResolvedRequest, sel: Selection) -> Spent:
    b = _Budgeter(index, req, sel)
    b.by_path()
    b.by_version()
    b.supersedes()
    b.stale()
    b.unresolved()
    selected, used, required_tokens, tiers = b.spend()
    b.structural(selected)
    b.request_bound()
    excluded = _canonical_exclusions(b.excluded)
    dedup = sorted(b.dedup, key=lambda d: (natural_key(d.key), natural_key(d.kept)))
    conflicts = sorted(b.conflicts, key=lambda c: (c.kind, c.current, c.against))
    budget = Budget(
        limit_tokens=b.limit, used_tokens=used, required_tokens=required_tokens,
        remaining_tokens=max(0, b.limit - used), over_budget=used > b.limit,
        bytes_per_token=BYTES_PER_TOKEN,
        tiers=tuple(TierSpend(tier=t, meaning=t.meaning, selected=row[0], excluded=row[1],
                              tokens=row[2], required=row[3]) for t, row in tiers.items()))
    from ..diagnostics import SEVERITY_RANK

    diags: list[Diagnostic] = []
    for d in sorted(b.diagnostics, key=lambda d: (SEVERITY_RANK[d.severity], d.code, d.message)):
        if not diags or diags[-1] != d:
            diags.append(d)
    return Spent(tuple(selected), tuple(excluded), tuple(dedup), tuple(conflicts), budget,
                 tuple(diags), b.commits(selected))
