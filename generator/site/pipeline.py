"""The one build: compile the contexts an edit can change (every one in a first build),
then run the units (:mod:`.units`) that read something that changed — every unit in a
first build — as one stream of ``(relative path, bytes)``. ``devcontext build`` and
``devcontext serve`` (its first build and every rebuild) both run this; they differ only
in what they keep afterwards and how they write.

Pure: the index, the git state and the templates are given; nothing is read from or
written to disk but the templates and static assets.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from ..rebuild.diff import group_diagnostics, within
from ..rebuild.keys import context_key_set, context_keys_of
from ..rebuild.reach_index import ReachIndex
from ..diagnostics import Diagnostic
from ..engine.compile import GitInfo
from ..engine.reach import Touch
from ..index import Index
from ..paths import normalise_path
from ..query.crossref import DEFAULT_DEPTH as XREF_DEPTH
from ..workers import collector_for_jobs, ordered_map
from . import urls
from .compiled import ContextRecord, context_job
from .contexts import AnswerDigest, ContextKey, SiteAnswers, compile_one
from .overview import overview_files
from .pages.context import context_files, pack_files
from .pages.diagnostics import diagnostics_by_path
from .pages.kit import PageKit
from .pages.object import object_files
from .standing_table import StandingsReceiver, StandingTable
from .units import (
    CONTEXT_TEMPLATE,
    OBJECT_TEMPLATE,
    LAYER,
    OBJECTS,
    PAGES,
    Key,
    answer_key,
    diagnostics_key,
    kind_key,
    object_key,
    overview_unit,
    path_key,
    standings_key,
    template_key,
    template_keys,
)

__all__ = ["SiteState", "Edit", "SiteBuild", "site_files", "reached_contexts"]

Files = list[tuple[str, bytes]]


@dataclass(frozen=True)
class SiteState:
    """What a build leaves for the next one (serve keeps it; ``devcontext build`` drops it)."""

    index: Index
    git: GitInfo
    contexts: dict[ContextKey, ContextRecord]
    reach_index: ReachIndex[ContextKey]
    standings: StandingTable
    #: uri -> repository paths its page's Markdown links resolved; and the reverse.
    links: dict[str, frozenset[str]]
    linked_from: dict[str, set[str]]
    diags_by_path: dict[str, tuple[Diagnostic, ...]]
    #: Every context's and object's files.
    pages_files: frozenset[str]


@dataclass(frozen=True)
class Edit:
    """What changed since the last build, as read off the two indexes."""

    changed: set[str]
    added: set[str]
    removed: set[str]
    #: The changed objects as they were and as they are, for the answers' reaches.
    touches: list[Touch]
    templates: frozenset[str] = frozenset()
    #: The repository paths whose bytes changed (the packs carry files' bytes).
    paths: frozenset[str] = frozenset()


def _pages_files(keys: list[ContextKey], uris) -> frozenset[str]:
    found: set[str] = set()
    for key in keys:
        found.update((urls.context_json(key.kind, key.identity), urls.context_page(key.kind, key.identity),
                      urls.context_pack(key.kind, key.identity),
                      urls.context_pack_script(key.kind, key.identity)))
    for uri in uris:
        found.update((urls.object_json(uri), urls.object_page(uri)))
    return frozenset(found)


@dataclass
class SiteBuild:
    """One build of the site. :meth:`files` is the stream; once it is exhausted,
    :attr:`state` is what the next build starts from and the counters say what was done.

    ``previous`` and ``edit`` are the last build's state and what changed since (None for
    a first build: everything is compiled and made). ``keep`` keeps the answers' JSON
    (compressed) and the state a rebuild needs; ``written`` says whether a file is on
    disk (an overview file that is not is made again)."""

    kit: PageKit
    git: GitInfo
    templates: Path
    base_url: str | None = None
    previous: SiteState | None = None
    edit: Edit | None = None
    keep: bool = True
    written: Callable[[str], bool] = lambda rel: True
    on_stage: Callable[[str, int], None] = lambda name, total: None
    on_step: Callable[[], None] = lambda: None
    # -- what the build did (read after the stream) --
    state: SiteState | None = None
    compiled: int = 0
    answers_changed: int = 0
    objects_made: int = 0
    #: Pages open in a browser (site-relative): of the object pages to make, made first.
    first: frozenset[str] = frozenset()
    #: Every file of the site that this build did not make (a rebuild keeps them).
    kept_files: set[str] = field(default_factory=set)
    timings: dict[str, float] = field(default_factory=dict)

    def files(self) -> Iterator[tuple[str, bytes]]:
        run = self._plan()
        yield from self._compile(run)
        answers = self._answers(run)
        yield from self._remade_contexts(run)
        yield from self._remade_packs(run)
        yield from self._objects(run, answers)
        yield from self._overview(run, answers)
        if self.keep:
            self.state = self._state(run)

    # -- the stages ------------------------------------------------------------------

    def _plan(self) -> "_Run":
        index, old, edit = self.kit.index, self.previous, self.edit
        keys = context_keys_of(index)
        first = old is None or edit is None
        run = _Run(first=first, keys=keys, key_set=set(context_key_set(index)))
        run.to_compile = keys if first else reached_contexts(keys, old, edit, self.git)
        self.compiled = len(run.to_compile)
        if not first:
            run.changed_keys = template_keys(edit.templates) | {LAYER}
            run.contexts = {k: c for k, c in old.contexts.items() if k in run.key_set}
            run.table = old.standings
            run.links = {u: p for u, p in old.links.items() if u not in edit.removed}
        run.digests = {k: c.counts for k, c in run.contexts.items()}
        return run

    def _compile(self, run: "_Run") -> Iterator[tuple[str, bytes]]:
        """Compile and render the contexts the edit reaches (in workers when many)."""
        old = self.previous
        mark = time.perf_counter()
        seconds = 0.0
        self.on_stage("compiling contexts", len(run.to_compile))
        job = context_job(self.kit, self.git, keep_json=self.keep)
        received = StandingsReceiver(run.table)  # the job's numbered standings, read
        for key, record in zip(run.to_compile, ordered_map(job, run.to_compile)):
            seconds += record.seconds
            standings, excluded = received.receive(record.standings)
            before = None if run.first else old.contexts.get(key)
            if before is None or before.digest != record.digest:
                run.answer_changed.add(key)
            for rel, data in record.files:
                if rel == record.files[0][0] and key not in run.answer_changed:
                    continue  # only the fingerprint moved: the writer patches it in place
                yield rel, data
            if run.first:
                run.table.add_kept(key, standings, excluded)
            elif key in run.answer_changed:
                run.changes.append((key, before.reach.objects if before else (),
                                    before.excluded if before else (), dict(standings),
                                    excluded))
            run.digests[key] = record.counts
            if self.keep:
                run.contexts[key] = record.kept(tuple(excluded))
            self.on_step()
        self.timings["contexts: compile+render, summed"] = seconds
        self.timings["contexts: compile+render"] = time.perf_counter() - mark

    def _answers(self, run: "_Run") -> SiteAnswers:
        """The standings and counts after the answers that changed; the keys that changed."""
        old = self.previous
        if run.first:
            run.table = run.table.finish()
        else:
            for key in sorted(set(old.contexts) - run.key_set):
                gone = old.contexts[key]
                run.changes.append((key, gone.reach.objects, gone.excluded, {}, ()))
            run.table, run.moved = run.table.updated(run.changes)
            run.changed_keys.update(answer_key(k) for k in run.answer_changed)
            run.changed_keys |= self._changed_keys(old, self.edit, run.table, run.moved, run.key_set)
        self.answers_changed = len(run.answer_changed)
        return SiteAnswers.of_keys(run.keys, digests=run.digests, standings=run.table.view(),
                                   excluded_counts=run.table.excluded)

    def _remade_contexts(self, run: "_Run") -> Iterator[tuple[str, bytes]]:
        """The pages of the other contexts, when a template they read changed (compiled
        again: the answer is the same, the page is not)."""
        # a context not compiled again has the same answer: only its template can have
        # changed (no units to look over on the usual edit; a large layer has 10,000)
        if run.changed_keys is None or template_key(CONTEXT_TEMPLATE) not in run.changed_keys:
            return
        # every such context's unit (:func:`.units.context_unit`) reads the changed template
        compiled = set(run.to_compile)
        for files in ordered_map(self._remake, [k for k in run.keys if k not in compiled]):
            yield from files

    def _remade_packs(self, run: "_Run") -> Iterator[tuple[str, bytes]]:
        """The packs of the other contexts that carry a file whose bytes changed (the answer
        can stay the same: a comment in a record, a code file edited to the same size)."""
        edit = self.edit
        if run.first or edit is None or not edit.paths:
            return
        compiled = set(run.to_compile)
        # the contexts whose unit (:func:`.units.pack_unit`) reads the source of a changed
        # path, looked up rather than scanned as units: a large layer has 10,400 contexts
        keys = [k for k in run.keys
                if k not in compiled and k in run.contexts and not run.contexts[k].pack_paths.isdisjoint(edit.paths)]
        for files in ordered_map(self._repack, keys):
            yield from files

    def _objects(self, run: "_Run", answers: SiteAnswers) -> Iterator[tuple[str, bytes]]:
        mark = time.perf_counter()
        index = self.kit.index
        diagnostics = diagnostics_by_path(index)  # grouped once, before any worker starts
        uris = sorted(index.objects) if run.first else self._objects_reading(run.changed_keys, self.previous)
        if self.first:  # open pages first; the files are the same in any order
            uris = sorted(uris, key=lambda uri: urls.object_page(uri) not in self.first)
        self.objects_made = len(uris)
        self.on_stage("writing object pages", len(uris))

        def job(uri: str) -> tuple[Files, list[str]]:
            obj = index.objects[uri]
            return object_files(self.kit, obj, answers.standings.get(uri, ()),
                                answers.context_of_uri.get(uri), diagnostics.get(obj.provenance.path, []))

        for uri, (made, linked) in zip(uris, ordered_map(job, uris)):
            yield from made
            run.links[uri] = frozenset(normalise_path(p) for p in linked)
            self.on_step()
        self.timings["objects"] = time.perf_counter() - mark

    def _overview(self, run: "_Run", answers: SiteAnswers) -> Iterator[tuple[str, bytes]]:
        self.on_stage("writing overview pages", 1)
        # the collector as the jobs have it: the heap the build holds by now (the standing
        # table, the index) is frozen, not walked again at each of the pages' allocation
        # bursts, and the youngest generation waits as long as in the jobs
        with collector_for_jobs():
            run.overview = [overview_unit(part) for part in overview_files(
                self.kit, answers, templates=self.templates, base_url=self.base_url)]
            for unit in run.overview:
                rel = unit.files[0]
                if run.changed_keys is None or not unit.reads.isdisjoint(run.changed_keys) or not self.written(rel):
                    t0 = time.perf_counter()
                    yield from unit.make()
                    run.made_overview.add(rel)
                    self.timings[f"overview: {rel}"] = time.perf_counter() - t0
        self.on_step()

    # -- planning --------------------------------------------------------------------

    def _changed_keys(self, old: SiteState, edit: Edit, table: StandingTable, moved: set[str],
                      key_set: set[ContextKey]) -> set[Key]:
        index = self.kit.index
        keys: set[Key] = set()
        # an object's page shows its cross-reference walk: every object within the walk's
        # depth of a changed one (before or after the edit) shows something new
        near = within(old.index, edit.changed, XREF_DEPTH) | within(index, edit.changed, XREF_DEPTH)
        keys.update(object_key(uri) for uri in near)
        keys.update(standings_key(uri) for uri in moved)
        diags = group_diagnostics(index.diagnostics)
        keys.update(diagnostics_key(p) for p in diags.keys() | old.diags_by_path.keys()
                    if diags.get(p) != old.diags_by_path.get(p))
        keys.update(path_key(p) for t in edit.touches for p in t.paths)
        kinds = {t.kind for t in edit.touches}
        kinds.update(index.objects[uri].kind for uri in moved
                     if table.counts.get(uri) != old.standings.counts.get(uri) and uri in index.objects)
        keys.update(kind_key(k) for k in kinds)
        if edit.changed:
            keys.add(OBJECTS)
        if edit.added or edit.removed or key_set != set(old.contexts):
            keys.add(PAGES)
        return keys

    def _objects_reading(self, changed: set[Key], old: SiteState) -> list[str]:
        """The objects whose unit reads a changed key (:func:`.units.object_unit`'s reads,
        looked up rather than scanned: a large layer has 30,000 objects)."""
        index = self.kit.index
        if template_key(OBJECT_TEMPLATE) in changed:
            return sorted(index.objects)
        found: set[str] = set()
        for key in changed:
            if key.kind in ("object", "standings"):
                found.add(key.name)
            elif key.kind == "diagnostics":
                found.update(o.uri for o in index.at_path(key.name))
            elif key.kind == "path":
                found.update(old.linked_from.get(key.name, ()))
        return sorted(found & index.objects.keys())

    # -- the rest --------------------------------------------------------------------

    def _remake(self, key: ContextKey) -> Files:
        """A context's page again (its JSON did not change)."""
        return context_files(self.kit, key, compile_one(self.kit.index, key, self.git))[1:]

    def _repack(self, key: ContextKey) -> Files:
        """A context's pack again, for the bytes of a file it carries."""
        return pack_files(self.kit, key, compile_one(self.kit.index, key, self.git))

    def _state(self, run: "_Run") -> SiteState:
        old, edit, index = self.previous, self.edit, self.kit.index
        same_pages = not run.first and not (edit.added or edit.removed) and run.key_set == set(old.contexts)
        pages_files = old.pages_files if same_pages else _pages_files(run.keys, index.objects)
        self.kept_files = (set(pages_files) | {u.files[0] for u in run.overview}) - run.made_overview
        if run.first:
            reach_index = ReachIndex.of({k: c.reach for k, c in run.contexts.items()})
        else:
            touched = (set(old.contexts) - run.key_set) | set(run.to_compile)
            reach_index = old.reach_index.updated(
                (k, old.contexts[k].reach if k in old.contexts else None,
                 run.contexts[k].reach if k in run.contexts else None) for k in sorted(touched))
        if run.first or self.objects_made or edit.removed:
            linked_from: dict[str, set[str]] = {}
            for uri, paths in run.links.items():
                for path in paths:
                    linked_from.setdefault(path, set()).add(uri)
        else:
            linked_from = old.linked_from
        return SiteState(index=index, git=self.git, contexts=run.contexts, reach_index=reach_index,
                         standings=run.table, links=run.links, linked_from=linked_from,
                         diags_by_path=group_diagnostics(index.diagnostics), pages_files=pages_files)


@dataclass
class _Run:
    """One build's working values, passed from stage to stage."""

    first: bool
    keys: list[ContextKey]
    key_set: set[ContextKey]
    to_compile: list[ContextKey] = field(default_factory=list)
    #: None in a first build: every unit runs.
    changed_keys: set[Key] | None = None
    contexts: dict[ContextKey, ContextRecord] = field(default_factory=dict)
    digests: dict[ContextKey, AnswerDigest] = field(default_factory=dict)
    table: StandingTable = field(default_factory=StandingTable)
    changes: list = field(default_factory=list)
    answer_changed: set[ContextKey] = field(default_factory=set)
    moved: set[str] = field(default_factory=set)
    links: dict[str, frozenset[str]] = field(default_factory=dict)
    overview: list = field(default_factory=list)
    made_overview: set[str] = field(default_factory=set)


def reached_contexts(keys: list[ContextKey], previous: SiteState, edit: Edit, git: GitInfo
                     ) -> list[ContextKey]:
    """The contexts whose answer an edit can change (the engine's declared reach, looked up
    in the last build's reach index), and every new context; all of them when the git
    state moved. In ``keys``' order."""
    if git != previous.git:
        return list(keys)
    affected: set[ContextKey] = set()
    for touch in edit.touches:
        affected |= previous.reach_index.affected(touch)
    if keys is context_keys_of(previous.index):  # the same contexts as last time: none new
        return sorted(affected & context_key_set(previous.index))
    return [k for k in keys if k in affected or k not in previous.contexts]


def site_files(kit: PageKit, git: GitInfo, templates: Path, base_url: str | None = None,
               on_stage: Callable[[str, int], None] | None = None,
               on_step: Callable[[], None] | None = None) -> Iterator[tuple[str, bytes]]:
    """Every file of the site (a first build that keeps nothing)."""
    build = SiteBuild(kit, git, templates, base_url, keep=False,
                      on_stage=on_stage or (lambda name, total: None), on_step=on_step or (lambda: None))
    return build.files()

