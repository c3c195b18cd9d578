"""Selection: from the seeds, every selector offers candidates (pure).

Seven selectors, in this order: seed, relation (a best-path walk over the typed graph),
scope_path and contract (over the effective scope), governance, session_state and
intent_match. One candidate per URI: a second discovery merges into it (max relevance,
min depth, strongest tier; discoveries de-duplicated by selector, edge and reason). What is
reached below the floor, or one hop beyond the depth, is recorded for the exclusions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import fields
from ..index import Index
from ..model import LayerObject
from ..paths import is_within
from ..phrases import Phrase, say, say_n
from .models import Discovery, Selector, Tier, made, made_discovery
from .policy import FIXED_RELEVANCE, INTENT_CEILING, TaskPlan, placed_tier, task_plan
from .prepared import Prepared, ScopeOffer, is_blocking_rule, is_stale, prepared
from .request import ResolvedRequest

__all__ = ["Candidate", "Missed", "Selection", "select"]


@dataclass(slots=True)
class Candidate:
    obj: LayerObject
    relevance: float
    depth: int
    tier: Tier
    discoveries: dict[tuple[str, str, str], Discovery] = field(default_factory=dict)
    required: bool = False
    #: ``obj.uri``, kept (the budget stage sorts and looks up by it ~10 times a row)
    uri: str = field(init=False)

    def __post_init__(self) -> None:
        self.uri = self.obj.uri


@dataclass
class Missed:
    """Reached, but below the floor (``relevance``) or one hop past the depth (``depth``)."""

    obj: LayerObject
    relevance: float
    depth: int
    tier: Tier
    via: str | None
    how: Phrase  # words for the detail: "along depends_on from I0001", "by the intent", ...


@dataclass
class Selection:
    candidates: dict[str, Candidate]
    below_floor: dict[str, Missed]
    beyond_depth: dict[str, Missed]
    effective_scope: tuple[str, ...]
    #: What the task tier holds for this request (the seeds and what follows from them).
    plan: TaskPlan


#: Relevances are products of float weights (0.6 × 2/3 is 0.39999999999999997), so "below
#: the floor" forgives float noise: a relevance within this of the floor meets it. The budget
#: stage names "the floor that brings it in" with the same tolerance.
FLOOR_TOLERANCE = 1e-9


def below_floor(relevance: float, floor: float) -> bool:
    return relevance < floor - FLOOR_TOLERANCE


_TIER_RANK = {t: i for i, t in enumerate(Tier)}


def _stronger(a: Tier, b: Tier) -> Tier:
    return a if _TIER_RANK[a] <= _TIER_RANK[b] else b


class _Selector:
    def __init__(self, index: Index, req: ResolvedRequest, branch: str | None) -> None:
        self.index = index
        self.req = req
        self.prep: Prepared = prepared(index)
        self.floor = req.request.floor
        #: a relevance below this is below the floor (:func:`below_floor`)
        self.threshold = self.floor - FLOOR_TOLERANCE
        self.branch = branch
        self.candidates: dict[str, Candidate] = {}
        self.below: dict[str, Missed] = {}
        self.plan = task_plan(index, req.object_seeds)

    def tier_of(self, obj: LayerObject) -> Tier:
        """The tier an object reached by the walk or the intent is spent from: by what it is
        to the request (policy.placement), the same for every path that reaches it."""
        return placed_tier(obj.uri, obj.kind, self.plan)

    # -- offering --------------------------------------------------------------------

    def offer(self, obj: LayerObject, relevance: float, depth: int, tier: Tier,
              discovery: Discovery, how: Phrase, *, required: bool = False) -> bool:
        """Add or merge a candidate; below the floor it is only recorded. True if offered."""
        if relevance < self.threshold and self.missed(obj, relevance, required):
            self.record_below(obj, relevance, depth, tier, discovery.via, how)
            return False
        cand = self.merge(obj, relevance, depth, tier, required)
        key = (discovery.selector, discovery.edge or "", discovery.reason)  # a StrEnum: a str
        old = cand.discoveries.get(key)
        if old is None or (discovery.depth, -discovery.weight, discovery.via or "") < (
                old.depth, -old.weight, old.via or ""):
            cand.discoveries[key] = discovery
        return True

    def missed(self, obj: LayerObject, relevance: float, required: bool) -> bool:
        """Below the floor, unless required, a seed or a blocking rule in force (asked only
        then: most offers meet the floor)."""
        return relevance < self.threshold and not (
            required or obj.uri in self.req.object_seeds
            or (is_blocking_rule(obj) and not is_stale(obj)))

    def record_below(self, obj: LayerObject, relevance: float, depth: int, tier: Tier,
                     via: str | None, how: Phrase) -> None:
        missed = self.below.get(obj.uri)
        if missed is None or relevance > missed.relevance or (
                relevance == missed.relevance and depth < missed.depth):
            self.below[obj.uri] = Missed(obj, relevance, depth, tier, via, how)

    def merge(self, obj: LayerObject, relevance: float, depth: int, tier: Tier,
              required: bool) -> Candidate:
        """The candidate of ``obj``, made or merged with this offer (its discovery aside)."""
        cand = self.candidates.get(obj.uri)
        if cand is None:
            cand = self.candidates[obj.uri] = Candidate(obj, relevance, depth, tier)
        else:
            if relevance > cand.relevance:
                cand.relevance = relevance
            if depth < cand.depth:
                cand.depth = depth
            if _TIER_RANK[tier] < _TIER_RANK[cand.tier]:
                cand.tier = tier
        if required:
            cand.required = True
        return cand

    # -- selectors -------------------------------------------------------------------

    def seeds(self) -> None:
        for uri in self.req.object_seeds:
            obj = self.index.objects[uri]
            named = say("named in the request")
            self.offer(obj, FIXED_RELEVANCE["seed"], 0, Tier.task,
                       made(Discovery, named, selector=Selector.seed, reason=str(named), depth=0,
                            confidence=1.0, weight=1.0), named)

    def walk(self) -> dict[str, Missed]:
        """Best-path walk in layers: relevance is the best product of edge weights over walks
        of at most max_depth hops, depth the fewest hops; a node is expanded from every layer
        at which its relevance improved, so expansion always uses its best relevance."""
        max_depth = self.req.request.max_depth
        objects = self.index.objects
        steps_of = self.prep.steps.get
        threshold = self.threshold
        best: dict[str, float] = {u: 1.0 for u in self.req.object_seeds}
        frontier: dict[str, float] = dict(best)
        for layer in range(1, max_depth + 1):
            improved: dict[str, float] = {}
            for u in sorted(frontier):
                r_u = frontier[u]
                for step in steps_of(u, ()):
                    v = step.target
                    obj = objects.get(v)
                    if obj is None:
                        continue
                    r = r_u * step.weight
                    # offer() along the step, its discovery and words made only when kept
                    # (most steps reach a candidate by a path it already has a better one of)
                    if r < threshold and self.missed(obj, r, False):
                        self.record_below(obj, r, layer, self.tier_of(obj), u,
                                          _along(step.edge, u))
                        continue
                    cand = self.merge(obj, r, layer, self.tier_of(obj), False)
                    key = (Selector.relation, step.edge, step.reason)
                    old = cand.discoveries.get(key)
                    if old is None or (layer, -step.weight, u) < (
                            old.depth, -old.weight, old.via or ""):
                        cand.discoveries[key] = made_discovery(
                            step.phrase, Selector.relation, step.reason, u, step.edge, layer,
                            1.0, step.weight)
                    if r >= threshold and r > best.get(v, -1.0):
                        best[v] = r
                        improved[v] = max(improved.get(v, 0.0), r)
            frontier = improved
            if not frontier:
                break
        # One hop past the depth: what raising max_depth by one would reach.
        beyond: dict[str, Missed] = {}
        # After the loop the frontier is the layer at max_depth (the seeds when it is 0);
        # it is empty when the walk ran out of edges first.
        if frontier:
            for u in sorted(frontier):
                for step in self.prep.steps.get(u, ()):
                    v = step.target
                    obj = objects.get(v)
                    if obj is None or v in best or v in self.candidates:
                        continue
                    r = frontier[u] * step.weight
                    if below_floor(r, self.floor):
                        continue
                    old = beyond.get(v)
                    if old is None or r > old.relevance:
                        beyond[v] = Missed(obj, r, max_depth + 1, self.tier_of(obj), u,
                                           _along(step.edge, u))
        return beyond

    def effective_scope(self) -> tuple[str, ...]:
        paths = set(self.req.paths)
        for cand in self.candidates.values():
            if cand.obj.kind in ("issue", "milestone") and cand.depth <= 1:
                paths.update(fields.scope_paths(cand.obj))
        return tuple(sorted(paths))

    def scope_and_contracts(self, scope: tuple[str, ...]) -> None:
        index, prep = self.index, self.prep
        for path in scope:
            for obj, rel, tier, discovery, how in prep.of_scope(
                    path, lambda: _scope_offers(index, prep, path)):
                self.offer(obj, rel, 1, tier, discovery, how)

    def governance(self) -> None:
        for obj in self.prep.governance:
            word = "policy" if obj.kind == "policy" else "scope"
            if word == "policy":
                why = say("the repository's policy, applied to all work")
                how = say("as the repository's policy")
            else:
                why = say("the repository's scope, applied to all work")
                how = say("as the repository's scope")
            self.offer(obj, FIXED_RELEVANCE[word], 0, Tier.governance,
                       made(Discovery, why, selector=Selector.governance, reason=str(why),
                            depth=0, confidence=1.0, weight=1.0),
                       how, required=True)
        if self.req.request.all_blocking_rules:
            rel = FIXED_RELEVANCE["blocking_rule"]
            for obj in self.prep.blocking_rules:
                # A deprecated blocking rule is offered too: the stale stage then excludes it
                # with its reason, rather than it vanishing without a word.
                why = say("a blocking rule; the request asked for all of them")
                self.offer(obj, rel, 0, Tier.governance,
                           made(Discovery, why, selector=Selector.governance, reason=str(why),
                                depth=0, confidence=1.0, weight=rel),
                           say("as a blocking rule"), required=True)

    def sessions(self, scope: tuple[str, ...]) -> None:
        touched: dict[str, int] = {}
        for path in scope:
            for uri, n in self.prep.sessions_touching(path).items():
                touched[uri] = touched.get(uri, 0) + n
        # only the sessions touching the scope or of this branch, in the sessions' order
        # (a large layer has thousands of sessions and a context reaches a few)
        chosen = {uri: self.index.objects[uri] for uri in touched}
        if self.branch:
            chosen.update((o.uri, o) for o in self.prep.sessions_of_branch(self.branch))
        how = say("as a session record")
        of_branch: Discovery | None = None
        for uri in sorted(chosen, key=self.prep.session_order.__getitem__):
            obj = chosen[uri]
            n = touched.get(uri, 0)
            if n:
                discovery = self.prep.session_discovery(n, _session_discovery)
            else:
                if of_branch is None:
                    rel = FIXED_RELEVANCE["session_branch"]
                    reason = say("a recorded session of this branch, `{branch}`",
                                 branch=str(self.branch))
                    of_branch = made(Discovery, reason, selector=Selector.session_state,
                                     reason=str(reason), depth=1, confidence=1.0, weight=rel)
                discovery = of_branch
            self.offer(obj, discovery.weight, 1, Tier.knowledge, discovery, how)

    def intent(self) -> None:
        terms = self.req.terms
        if not terms:
            return
        objects = self.index.objects
        for haystack, uri in self.prep.haystacks:
            hits = [t for t in terms if t in haystack]
            if not hits:
                continue
            share = len(hits) / len(terms)
            rel = INTENT_CEILING * share
            # An inferred path is never as sure as a declared one: even when every term hits,
            # an intent match carries a confidence below one (the `intent` field's contract),
            # the same 0.6 × share it contributes to relevance (as the schema's examples show).
            obj = objects[uri]
            why = say("the intent's words {words} occur in its own title, description, "
                      "identity or tags", words=", ".join(hits))
            self.offer(obj, rel, 1, self.tier_of(obj),
                       made(Discovery, why, selector=Selector.intent_match, reason=str(why),
                            depth=1, confidence=rel, weight=rel),
                       say("by the intent ({hits} of {n} terms)", hits=len(hits), n=len(terms)))


#: "along `depends_on` from I0001": the same few words for every step of every walk, so
#: the phrase is made without :func:`say`'s check of its template (done once, here).
_ALONG = say("along `{edge}` from {uri}", edge="e", uri="u").template


def _along(edge: str, uri: str) -> Phrase:
    return Phrase(_ALONG, (("edge", edge), ("uri", uri)))


def _session_discovery(n: int) -> Discovery:
    """How a session that changed ``n`` files under the scope is found (the same words for
    every session and request with that count)."""
    rel = FIXED_RELEVANCE["session_scope"]
    reason = say_n("a recorded session that changed {n} file under the declared scope",
                   "a recorded session that changed {n} files under the declared scope", n=n)
    return made(Discovery, reason, selector=Selector.session_state, reason=str(reason),
                depth=1, confidence=1.0, weight=rel)


def _scope_offers(index: Index, prep: Prepared, path: str) -> tuple[ScopeOffer, ...]:
    """What the scope and contract selectors offer for one scope path, in the order they
    offer it: the source files and tests under it, then the directory contracts reaching
    it. The same for every request whose scope holds the path."""
    offers: list[ScopeOffer] = []
    files = [obj for obj in index.under(path) if obj.kind in ("implementation", "test")]
    if files:
        # one discovery for them all: it says the path, not the file
        rel_scope = FIXED_RELEVANCE["scope_path"]
        why = say("it lies under `{path}`, a path the work declares as its scope", path=path)
        discovery = made(Discovery, why, selector=Selector.scope_path, reason=str(why),
                         via=path, depth=1, confidence=1.0, weight=rel_scope)
        how = say("under the scope path `{path}`", path=path)
        offers.extend((obj, rel_scope, Tier.source, discovery, how) for obj in files)
    rel_contract = FIXED_RELEVANCE["contract"]
    for contract in prep.contracts:
        why = _contract_reaches(contract, path)
        if why is None:
            continue
        offers.append((contract.obj, rel_contract, Tier.governance,
                       made(Discovery, why, selector=Selector.contract, reason=str(why),
                            via=path, depth=1, confidence=1.0, weight=rel_contract),
                       say("as the contract reaching `{path}`", path=path)))
    return tuple(offers)


def _contract_reaches(c, path: str) -> Phrase | None:
    directory = "" if c.directory == "." else c.directory
    if c.mode == "subtree" and is_within(path, directory):
        return say("the directory contract of `{directory}` covers its whole subtree, which "
                   "holds `{path}`", directory=c.directory, path=path)
    if c.mode == "directory" and path == (directory or "."):
        return say("the directory contract of `{directory}`, the directory `{path}` names",
                   directory=c.directory, path=path)
    if c.mode == "explicit":
        for p in c.paths:
            if is_within(path, p):
                return say("the contract lists `{listed}`, which holds `{path}`", listed=p,
                           path=path)
    for t in c.tracks:
        if is_within(path, t) or t.startswith(path + "/"):
            return say("the contract tracks `{tracked}`, which overlaps `{path}`", tracked=t,
                       path=path)
    return None


def select(index: Index, req: ResolvedRequest, *, branch: str | None = None) -> Selection:
    s = _Selector(index, req, branch)
    s.seeds()
    beyond = s.walk()
    scope = s.effective_scope()
    s.scope_and_contracts(scope)
    s.governance()
    s.sessions(scope)
    s.intent()
    # Reached both below the floor and one hop past the depth: raising the depth alone
    # brings it in at the better relevance, so it is a depth exclusion.
    beyond = {u: m for u, m in beyond.items() if u not in s.candidates}
    below = {u: m for u, m in s.below.items() if u not in s.candidates and u not in beyond}
    return Selection(s.candidates, below, beyond, scope, s.plan)

