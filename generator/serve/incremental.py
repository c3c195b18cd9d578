"""``devcontext serve``'s builds: the site built once in full, then after each edit only
what the edit can change, ending with exactly the files a full build writes, byte for
byte — because it is the same build (:class:`generator.site.pipeline.SiteBuild`), told
what changed.

A rebuild is a sequence of stages, each in its own module:

``read``     only the changed paths, or the whole tree (:mod:`generator.rebuild.sources`);
``load``     only the changed files, then the layer: the last one with their parts put in
             (:mod:`generator.layer.reassemble`), and the index: the last one updated for
             the objects that differ (:mod:`generator.index_update`) — for the usual edit,
             one that moves no identity; otherwise both made again from every file;
``diff``     the objects added, removed or changed (:mod:`generator.rebuild.diff`; read off
             the index's update when there was one);
``compile``  the contexts whose answer the edit can reach — the engine declares what
             each answer depended on (:mod:`generator.engine.reach`), inverted in
             :mod:`generator.rebuild.reach_index` — and every new context;
``run``      the units (:mod:`generator.site.units`) that read a key the edit changed;
``write``    only files whose bytes changed; files no longer produced are deleted; the
             layer fingerprint is patched in place in every other compiled-context JSON.

Serve renders what is open first (:class:`OpenFirst`): before any context is compiled, an
open object page the edit remakes is made *provisionally* — the new object, its standings
as the last build left them, marked so — and announced; then the open pages of the
contexts the edit reaches are made and announced; once the standings are done, the final
object page is made first of the object pages and announced again. Until the files are written,
the rebuild's :class:`~generator.serve.catchup.Catchup` answers for every file still
pending (:meth:`IncrementalBuilder.pending`), so a page requested meanwhile is made on
demand rather than served stale. A newer edit arriving meanwhile (``superseded``) stops
the rebuild before it writes anything; its paths stay pending and the next rebuild takes
them with the new ones.

No compiled answer is held between builds (a large layer's take over 13 GB): each context
keeps its record (:class:`generator.site.compiled.ContextRecord`). The property test in
``tests/serve/test_incremental.py`` checks the result against full builds after random
edits; ``tests/engine/test_reach.py`` the engine's declared reach.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

from ..rebuild.diff import changed_objects, diagnostic_key, within
from ..rebuild.keys import context_key_set, context_keys_of
from ..rebuild.sources import Sources, load_all, load_changes, read_all, read_changes
from ..engine.compile import GitInfo
from ..engine.reach import touch_of
from ..index import Index, build_index
from ..layer.limits import DEFAULT_LIMITS, Limits
from ..layer.loader import LayerSetup
from ..site import urls
from ..site.build import Progress
from ..site.markdown import MarkdownRenderer
from ..query.crossref import DEFAULT_DEPTH as XREF_DEPTH
from ..site.pages.diagnostics import diagnostics_by_path
from ..site.pages.kit import PageKit
from ..site.pages.object import object_files
from ..site.compiled import context_job
from ..site.pipeline import Edit, SiteBuild, SiteState, reached_contexts
from ..site.rowcache import RowCache
from ..site.templating import TEMPLATES_DIR, make_environment
from ..workers import heap_after_build, heap_before_build
from .catchup import Catchup, context_files_of
from .output import OutputTree

__all__ = ["IncrementalBuilder", "BuildReport", "Snapshot", "LoadGuard", "OpenFirst"]

#: Serve's hook into an edit, called once its changed files are loaded and before anything
#: is compiled or written: ``guard(changed_paths, setup, loads, problems, new_setup,
#: new_loads, new_problems)`` (before and after the edit). Raising refuses the edit as any
#: failed rebuild: the last good site and state stay, the paths stay pending.
LoadGuard = Callable[[set, LayerSetup, Mapping, list, LayerSetup, Mapping, list], None]

@dataclass(frozen=True)
class OpenFirst:
    """What serve tells a rebuild about the browser: the pages open now (site-relative),
    whom to tell when some of them are made (before the rest of the site is), and whether
    a newer edit is waiting (the rebuild then stops before writing and keeps its paths)."""

    open_pages: Callable[[], set[str]] = lambda: set()
    on_open: Callable[[list[str]], None] = lambda rels: None
    superseded: Callable[[], bool] = lambda: False


class _Superseded(Exception):
    """A newer edit arrived during the rebuild."""


@dataclass(frozen=True)
class Snapshot:
    """The last good build: what the live API answers from."""

    index: Index
    git: GitInfo
    build: int


@dataclass
class BuildReport:
    build: int
    mode: str  # "full" | "incremental" | "unchanged" | "superseded"
    seconds: float
    changed_paths: list[str] = field(default_factory=list)
    objects_changed: int = 0
    contexts_compiled: int = 0
    contexts_changed: int = 0
    objects_rendered: int = 0
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    patched: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    #: Open pages made before the rest of the site, and seconds from the start to then.
    opened: list[str] = field(default_factory=list)
    open_seconds: float | None = None

    @property
    def changed(self) -> bool:
        return self.mode == "full" or bool(self.written or self.deleted or self.patched)

    def summary(self) -> str:
        if self.mode == "full":
            return (f"built {len(self.written):,} files, {self.contexts_compiled:,} contexts in "
                    f"{self.seconds:.2f}s")
        if self.mode == "unchanged":
            return f"nothing to rebuild ({self.seconds:.2f}s)"
        if self.mode == "superseded":
            return f"rebuild stopped for a newer edit ({self.seconds:.2f}s)"
        return (f"rebuilt in {self.seconds:.2f}s: {self.objects_changed:,} objects changed, "
                f"{self.contexts_compiled:,} contexts recompiled ({self.contexts_changed:,} "
                f"changed), {len(self.written):,} files written, {len(self.deleted):,} deleted, "
                f"{self.patched:,} fingerprints moved")


@dataclass(frozen=True)
class BuildState:
    """What the last good build leaves: the sources as read and loaded, and the site's."""

    sources: Sources
    site: SiteState

    @property
    def setup(self):
        return self.sources.setup

    @property
    def layer(self):
        return self.sources.layer

    @property
    def index(self) -> Index:
        return self.site.index


class IncrementalBuilder:
    """Builds the site once in full, then after each edit only what the edit affects.

    ``rebuild(paths, templates=...)`` takes repository-relative paths that changed (files
    created, modified, deleted or moved, as a watcher reports them) and template-relative
    names under the templates directory; ``full_read=True`` re-reads the whole tree. It
    raises on failure (a template error, no manifest) and leaves the last good site and
    state alone; the paths it was given stay pending for the next call.
    """

    def __init__(
        self,
        root: Path,
        out: Path,
        *,
        label: str = "repository",
        templates: Path | None = None,
        base_url: str | None = None,
        git: Callable[[], GitInfo] | None = None,
        exclude: Iterable[Path] = (),
        progress: Progress | None = None,
        limits: Limits = DEFAULT_LIMITS,
        guard: "LoadGuard | None" = None,
    ) -> None:
        self.root = Path(root)
        self.limits = limits
        self.guard = guard
        self.out = Path(out)
        self.label = label
        self.templates = Path(templates) if templates is not None else TEMPLATES_DIR
        self.base_url = base_url
        self.read_git = git or (lambda: GitInfo())
        self.exclude = [self.out, *[Path(p) for p in exclude]]
        self.progress = progress or Progress()
        self.output = OutputTree(self.out)
        #: The builder's caches, held here and nowhere else: parsed files, the Jinja
        #: environment, Markdown, and the rendered rows of the long files.
        self.parse_cache: dict = {}
        self.env = make_environment(self.templates)
        self.md = MarkdownRenderer()
        self.rows = RowCache()
        self.state: BuildState | None = None
        self.snapshot: Snapshot | None = None
        self.builds = 0
        self._pending_paths: set[str] = set()
        self._pending_templates: set[str] = set()
        self._pending_full_read = False
        self._dirty = True
        #: The running rebuild's pending files (None between rebuilds).
        self.catchup: Catchup | None = None

    def pending(self, rel: str) -> bytes | None:
        """The bytes the site is about to hold at ``rel`` while a rebuild runs (made on
        demand), or None when the file on disk is current (the HTTP server asks)."""
        catchup = self.catchup
        return None if catchup is None else catchup.page(rel)

    def rebuild(self, paths: Iterable[str] = (), *, templates: Iterable[str] = (),
                full_read: bool = False, open_first: OpenFirst | None = None) -> BuildReport:
        self._pending_paths.update(paths)
        self._pending_templates.update(templates)
        self._pending_full_read = self._pending_full_read or full_read
        started = time.perf_counter()
        if not self.out.is_dir():
            self._dirty = True  # the output went away: write it all again
        first = self.state is None or self._dirty
        heap_before_build(self.builds, first)
        try:
            report = self._build(started, first, open_first or OpenFirst())
        except _Superseded:
            heap_after_build()
            return BuildReport(build=self.builds, mode="superseded",
                               seconds=time.perf_counter() - started)
        heap_after_build()
        self._pending_paths.clear()
        self._pending_templates.clear()
        self._pending_full_read = False
        return report

    def _build(self, started: float, first: bool, open_first: OpenFirst) -> BuildReport:
        t: dict[str, float] = {}
        old = None if first else self.state
        loaded = self._read_and_load(old, t)
        if loaded is None:
            return BuildReport(build=self.builds, mode="unchanged",
                               seconds=time.perf_counter() - started, timings=t)
        sources, index, changed_paths, git = loaded
        edit = None if old is None else self._diff(old, index, changed_paths)
        kit = PageKit(index=index, env=self.env, md=self.md, label=self.label, rows=self.rows,
                      files=sources.files)
        opened = frozenset(open_first.open_pages()) if old is not None else frozenset()
        build = SiteBuild(kit, git, self.templates, self.base_url,
                          previous=None if old is None else old.site, edit=edit, keep=True,
                          written=lambda rel: rel in self.output.digests,
                          on_stage=self.progress.stage, on_step=self.progress.step,
                          first=opened)
        announced: list[str] = []
        if first:
            stats = self._write_all(build, index, t)
        else:
            stats = self._catch_up(build, old, index, edit, git, open_first, opened, announced,
                                   started, t)
        t.update(build.timings)
        if edit is not None and edit.removed:
            self.rows.keep_only(index.objects)
        assert build.state is not None
        self.state = BuildState(sources, build.state)
        self._dirty = False
        self.builds += 1
        self.snapshot = Snapshot(index, git, self.builds)
        return BuildReport(
            build=self.builds, mode="full" if first else "incremental",
            seconds=time.perf_counter() - started, changed_paths=sorted(changed_paths),
            objects_changed=len(edit.changed) if edit else 0, contexts_compiled=build.compiled,
            contexts_changed=build.answers_changed if edit else 0,
            objects_rendered=build.objects_made, written=stats.written, deleted=stats.deleted,
            patched=stats.patched, timings=t, opened=announced, open_seconds=t.get("open"))

    def _read_and_load(self, old: BuildState | None, t: dict[str, float]
                       ) -> tuple[Sources, Index, set[str], GitInfo] | None:
        """The sources and the index after the pending changes; None when nothing changed."""
        mark = time.perf_counter()
        if old is None:
            files, problems = read_all(self.root, self.exclude, self.limits)
            changed_paths: set[str] = set()
        else:
            files, problems, changed_paths = read_changes(
                self.root, old.sources, self._pending_paths, full_read=self._pending_full_read,
                exclude=self.exclude, limits=self.limits)
        t["read"] = time.perf_counter() - mark
        git = self.read_git()
        if old is None or self._pending_templates:
            self.env = make_environment(self.templates)
            self.rows = RowCache()  # rows rendered by the old templates
        problems_changed = old is not None and (
            sorted(problems, key=diagnostic_key) != sorted(old.sources.problems, key=diagnostic_key))
        if (old is not None and not changed_paths and not problems_changed and git == old.site.git
                and not self._pending_templates):
            return None
        mark = time.perf_counter()
        if old is None:
            self.parse_cache = {}
            sources = load_all(files, problems, self.parse_cache, self.limits)
            index = build_index(sources.layer)
        elif changed_paths or problems_changed:
            if len(self.parse_cache) > 4 * max(1, len(files)):
                self.parse_cache = {}
            sources = load_changes(old.sources, files, problems, changed_paths, self.parse_cache,
                                   self.limits)
            if self.guard is not None:  # serve: refuse an edit that leaves a file unloadable
                was = old.sources
                self.guard(changed_paths, was.setup, was.loads, was.problems, sources.setup,
                           sources.loads, problems)
            index = build_index(sources.layer, old.site.index)
        else:
            sources, index = old.sources, old.site.index
        t["load+index"] = time.perf_counter() - mark
        return sources, index, changed_paths, git

    def _diff(self, old: BuildState, index: Index, paths: set[str]) -> Edit:
        changed, added, removed = changed_objects(old.site.index, index)
        touches = [touch_of(obj) for uri in changed
                   for obj in (old.site.index.objects.get(uri), index.objects.get(uri)) if obj is not None]
        return Edit(changed, added, removed, touches, frozenset(self._pending_templates),
                    frozenset(paths))

    def _write_all(self, build: SiteBuild, index: Index, t: dict[str, float]):
        """A first build, streamed to the writer, which swaps the whole tree in at the end."""
        mark = time.perf_counter()
        fingerprinted = {urls.context_json(k.kind, k.identity) for k in context_keys_of(index)}
        stats = self.output.write_all(build.files(), index.fingerprint, fingerprinted)
        t["compile+run+write"] = time.perf_counter() - mark
        return stats

    def _catch_up(self, build: SiteBuild, old: BuildState, index: Index, edit: Edit,
                  git: GitInfo, open_first: OpenFirst, opened: frozenset[str],
                  announced: list[str], started: float, t: dict[str, float]):
        """A rebuild: the open pages the edit reaches first, then every file made (a failure
        leaves the site alone), then only what changed written. Pending files are answered
        for meanwhile (:class:`Catchup`)."""
        catchup = self._catchup_for(old, index, edit, git, build.kit.files)
        self.catchup = catchup
        ok = False
        try:
            mark = time.perf_counter()
            # open object pages first, provisional until their standings are done (one page
            # each, no context compiled), then the open pages of the contexts reached
            provisional = {rel for rel in sorted(opened) if catchup.make_provisional_first(rel)}
            self._announce(sorted(provisional), open_first, announced, started, t)
            first_keys = sorted({catchup.reached[rel] for rel in opened if rel in catchup.reached})
            for key in first_keys:
                catchup.make_first(key)
            self._announce([rel for rel in sorted(opened) if rel in catchup.made
                            and rel not in announced], open_first, announced, started, t)
            t["open first"] = time.perf_counter() - mark
            mark = time.perf_counter()
            made: dict[str, bytes] = {}
            stream = build.files()
            try:
                for rel, data in stream:
                    made[rel] = data
                    catchup.add(rel, data)
                    if rel in opened and (rel not in announced or rel in provisional):
                        provisional.discard(rel)  # the final page: announced again
                        self._announce([rel], open_first, announced, started, t)
                        if not provisional:
                            t.setdefault("open final", time.perf_counter() - started)
                    if open_first.superseded():
                        raise _Superseded()
            finally:
                stream.close()
            t["compile+run"] = time.perf_counter() - mark
            mark = time.perf_counter()
            try:
                stats = self.output.update(made, build.kept_files, index.fingerprint)
            except BaseException:
                self._dirty = True  # the disk may be half-written: next time, build in full
                raise
            t["write"] = time.perf_counter() - mark
            ok = True
            return stats
        finally:
            self.catchup = None
            catchup.finish(ok)

    @staticmethod
    def _announce(rels: list[str], open_first: OpenFirst, announced: list[str], started: float,
                  t: dict[str, float]) -> None:
        if not rels:
            return
        announced.extend(rel for rel in rels if rel not in announced)
        t.setdefault("open", time.perf_counter() - started)
        open_first.on_open(rels)

    def _catchup_for(self, old: BuildState, index: Index, edit: Edit, git: GitInfo,
                     files) -> Catchup:
        """The rebuild's pending files: those of the contexts it reaches (made on demand
        with a page kit of its own, so a request's thread shares no renderer with the
        rebuild), the gone contexts', and the rest as the edit's kind says."""
        keys = context_keys_of(index)
        reached = {rel: key for key in reached_contexts(keys, old.site, edit, git)
                   for rel in context_files_of(key)}
        if context_keys_of(old.index) is keys:  # the same contexts: none gone
            gone: frozenset[str] = frozenset()
        else:
            live = context_key_set(index)
            gone = frozenset(rel for key in old.site.contexts if key not in live
                             for rel in context_files_of(key))
        kit = PageKit(index=index, env=self.env, md=MarkdownRenderer(), label=self.label,
                      rows=RowCache(), files=files)
        job = context_job(kit, git, keep_json=True)
        recompiling = len({key for key in reached.values()})
        provisional = (_ProvisionalPages(kit, old.site, edit, keys, recompiling)
                       if recompiling and not edit.templates else None)
        return Catchup(reached=reached, make_context=lambda key: job(key).files, out_dir=self.out,
                       fingerprint_at=dict(self.output.fingerprint_at),
                       fingerprint=index.fingerprint.encode("utf-8"),
                       templates_changed=bool(edit.templates), paths_changed=bool(edit.paths),
                       gone=gone,
                       provisional_pages=provisional.pages if provisional else frozenset(),
                       make_provisional=provisional.page if provisional else lambda rel: b"")


class _ProvisionalPages:
    """The provisional pages of the objects an edit remakes from the object itself — each
    changed object and those within its cross-reference walk's depth, as
    :meth:`SiteBuild._changed_keys` finds them — made from the new index with each
    object's standings as the last build left them, marked as recompiling ``recompiling``
    contexts. Made only on demand: an open page first, or a request meanwhile."""

    def __init__(self, kit: PageKit, old: SiteState, edit: Edit, keys, recompiling: int) -> None:
        index = kit.index
        near = within(old.index, edit.changed, XREF_DEPTH) | within(index, edit.changed,
                                                                      XREF_DEPTH)
        self._by_page = {urls.object_page(uri): uri for uri in sorted(near)
                         if uri in index.objects}
        self.pages = frozenset(self._by_page)
        self._kit = kit
        self._standings = old.standings.view()
        self._context_of = {key.uri: key for key in keys}
        self._recompiling = recompiling
        self._diagnostics: dict | None = None

    def page(self, rel: str) -> bytes:
        kit = self._kit
        obj = kit.index.objects[self._by_page[rel]]
        if self._diagnostics is None:
            self._diagnostics = diagnostics_by_path(kit.index)
        files, _ = object_files(kit, obj, self._standings.get(obj.uri, ()),
                                self._context_of.get(obj.uri),
                                self._diagnostics.get(obj.provenance.path, []),
                                provisional=self._recompiling)
        return files[1][1]
