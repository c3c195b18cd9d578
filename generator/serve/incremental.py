"""Incremental rebuilds: after an edit, recompute only what the edit can change, and end
with exactly the files a full build (:func:`generator.site.build.build_site` written by
:func:`generator.writer.write_site`) would produce, byte for byte.

What an edit recomputes
-----------------------

``read``     only the changed paths (the reader's own rules, :func:`read_paths`); the whole
             tree when the manifest or the sources file changed, or a directory did.
``load``     only the changed files (:func:`load_file`, through the parse cache); all of them
             when the manifest's discovery (classes, sections, contract names) changed;
             then the layer is assembled from the per-file parts (:func:`assemble_layer`).
``index``    rebuilt (:func:`build_index`, pure); then compared with the previous one: the
             *changed objects* are those added, removed or different, the endpoints of every
             added or removed edge, the sources of every changed unresolved or external
             reference, and every issue whose derived state changed.
``compile``  the contexts the change can affect: those whose previous answer named a changed
             object anywhere (seed, selected, excluded — unresolved names included —,
             deduplicated, conflicts, commits, discovery ``via``); those whose scope paths
             (the seed's and its issue/milestone neighbours' ``scope``, a superset of the
             engine's effective scope) hold a changed object's path or a changed session's
             file; every context with a scope when a directory contract changed; every
             context when a policy or scope object changed, when a session of the current
             branch changed, or when git's branch or head moved; and every new context.
             They are compiled and their pages rendered in forked worker processes when
             there is enough of them (:func:`generator.workers.ordered_map`).
``render``   the recompiled contexts' pages (their JSON only when the answer changed beyond
             its fingerprint); the pages of objects within the cross-reference walk's depth
             of a changed object (the walk each page shows), of objects whose standing in
             some context changed, whose file's diagnostics changed, or whose Markdown links
             a path where objects came, went or changed; and the overview files that show
             something that changed (:meth:`SiteRenderer.overview_parts` says what each
             shows). A template change re-renders what uses the template, without
             compiling (answers are read back from their compressed JSON); a static asset
             change re-renders only the overview files (which copy the assets).
``write``    only files whose bytes changed; files no longer produced are deleted; the layer
             fingerprint is patched in place in every other compiled-context JSON file.

No compiled answer is held between builds (a large layer's take over 13 GB): each context
keeps a digest of its JSON without the fingerprint, the names it reached, its scope paths,
its dashboard contribution and its JSON compressed; the standings are kept by object.

Why that is enough: the engine reaches objects only by walking edges from the seed, by the
effective scope (objects under it, contracts, sessions touching it), and by governance that
applies everywhere. If no object of a previous answer changed, every node the walk
expanded has the same edges and data, so it reaches the same nodes; the scope is read from
the seed and its neighbours, which are in the answer; so only the scope-, contract-,
session- and governance-triggers above can bring something new in. The property test in
``tests/serve/test_incremental.py`` checks the result against full builds after random edits.
"""

from __future__ import annotations

import gc
import hashlib
import os
import posixpath
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from ..diagnostics import Diagnostic
from ..engine.compile import GitInfo
from ..engine.models import CompiledContext
from ..index import Index, build_index, normalise_path
from ..layer.discovery import MANIFEST_PATH
from ..layer.loader import (
    FileLoad,
    Layer,
    LayerSetup,
    assemble_layer,
    fingerprint_of,
    layer_setup,
    load_file,
)
from ..layer.limits import DEFAULT_LIMITS, Limits
from ..layer.reader import read_paths, read_source_tree
from ..layer.records import scalar_text
from ..model import LayerObject
from ..site import urls
from ..site.build import OVERVIEW_TEMPLATES, Progress, SiteInputs, SiteRenderer, excluded_uris
from ..site.contexts import AnswerDigest, ContextKey, Standing, context_keys, standings_of
from ..site.markdown import MarkdownRenderer
from ..site.render import TEMPLATES_DIR, make_environment
from ..site.rowcache import RowCache
from ..workers import ordered_map
from .output import OutputTree

__all__ = ["IncrementalBuilder", "BuildReport", "Snapshot", "LoadGuard"]

#: Serve's hook into an edit, called once its changed files are loaded and before anything
#: is compiled or written: ``guard(changed_paths, setup, loads, problems, new_setup,
#: new_loads, new_problems)`` (before and after the edit). Raising refuses the edit as any
#: failed rebuild: the last good site and state stay, the paths stay pending.
LoadGuard = Callable[[set, LayerSetup, Mapping, list, LayerSetup, Mapping, list], None]

try:  # object pages show the query engine's cross-reference walk (this deep)
    from ..query.crossref import DEFAULT_DEPTH as XREF_DEPTH
except ImportError:  # pragma: no cover - no query engine: no walk on the pages
    XREF_DEPTH = 0

#: Every this many builds the frozen heap is handed back to the collector, which then
#: frees any reference cycles the builds in between left behind (the rest is freed as
#: soon as it is dropped, frozen or not).
UNFREEZE_EVERY = 32

#: Kinds every context selects (governance applied to all work).
EVERYWHERE_KINDS = frozenset({"policy", "scope"})


@dataclass(frozen=True)
class Snapshot:
    """The last good build: what the live API answers from."""

    index: Index
    git: GitInfo
    build: int


@dataclass
class BuildReport:
    build: int
    mode: str  # "full" | "incremental" | "unchanged"
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

    @property
    def changed(self) -> bool:
        return self.mode == "full" or bool(self.written or self.deleted or self.patched)

    def summary(self) -> str:
        if self.mode == "full":
            return (f"built {len(self.written):,} files, {self.contexts_compiled:,} contexts in "
                    f"{self.seconds:.2f}s")
        if self.mode == "unchanged":
            return f"nothing to rebuild ({self.seconds:.2f}s)"
        return (f"rebuilt in {self.seconds:.2f}s: {self.objects_changed:,} objects changed, "
                f"{self.contexts_compiled:,} contexts recompiled ({self.contexts_changed:,} "
                f"changed), {len(self.written):,} files written, {len(self.deleted):,} deleted, "
                f"{self.patched:,} fingerprints moved")


class _Lazy(Sequence):
    """A sequence whose length is known and whose items are loaded when first read."""

    def __init__(self, n: int, load: Callable[[], Sequence]) -> None:
        self.n = n
        self.load = load

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        return self.load()[i]

    def __iter__(self):
        return iter(self.load())


class _AnswerView:
    """What the overview reads of a compiled answer (its budget and counts), without
    holding the answer: a large layer's answers take gigabytes. Anything else is read back
    from the answer's compressed JSON."""

    __slots__ = ("budget", "_n_selected", "_n_excluded", "_load")

    def __init__(self, digest: AnswerDigest, load: Callable[[], CompiledContext]) -> None:
        self.budget = digest.budget
        self._n_selected = len(digest.selected)
        self._n_excluded = len(digest.excluded)
        self._load = load

    @property
    def selected(self) -> Sequence:
        return _Lazy(self._n_selected, lambda: self._load().selected)

    @property
    def excluded(self) -> Sequence:
        return _Lazy(self._n_excluded, lambda: self._load().excluded)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._load(), name)


@dataclass
class _Context:
    view: _AnswerView
    #: The answer's canonical JSON, compressed (read back for a template change).
    blob: bytes
    #: Digest of the answer's JSON without its fingerprint: "did the answer change".
    digest: bytes
    #: Every URI (and name) the answer names, sorted.
    reach: tuple[str, ...]
    #: Scope paths the compile can have used (a superset of the effective scope).
    scope: tuple[str, ...]
    #: What it adds to the dashboard's "most excluded" count.
    excluded: tuple[str, ...]


@dataclass
class _State:
    files: dict[str, bytes]
    problems: list[Diagnostic]
    setup: LayerSetup
    loads: dict[str, FileLoad | None]
    layer: Layer
    index: Index
    git: GitInfo
    contexts: dict[ContextKey, _Context]
    reached_by: dict[str, set[ContextKey]]
    scope_index: dict[str, set[ContextKey]]
    #: uri -> context -> its standings there (the inverted answers).
    standings: dict[str, dict[ContextKey, tuple[Standing, ...]]]
    #: uri -> repository paths its page's Markdown links resolved; and the reverse.
    links: dict[str, frozenset[str]]
    linked_from: dict[str, set[str]]
    diags_by_path: dict[str, tuple[Diagnostic, ...]]
    #: uri -> how many contexts exclude it (the dashboard's count, kept up to date).
    excluded_counts: Counter
    #: uri -> how many standings it has (the kind pages' "reached" column).
    standing_counts: dict[str, int]
    #: Every context's and object's files (known after the first rebuild).
    pages_files: frozenset[str] | None = None


class _Rows(Sequence):
    """One object's standings in every context, sorted by context when first read (its
    length is known without sorting)."""

    def __init__(self, per: dict[ContextKey, tuple[Standing, ...]], n: int | None = None) -> None:
        self.per = per
        self.n = n
        self._rows: list[Standing] | None = None

    def _all(self) -> list[Standing]:
        if self._rows is None:
            self._rows = [s for key in sorted(self.per) for s in self.per[key]]
        return self._rows

    def __len__(self) -> int:
        if self.n is None:
            self.n = _count(self.per)
        return self.n

    def __getitem__(self, i):
        return self._all()[i]

    def __iter__(self):
        return iter(self._all())


def _count(per: dict[ContextKey, tuple[Standing, ...]]) -> int:
    return sum(len(rows) for rows in per.values())


class _Standings(Mapping):
    """The renderer's ``standings`` (uri -> rows sorted by context), built on demand."""

    def __init__(self, by_uri: dict[str, dict[ContextKey, tuple[Standing, ...]]],
                 counts: dict[str, int] | None = None) -> None:
        self.by_uri = by_uri
        self.counts = counts or {}

    def __getitem__(self, uri: str) -> _Rows:
        return _Rows(self.by_uri[uri], self.counts.get(uri))

    def __iter__(self):
        return iter(self.by_uri)

    def __len__(self) -> int:
        return len(self.by_uri)


class _Renderer(SiteRenderer):
    """The site renderer with the dashboard's exclusion count kept by the builder."""

    counts: Counter

    def excluded_counter(self) -> Counter:
        return Counter(self.counts)


def _answer_of(blob: bytes) -> CompiledContext:
    return CompiledContext.model_validate_json(zlib.decompress(blob))


def _rehydrate(ctx: "_Context", fingerprint: str) -> CompiledContext:
    """The answer a record was made from, under the current fingerprint (its other
    values are unchanged: the context was not affected since)."""
    answer = _answer_of(ctx.blob)
    if answer.fingerprint != fingerprint:
        answer = answer.model_copy(update={"fingerprint": fingerprint})
    return answer


def _digest(data: bytes, fingerprint: str) -> bytes:
    return hashlib.blake2b(data.replace(fingerprint.encode("utf-8"), b""), digest_size=16).digest()


def _answer_reach(answer: CompiledContext) -> tuple[str, ...]:
    names: set[str] = {s.uri for s in answer.seeds}
    for e in answer.selected:
        names.add(e.uri)
        for d in e.discovered_by:
            if d.via:
                names.add(d.via)
    names.update(x.uri for x in answer.excluded)
    for d in answer.deduplicated:
        names.add(d.kept)
        names.update(d.dropped)
    for c in answer.conflicts:
        names.add(c.current)
        names.add(c.against)
    names.update(c.named_by for c in answer.git.commits)
    return tuple(sorted(names))


def _scope_items(obj: LayerObject) -> list[str]:
    value = obj.fields.get("scope")
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    out = []
    for item in items:
        if isinstance(item, str):
            path = normalise_path(item)
            if path and not path.startswith("/") and ".." not in path.split("/"):
                out.append(path)
    return out


def _scope_superset(index: Index, uri: str) -> tuple[str, ...]:
    """The seed's and its issue/milestone neighbours' scope paths: every path the engine's
    effective scope (seed and depth-1 issues and milestones) can hold, and more."""
    objs = [index.objects[uri]]
    objs += [index.objects[e.target] for e in index.out_edges.get(uri, ())]
    objs += [index.objects[e.source] for e in index.in_edges.get(uri, ())]
    paths: set[str] = set()
    for obj in objs:
        if obj.kind in ("issue", "milestone"):
            paths.update(_scope_items(obj))
    return tuple(sorted(paths))


def _session_files(obj: LayerObject) -> list[str]:
    value = obj.fields.get("changed_files")
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    out = []
    for item in value:
        text = scalar_text(item)
        if text is not None and normalise_path(text):
            out.append(normalise_path(text))
    return out


def _ancestors(path: str) -> list[str]:
    """``a/b/c`` -> ``a/b/c``, ``a/b``, ``a``, ``""``."""
    out = [path]
    while path:
        path = posixpath.dirname(path)
        out.append(path)
    return out


def _context_files(key: ContextKey) -> tuple[str, str]:
    return urls.context_json(key.kind, key.identity), urls.context_page(key.kind, key.identity)


def _object_files(uri: str) -> tuple[str, str]:
    return urls.object_json(uri), urls.object_page(uri)


def _standings_one(key: ContextKey, answer: CompiledContext) -> dict[str, tuple[Standing, ...]]:
    return {uri: tuple(rows) for uri, rows in standings_of({key: answer}).items()}


def _group_diags(diagnostics: Iterable[Diagnostic]) -> dict[str, tuple[Diagnostic, ...]]:
    groups: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if d.path is not None:
            groups.setdefault(d.path, []).append(d)
    return {p: tuple(ds) for p, ds in groups.items()}


def _template_scope(names: Iterable[str]) -> tuple[bool, bool, bool]:
    """(contexts, objects, overview) to re-render after the named templates changed."""
    contexts = objects = overview = False
    for name in names:
        name = name.replace(os.sep, "/")
        if name.startswith("static/") or name in OVERVIEW_TEMPLATES:
            overview = True
        elif name == "context.html":
            contexts = overview = True
        elif name == "object.html":
            objects = overview = True
        else:  # base.html, macros.html, anything new: everything
            return True, True, True
    return contexts, objects, overview


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
        self.parse_cache: dict = {}
        self.env = make_environment(self.templates)
        self.md = MarkdownRenderer()
        self.rows = RowCache()
        self.state: _State | None = None
        self.snapshot: Snapshot | None = None
        self.builds = 0
        self._pending_paths: set[str] = set()
        self._pending_templates: set[str] = set()
        self._pending_full_read = False
        self._dirty = True

    # -- entry point -------------------------------------------------------------------

    def rebuild(self, paths: Iterable[str] = (), *, templates: Iterable[str] = (),
                full_read: bool = False) -> BuildReport:
        self._pending_paths.update(paths)
        self._pending_templates.update(templates)
        self._pending_full_read = self._pending_full_read or full_read
        started = time.perf_counter()
        if not self.out.is_dir():
            self._dirty = True  # the output went away: write it all again
        if self.state is None or self._dirty or self.builds % UNFREEZE_EVERY == 0:
            gc.unfreeze()  # let the collector see (and free) what earlier builds left
        if self.state is None or self._dirty:
            report = self._full_build(started)
        else:
            report = self._incremental(started)
        # The state a build leaves lives until the next edit, and most of it far longer:
        # frozen, the collector stops walking it at every allocation burst (on a large
        # layer that walk took longer than the rebuild's own work).
        gc.freeze()
        self._pending_paths.clear()
        self._pending_templates.clear()
        self._pending_full_read = False
        return report

    # -- the first build ---------------------------------------------------------------

    def _inputs(self, index: Index, git: GitInfo) -> SiteInputs:
        return SiteInputs(index=index, git=git, label=self.label, templates=self.templates,
                          base_url=self.base_url)

    def _full_build(self, started: float) -> BuildReport:
        t: dict[str, float] = {}
        mark = time.perf_counter()
        tree = read_source_tree(self.root, exclude=self.exclude, limits=self.limits)
        files, problems = tree.files, list(tree.problems)
        t["read"] = time.perf_counter() - mark
        mark = time.perf_counter()
        git = self.read_git()
        self.env = make_environment(self.templates)
        setup = layer_setup(files, limits=self.limits)
        self.parse_cache = {}
        loads = {p: load_file(setup, p, data, cache=self.parse_cache) for p, data in files.items()}
        layer = assemble_layer(setup, problems, (loads[p] for p in files),
                               fingerprint=fingerprint_of(files),
                               files={p: len(b) for p, b in files.items()})
        t["load"] = time.perf_counter() - mark
        mark = time.perf_counter()
        index = build_index(layer)
        t["index"] = time.perf_counter() - mark

        mark = time.perf_counter()
        keys = context_keys(index)
        self.rows = RowCache()
        renderer = self._renderer(index, git, Counter())
        renderer.context_of_uri = {k.uri: k for k in keys}
        contexts: dict[ContextKey, _Context] = {}
        standings: dict[str, dict[ContextKey, tuple[Standing, ...]]] = {}
        links: dict[str, frozenset[str]] = {}
        fingerprinted = {_context_files(k)[0] for k in keys}
        seconds = {"contexts": 0.0}
        standing_counts: dict[str, int] = {}

        def stream():
            # each context is compiled, written, and kept only as a small record (the
            # stream's order is build_site's: every context, every object, the overview)
            self.progress.stage("compiling and writing contexts", len(keys))
            for key, done in zip(keys, ordered_map(_context_job(renderer, index), keys)):
                seconds["contexts"] += done.seconds
                contexts[key] = done.record()
                renderer.counts.update(done.excluded)
                for uri, rows in done.standings.items():
                    standings.setdefault(uri, {})[key] = rows
                yield from done.files
                self.progress.step()
            renderer.note_pages(_context_files(k)[1] for k in keys)
            renderer.compiled = {k: c.view for k, c in contexts.items()}
            standing_counts.update({uri: _count(per) for uri, per in standings.items()})
            renderer.standings = _Standings(standings, standing_counts)
            self.progress.stage("writing object pages", len(index.objects))
            for uri in sorted(index.objects):
                renderer.path_queries = []
                yield from renderer.object_files(index.objects[uri])
                links[uri] = frozenset(normalise_path(p) for p in renderer.path_queries)
                renderer.path_queries = None
                self.progress.step()
            self.progress.stage("writing overview pages", 1)
            yield from renderer.overview_files()
            self.progress.step()

        stats = self.output.write_all(stream(), index.fingerprint, fingerprinted)
        # with workers, the contexts' own time (summed over them) overlaps the rest
        t["contexts: compile+render, summed"] = seconds["contexts"]
        t["contexts, objects, overview, write"] = time.perf_counter() - mark

        self.state = _State(
            files=files, problems=problems, setup=setup, loads=loads, layer=layer, index=index,
            git=git, contexts=contexts, reached_by=_reverse(contexts), scope_index=_scope_index(contexts),
            standings=standings, links=links, linked_from=_reverse_links(links),
            diags_by_path=_group_diags(index.diagnostics), excluded_counts=Counter(renderer.counts),
            standing_counts=standing_counts)
        self._dirty = False
        self.builds += 1
        self.snapshot = Snapshot(index, git, self.builds)
        return BuildReport(build=self.builds, mode="full", seconds=time.perf_counter() - started,
                           contexts_compiled=len(keys), objects_rendered=len(index.objects),
                           written=stats.written, timings=t)

    def _renderer(self, index: Index, git: GitInfo, counts: Counter) -> _Renderer:
        renderer = _Renderer(self._inputs(index, git), env=self.env, md=self.md, rows=self.rows)
        renderer.counts = counts
        return renderer

    # -- after an edit -----------------------------------------------------------------

    def _read(self, old: _State) -> tuple[dict[str, bytes], list[Diagnostic], set[str]]:
        """The new files and problems, and the paths whose bytes changed."""
        paths = {p.replace(os.sep, "/").strip("/") for p in self._pending_paths}
        paths.discard("")
        result = None
        # A path that held files is a directory that went (moved or deleted): read it all.
        gone_dirs = [p for p in paths if p not in old.files
                     and any(k.startswith(p + "/") for k in old.files)]
        if not self._pending_full_read and paths and not gone_dirs:
            result = read_paths(self.root, paths, manifest=old.setup.manifest,
                                classes=old.setup.classes, exclude=self.exclude,
                                limits=self.limits)
        if not self._pending_full_read and not paths:
            return old.files, old.problems, set()
        if result is None:
            tree = read_source_tree(self.root, exclude=self.exclude, limits=self.limits)
            files, problems = tree.files, list(tree.problems)
            changed = {p for p in files.keys() | old.files.keys() if files.get(p) != old.files.get(p)}
            return files, problems, changed
        reread, found = result
        changed = {p for p, data in reread.items() if data != old.files.get(p)}
        problems = [d for d in old.problems if d.path not in reread] + found
        if not changed:
            return old.files, problems, changed
        files = dict(old.files)
        added_or_removed = False
        for p in changed:
            data = reread[p]
            if data is None:
                del files[p]
                added_or_removed = True
            else:
                added_or_removed = added_or_removed or p not in files
                files[p] = data
        if added_or_removed:
            files = dict(sorted(files.items()))
        return files, problems, changed

    def _incremental(self, started: float) -> BuildReport:
        old = self.state
        assert old is not None
        t: dict[str, float] = {}
        mark = time.perf_counter()
        files, problems, changed_paths = self._read(old)
        t["read"] = time.perf_counter() - mark
        git = self.read_git()
        ctx_tpl, obj_tpl, overview_tpl = _template_scope(self._pending_templates)
        if self._pending_templates:
            self.env = make_environment(self.templates)
            self.rows = RowCache()  # rows rendered by the old templates
        problems_changed = sorted(problems, key=_diag_key) != sorted(old.problems, key=_diag_key)
        if (not changed_paths and not problems_changed and git == old.git
                and not self._pending_templates):
            return BuildReport(build=self.builds, mode="unchanged",
                               seconds=time.perf_counter() - started, timings=t)

        # -- load --
        mark = time.perf_counter()
        if changed_paths or problems_changed:
            layer, setup, loads = self._load(old, files, problems, changed_paths)
            if self.guard is not None:  # serve: refuse an edit that leaves a file unloadable
                self.guard(changed_paths, old.setup, old.loads, old.problems, setup, loads, problems)
            index = build_index(layer, old.index)
        else:
            layer, setup, loads, index = old.layer, old.setup, old.loads, old.index
        t["load+index"] = time.perf_counter() - mark

        # -- what changed --
        mark = time.perf_counter()
        changed, added, removed = _changed_objects(old.index, index)
        everywhere = git != old.git
        contract = False
        paths_touched: set[str] = set()
        for uri in changed:
            for obj in (old.index.objects.get(uri), index.objects.get(uri)):
                if obj is None:
                    continue
                paths_touched.add(obj.provenance.path)
                if obj.kind in EVERYWHERE_KINDS:
                    everywhere = True
                elif obj.kind == "context":
                    contract = True
                elif obj.kind == "session":
                    branch = obj.fields.get("branch")
                    if git.branch and isinstance(branch, str) and branch == git.branch:
                        everywhere = True
                    paths_touched.update(_session_files(obj))
        keys = context_keys(index)
        key_set = set(keys)
        if everywhere:
            to_compile = list(keys)
        else:
            affected: set[ContextKey] = set()
            for uri in changed:
                affected |= old.reached_by.get(uri, set())
            for path in paths_touched:
                for ancestor in _ancestors(path):
                    affected |= old.scope_index.get(ancestor, set())
            if contract:
                affected |= {k for k, c in old.contexts.items() if c.scope}
            to_compile = [k for k in keys if k in affected or k not in old.contexts]
        t["plan"] = time.perf_counter() - mark

        # -- compile and render the affected contexts (in worker processes when many) --
        mark = time.perf_counter()
        counts = Counter(old.excluded_counts)
        renderer = self._renderer(index, git, counts)
        renderer.context_of_uri = {k.uri: k for k in keys}
        answers = dict(zip(to_compile, ordered_map(_context_job(renderer, index), to_compile)))
        t["contexts: compile+render, summed"] = sum(done.seconds for done in answers.values())
        t["contexts: compile+render"] = time.perf_counter() - mark
        mark = time.perf_counter()

        # -- keep a small record of each answer; re-render the others a template needs --
        contexts = dict(old.contexts)
        for key in set(old.contexts) - key_set:
            del contexts[key]
        out: dict[str, bytes] = {}
        answer_changed: set[ContextKey] = set()
        for key in (keys if ctx_tpl else sorted(answers)):
            if key in answers:
                rendered = answers[key].files
                record = answers[key].record()
                previous = old.contexts.get(key)
                if previous is None or previous.digest != record.digest:
                    answer_changed.add(key)
                contexts[key] = record
            else:
                answer = _rehydrate(old.contexts[key], index.fingerprint)
                rendered = list(renderer.context_files(key, answer))
            for rel, data in rendered:
                if rel == rendered[0][0] and key not in answer_changed and key in old.contexts:
                    continue  # only the fingerprint moved: patched in place
                out[rel] = data

        # -- standings and the dashboard's count, for the answers that changed --
        standings = dict(old.standings)
        standings_changed: set[str] = set()
        for key in (set(old.contexts) - key_set) | answer_changed:
            before: dict[str, tuple[Standing, ...]] = {}
            if key in old.contexts:
                for uri in old.contexts[key].reach:
                    rows = old.standings.get(uri, {}).get(key)
                    if rows is not None:
                        before[uri] = rows
                counts.subtract(old.contexts[key].excluded)
            after = answers[key].standings if key in answers else {}
            if key in answers:
                counts.update(contexts[key].excluded)
            for uri in before.keys() | after.keys():
                if before.get(uri) == after.get(uri):
                    continue
                standings_changed.add(uri)
                per = dict(standings.get(uri, {}))
                if uri in after:
                    per[key] = after[uri]
                else:
                    per.pop(key, None)
                if per:
                    standings[uri] = per
                else:
                    standings.pop(uri, None)
        for uri in [u for u, n in counts.items() if n <= 0]:
            del counts[uri]
        del answers
        renderer.compiled = {k: c.view for k, c in contexts.items()}
        standing_counts = dict(old.standing_counts)
        for uri in standings_changed:
            if uri in standings:
                standing_counts[uri] = _count(standings[uri])
            else:
                standing_counts.pop(uri, None)
        renderer.standings = _Standings(standings, standing_counts)

        diags_by_path = _group_diags(index.diagnostics)
        diag_paths = {p for p in diags_by_path.keys() | old.diags_by_path.keys()
                      if diags_by_path.get(p) != old.diags_by_path.get(p)}
        if obj_tpl:
            render_objects = set(index.objects)
        else:
            # an object page shows its cross-reference walk: every object within the walk's
            # depth of a changed one (before or after the edit) shows something new
            near = _within(old.index, changed, XREF_DEPTH) | _within(index, changed, XREF_DEPTH)
            render_objects = (near | standings_changed) & index.objects.keys()
            for path in diag_paths:
                render_objects.update(o.uri for o in index.at_path(path))
            for path in paths_touched:
                render_objects.update(old.linked_from.get(path, ()))
            render_objects &= index.objects.keys()
        links = dict(old.links)
        for uri in removed:
            links.pop(uri, None)
        for uri in sorted(render_objects):
            renderer.path_queries = []
            for rel, data in renderer.object_files(index.objects[uri]):
                out[rel] = data
            links[uri] = frozenset(normalise_path(p) for p in renderer.path_queries)
            renderer.path_queries = None
        renderer.note_pages_later(lambda: [_context_files(k)[1] for k in keys]
                                  + [_object_files(u)[1] for u in sorted(index.objects)])
        # the overview files: render those that show something that changed, keep the rest
        kinds_changed: set[str] = set()
        for uri in changed:
            for obj in (old.index.objects.get(uri), index.objects.get(uri)):
                if obj is not None:
                    kinds_changed.add(obj.kind)
        for uri in standings_changed:
            if standing_counts.get(uri) != old.standing_counts.get(uri) and uri in index.objects:
                kinds_changed.add(index.objects[uri].kind)
        pages_changed = bool(added or removed) or key_set != set(old.contexts)
        overview_rels = []
        overview_seconds: dict[str, float] = {}
        for rel, shows, make in renderer.overview_parts():
            overview_rels.append(rel)
            if shows == "layer" or self._pending_templates or rel not in self.output.digests:
                render = True
            elif shows == "objects":
                render = bool(changed)
            elif shows == "plan":
                render = bool(kinds_changed & {"issue", "milestone"}) or pages_changed
            elif shows.startswith("kind:"):
                render = shows[len("kind:"):] in kinds_changed or pages_changed
            elif shows == "pages":
                render = pages_changed
            elif shows == "templates":
                render = False
            else:  # something new: render it
                render = True
            if render:
                t0 = time.perf_counter()
                out[rel] = make()
                overview_seconds[rel] = time.perf_counter() - t0
        t["render"] = time.perf_counter() - mark
        t["render: overview"] = sum(overview_seconds.values())
        for rel, seconds in sorted(overview_seconds.items(), key=lambda kv: -kv[1])[:3]:
            t[f"render: {rel}"] = seconds

        # -- write --
        mark = time.perf_counter()
        if old.pages_files is not None and not (added or removed) and key_set == set(old.contexts):
            pages_files = old.pages_files  # the same contexts and objects: the same files
        else:
            found: set[str] = set()
            for key in keys:
                found.update(_context_files(key))
            for uri in index.objects:
                found.update(_object_files(uri))
            pages_files = frozenset(found)
        keep = (pages_files | set(overview_rels)) - out.keys()
        try:
            stats = self.output.update(out, keep, index.fingerprint)
        except BaseException:
            self._dirty = True  # the disk may be half-written: next time, build in full
            raise
        t["write"] = time.perf_counter() - mark
        if removed:
            self.rows.keep_only(index.objects)

        reached_by = old.reached_by
        scope_index = old.scope_index
        recompiled = {k: contexts[k] for k in to_compile}
        if recompiled or len(contexts) != len(old.contexts):
            reached_by, scope_index = _update_reverse(old, contexts, recompiled)
        self.state = _State(
            files=files, problems=problems, setup=setup, loads=loads, layer=layer, index=index,
            git=git, contexts=contexts, reached_by=reached_by, scope_index=scope_index,
            standings=standings, links=links, linked_from=_reverse_links(links)
            if render_objects or removed else old.linked_from, diags_by_path=diags_by_path,
            excluded_counts=counts, standing_counts=standing_counts, pages_files=pages_files)
        self.builds += 1
        self.snapshot = Snapshot(index, git, self.builds)
        return BuildReport(
            build=self.builds, mode="incremental", seconds=time.perf_counter() - started,
            changed_paths=sorted(changed_paths), objects_changed=len(changed),
            contexts_compiled=len(to_compile), contexts_changed=len(answer_changed),
            objects_rendered=len(render_objects), written=stats.written, deleted=stats.deleted,
            patched=stats.patched, timings=t)

    def _load(self, old: _State, files: dict[str, bytes], problems: list[Diagnostic],
              changed_paths: set[str]) -> tuple[Layer, LayerSetup, dict[str, FileLoad | None]]:
        setup = old.setup
        added_or_removed = any((p in files) != (p in old.files) for p in changed_paths)
        if added_or_removed or MANIFEST_PATH in changed_paths or old.setup.src_path in changed_paths:
            setup = layer_setup(files, limits=self.limits)
        if len(self.parse_cache) > 4 * max(1, len(files)):
            self.parse_cache = {}
        if setup.discovery_key() != old.setup.discovery_key():
            loads = {p: load_file(setup, p, data, cache=self.parse_cache) for p, data in files.items()}
        else:
            loads = dict(old.loads)
            for p in changed_paths:
                if p in files:
                    loads[p] = load_file(setup, p, files[p], cache=self.parse_cache)
                else:
                    loads.pop(p, None)
        layer = assemble_layer(setup, problems, (loads[p] for p in files),
                               fingerprint=fingerprint_of(files),
                               files={p: len(b) for p, b in files.items()})
        return layer, setup, loads


@dataclass(frozen=True)
class _Compiled:
    """One context compiled and rendered (in a worker process when there are many), and
    what the builder keeps of it: everything but the answer itself."""

    files: list[tuple[str, bytes]]
    #: The answer's budget and entry counts, all the overview reads of it.
    counts: AnswerDigest
    blob: bytes
    digest: bytes
    reach: tuple[str, ...]
    scope: tuple[str, ...]
    excluded: tuple[str, ...]
    standings: dict[str, tuple[Standing, ...]]
    seconds: float

    def record(self) -> _Context:
        blob = self.blob
        return _Context(view=_AnswerView(self.counts, lambda: _answer_of(blob)),
                        blob=blob, digest=self.digest, reach=self.reach, scope=self.scope,
                        excluded=self.excluded)


def _context_job(renderer: SiteRenderer, index: Index) -> Callable[[ContextKey], _Compiled]:
    """The job of the worker map: the renderer's, and what the builder keeps of the answer
    (the builder notes every page itself, so the pages handed back are dropped)."""
    def job(key: ContextKey) -> _Compiled:
        t0 = time.perf_counter()
        answer, files, _pages = renderer.compile_and_render(key)
        seconds = time.perf_counter() - t0  # compile and render
        json_bytes = files[0][1]
        return _Compiled(
            files=files, counts=AnswerDigest.of(answer), blob=zlib.compress(json_bytes, 1),
            digest=_digest(json_bytes, answer.fingerprint), reach=_answer_reach(answer),
            scope=_scope_superset(index, key.uri), excluded=tuple(excluded_uris(answer)),
            standings=_standings_one(key, answer), seconds=seconds)

    return job


def _diag_key(d: Diagnostic) -> tuple:
    return (d.path or "", d.line or 0, d.column or 0, d.severity, d.code, d.message)


def _changed_objects(old: Index, new: Index) -> tuple[set[str], set[str], set[str]]:
    """URIs whose object or index record changed; and those added and removed."""
    added = new.objects.keys() - old.objects.keys()
    removed = old.objects.keys() - new.objects.keys()
    changed = set(added) | set(removed)
    for uri, obj in new.objects.items():
        before = old.objects.get(uri)
        if before is not None and before is not obj and before != obj:
            changed.add(uri)
    if old.edges != new.edges:
        a = {(e.source, e.target, e.kind, e.field) for e in old.edges}
        b = {(e.source, e.target, e.kind, e.field) for e in new.edges}
        for source, target, _, _ in a ^ b:
            changed.add(source)
            changed.add(target)
    if old.unresolved != new.unresolved:
        changed.update(u.source for u in set(old.unresolved) ^ set(new.unresolved))
    if old.externals != new.externals:
        changed.update(x.source for x in set(old.externals) ^ set(new.externals))
    for uri in old.issue_states.keys() | new.issue_states.keys():
        if old.issue_states.get(uri) != new.issue_states.get(uri):
            changed.add(uri)
    return changed, added, removed


def _within(index: Index, seeds: Iterable[str], depth: int) -> set[str]:
    """Every object at most ``depth`` typed edges (either direction) from a seed."""
    seen = {u for u in seeds if u in index.objects}
    frontier = list(seen)
    for _ in range(depth):
        step = []
        for uri in frontier:
            for e in index.out_edges.get(uri, ()):
                if e.target not in seen:
                    seen.add(e.target)
                    step.append(e.target)
            for e in index.in_edges.get(uri, ()):
                if e.source not in seen:
                    seen.add(e.source)
                    step.append(e.source)
        frontier = step
    return seen


def _reverse(contexts: dict[ContextKey, _Context]) -> dict[str, set[ContextKey]]:
    out: dict[str, set[ContextKey]] = {}
    for key, ctx in contexts.items():
        for uri in ctx.reach:
            out.setdefault(uri, set()).add(key)
    return out


def _scope_index(contexts: dict[ContextKey, _Context]) -> dict[str, set[ContextKey]]:
    out: dict[str, set[ContextKey]] = {}
    for key, ctx in contexts.items():
        for path in ctx.scope:
            out.setdefault(path, set()).add(key)
    return out


def _update_reverse(old: _State, contexts: dict[ContextKey, _Context],
                    recompiled: dict[ContextKey, _Context]
                    ) -> tuple[dict[str, set[ContextKey]], dict[str, set[ContextKey]]]:
    """The reverse maps after ``recompiled`` replaced (and removals dropped) old contexts,
    copying only the sets that change (the old state stays as it was)."""
    reached_by = dict(old.reached_by)
    scope_index = dict(old.scope_index)
    gone = set(old.contexts) - set(contexts)
    touched = gone | set(recompiled)
    for key in touched:
        before = old.contexts.get(key)
        after = contexts.get(key)
        for mapping, b, a in ((reached_by, frozenset(before.reach) if before else frozenset(),
                               frozenset(after.reach) if after else frozenset()),
                              (scope_index, frozenset(before.scope) if before else frozenset(),
                               frozenset(after.scope) if after else frozenset())):
            for name in b - a:
                keys = set(mapping.get(name, ()))
                keys.discard(key)
                if keys:
                    mapping[name] = keys
                else:
                    mapping.pop(name, None)
            for name in a - b:
                keys = set(mapping.get(name, ()))
                keys.add(key)
                mapping[name] = keys
    return reached_by, scope_index


def _reverse_links(links: dict[str, frozenset[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for uri, paths in links.items():
        for path in paths:
            out.setdefault(path, set()).add(uri)
    return out

