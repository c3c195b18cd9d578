"""What one compiled answer depended on — its *reach* — declared by the engine itself, so
that whoever keeps answers (serve's rebuilds) knows which edits can change one without
re-deriving the selection rules.

An answer reads, besides the layer's fingerprint and the git state (which every answer
carries):

- ``objects``: every object whose record, edges, unresolved references or derived state
  the compile looked at — the seeds, every candidate and every object reached below the
  floor or past the depth, every ``via`` of a discovery, and every name the answer
  carries (exclusions, unresolved names, deduplications, conflicts, commits);
- ``scope``: the effective scope paths — the objects under them, the directory contracts
  and the sessions reaching them are offered by the scope, contract and session
  selectors;
- ``kinds``: the kinds taken from everywhere — the governance (``policy``, ``scope``),
  the blocking rules when the request asks for all of them (``rule``), and the directory
  contracts when the scope is not empty (``context``: whether a contract reaches a path
  depends on its own fields);
- ``branch``: the sessions recorded on this branch (offered to every request);
- ``everything``: the intent, matched against every object's own words.

An edit changes an answer only if it changes something the answer reached: an object of
``objects``, an object at or under a ``scope`` path (or a session whose changed files lie
there), an object of one of ``kinds``, a session of ``branch`` — see :func:`reaches`.
``tests/engine/test_reach.py`` checks it on random edits.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from .. import fields
from ..model import LayerObject
from .models import CompiledContext
from .request import ResolvedRequest
from .select import Selection

__all__ = ["Reach", "Touch", "reach_of", "touch_of", "reaches", "GOVERNANCE_KINDS"]

#: The kinds the governance selector offers to every request.
GOVERNANCE_KINDS = frozenset({"policy", "scope"})


@dataclass(frozen=True, slots=True)
class Reach:
    """What one answer depended on (see the module's docstring); not part of its wire form."""

    objects: tuple[str, ...]
    scope: tuple[str, ...]
    kinds: frozenset[str]
    branch: str | None = None
    everything: bool = False


@dataclass(frozen=True, slots=True)
class Touch:
    """How an object can meet an answer's reach: by its identifier, its kind, the paths it
    lies at (its own file; a session's changed files too) and a session's branch."""

    uri: str
    kind: str
    paths: tuple[str, ...]
    branch: str | None = None


def touch_of(obj: LayerObject) -> Touch:
    paths = (obj.provenance.path,)
    branch = None
    if obj.kind == "session":
        paths += fields.changed_files(obj)
        branch = fields.branch(obj)
    return Touch(obj.uri, obj.kind, paths, branch)


def ancestors(path: str) -> list[str]:
    """``a/b/c`` -> ``a/b/c``, ``a/b``, ``a``, ``""``: the scope paths that hold it."""
    out = [path]
    while path:
        path = posixpath.dirname(path)
        out.append(path)
    return out


def reaches(reach: Reach, touch: Touch) -> bool:
    """Whether an edit to (or the arrival or departure of) the object can change the answer."""
    if reach.everything or touch.kind in reach.kinds or touch.uri in reach.objects:
        return True
    if touch.branch is not None and touch.branch == reach.branch:
        return True
    scope = set(reach.scope)
    return any(a in scope for path in touch.paths for a in ancestors(path))


def reach_of(req: ResolvedRequest, selection: Selection, answer: CompiledContext,
             branch: str | None) -> Reach:
    names: set[str] = set(req.object_seeds)
    names.update(s.uri for s in answer.seeds)
    # one pass each over the ~700 candidates and ~900 exclusions of a large answer
    candidates = selection.candidates
    names.update(candidates)
    names.update(d.via for cand in candidates.values() for d in cand.discoveries.values()
                 if d.via)
    for missed in (*selection.below_floor.values(), *selection.beyond_depth.values()):
        names.add(missed.obj.uri)
        if missed.via:
            names.add(missed.via)
    names.update(e.uri for e in answer.selected)
    names.update(d.via for e in answer.selected for d in e.discovered_by if d.via)
    names.update(x.uri for x in answer.excluded)
    for d in answer.deduplicated:
        names.add(d.kept)
        names.update(d.dropped)
    for c in answer.conflicts:
        names.add(c.current)
        names.add(c.against)
    names.update(c.named_by for c in answer.git.commits)
    # a via of the scope, contract or session selectors is a path, not an object: harmless
    kinds = set(GOVERNANCE_KINDS)
    if req.request.all_blocking_rules:
        kinds.add("rule")
    if selection.effective_scope:
        kinds.add("context")
    return Reach(objects=tuple(sorted(names)), scope=selection.effective_scope,
                 kinds=frozenset(kinds), branch=branch or None, everything=bool(req.terms))
