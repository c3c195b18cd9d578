"""Build the site: compile every context, then render every page and JSON file (pure:
the result is a stream of ``(relative path, bytes)``; :mod:`generator.writer` writes it).

Pages: the dashboard, a context page per issue and milestone, an object page per object,
the plan, diagnostics, search, 404, sitemap. JSON under ``api/v1/``.
"""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..diagnostics import Diagnostic, count_by_severity
from ..engine.compile import GitInfo
from ..engine.models import TIER_ORDER, CompiledContext
from ..engine.policy import DEFAULT_BUDGET_TOKENS, DEFAULT_FLOOR, DEFAULT_MAX_DEPTH, tier_rules
from ..index import Index
from ..jsonio import canonical_json, canonical_json_text, canonical_plain_json
from ..model import LayerObject
from ..operations.http import openapi_bytes
from ..operations.openapi import OPENAPI_FILE
from ..query.crossref import cross_ref_query
from ..states import STATES
from ..workers import ordered_map
from . import urls
from .api import (
    SCHEMAS,
    ContextSummary,
    EdgeRecord,
    ObjectRecord,
    ObjectSummary,
    SiteIndex,
    StandingRecord,
    UnresolvedRecord,
    schema_of,
)
from .contexts import AnswerDigest, ContextKey, Standing, compile_one, context_keys, standings_of
from .markdown import MarkdownRenderer
from .render import TEMPLATES_DIR, make_environment
from .rowcache import RowCache
from .svg import STATE_COLORS, TIER_COLORS, budget_bar, plan_graph

__all__ = ["SiteInputs", "Progress", "SiteRenderer", "build_site", "STATIC_FILES", "OVERVIEW_TEMPLATES"]

#: Static assets copied from ``templates/static/`` to ``site/static/``.
STATIC_FILES = ("style.css", "search.js", "favicon.svg")

#: Templates only the overview pages use (a change to one re-renders only those).
OVERVIEW_TEMPLATES = ("dashboard.html", "plan.html", "diagnostics.html", "search.html", "404.html",
                      "kind.html", "rows.html")

#: Object pages list at most this many standings; the JSON carries all of them.
MAX_STANDINGS_SHOWN = 200


@dataclass
class Progress:
    """Callbacks a terminal can draw a progress bar from; all optional."""

    stage: Callable[[str, int], None] = lambda name, total: None
    step: Callable[[], None] = lambda: None


@dataclass
class SiteInputs:
    index: Index
    git: GitInfo = field(default_factory=GitInfo)
    #: How to name the repository on pages (never an absolute path).
    label: str = "repository"
    templates: Path = TEMPLATES_DIR
    base_url: str | None = None


@dataclass(frozen=True)
class CompiledFiles:
    """What a full build keeps of one compiled context (the answer itself is dropped)."""

    files: list[tuple[str, bytes]]
    pages: list[str]
    digest: AnswerDigest
    standings: dict[str, tuple[Standing, ...]]
    excluded: tuple[str, ...]


class SiteRenderer:
    """Renders the site's files. :meth:`build` is the whole site in its fixed order; the
    pieces (:meth:`context_files`, :meth:`object_files`, :meth:`overview_files`) let an
    incremental rebuild render only what an edit can change, given the compiled answers
    (:meth:`use_compiled`). Pure apart from reading the templates and static assets."""

    def __init__(self, inputs: SiteInputs, progress: Progress | None = None, *,
                 env=None, md: MarkdownRenderer | None = None,
                 rows: RowCache | None = None) -> None:
        self.inputs = inputs
        self.index = inputs.index
        self.progress = progress or Progress()
        self.env = env if env is not None else make_environment(inputs.templates)
        self.md = md if md is not None else MarkdownRenderer()
        #: Rendered rows of the site-wide JSON files and the long list pages; a rebuild
        #: passes the previous build's.
        self.rows = rows if rows is not None else RowCache()
        self.compiled: dict[ContextKey, CompiledContext] = {}
        #: Set by a streaming full build, which keeps no answers to count from.
        self._excluded_counts: Counter[str] | None = None
        self.standings: dict[str, list[Standing]] = {}
        self.context_of_uri: dict[str, ContextKey] = {}
        #: Every page rendered (or noted with :meth:`note_pages`): the sitemap lists them.
        self.pages: list[str] = []
        self._later_pages: list[Callable[[], Iterable[str]]] = []
        #: When a list, every repository path an object's Markdown links resolve is
        #: appended to it (an incremental rebuild re-renders the page when one changes).
        self.path_queries: list[str] | None = None

    def use_compiled(self, compiled: dict[ContextKey, CompiledContext],
                     standings: dict[str, list[Standing]] | None = None) -> None:
        """The answers the pages show; ``standings`` (inverted from them) when known."""
        self.compiled = compiled
        self.standings = standings_of(compiled) if standings is None else standings
        self.context_of_uri = {k.uri: k for k in compiled}

    def note_pages(self, pages) -> None:
        """Pages rendered elsewhere (an earlier build) that the sitemap lists."""
        self.pages.extend(pages)

    def note_pages_later(self, pages: Callable[[], Iterable[str]]) -> None:
        """Pages rendered elsewhere, named only if the sitemap is rendered."""
        self._later_pages.append(pages)

    # -- links -----------------------------------------------------------------------

    def object_href(self, page: str, uri: str) -> str | None:
        if uri in self.index.objects:
            return urls.relative(page, urls.object_page(uri))
        return None

    def context_href(self, page: str, key: ContextKey, anchor: str | None = None) -> str:
        href = urls.relative(page, urls.context_page(key.kind, key.identity))
        return f"{href}#{anchor}" if anchor else href

    def path_link(self, page: str) -> Callable[[str], str | None]:
        """Resolve a repository path (from a Markdown link) to an object page."""

        def resolve(repo_path: str) -> str | None:
            if self.path_queries is not None:
                self.path_queries.append(repo_path)
            found = self.index.at_path(repo_path)
            if not found:
                return None
            return urls.relative(page, urls.object_page(sorted(o.uri for o in found)[0]))

        return resolve

    def render(self, template: str, page: str, **values: Any) -> bytes:
        root = urls.relative(page, "index.html")[: -len("index.html")]
        nav = [("Dashboard", "index.html"), ("Plan", "plan.html"), ("Search", "search.html"),
               ("Diagnostics", "diagnostics.html")]
        self.pages.append(page)
        text = self.env.get_template(template).render(
            root=root,
            page=page,
            nav=[(label, root + target, target == page) for label, target in nav],
            label=self.inputs.label,
            fingerprint=self.index.fingerprint,
            # Only the overview pages name the layer's fingerprint: a page that does not
            # depend on an edit must not change because of it (incremental rebuilds).
            show_fingerprint=page in ("index.html", "diagnostics.html"),
            tier_colors=TIER_COLORS,
            state_colors=STATE_COLORS,
            **values,
        )
        return text.encode("utf-8")

    # -- build -----------------------------------------------------------------------

    def build(self) -> Iterator[tuple[str, bytes]]:
        # Each answer is compiled, written and dropped: only its standings, its digest and
        # the dashboard's counts are kept (holding every answer does not fit a large layer).
        keys = context_keys(self.index)
        self.context_of_uri = {k.uri: k for k in keys}
        digests: dict[ContextKey, AnswerDigest] = {}
        standings: dict[str, list[Standing]] = {}
        counts: Counter[str] = Counter()
        self.progress.stage("compiling contexts", len(keys))
        for key, done in zip(keys, ordered_map(self.compiled_context, keys)):
            for uri, rows in done.standings.items():
                standings.setdefault(uri, []).extend(rows)
            counts.update(done.excluded)
            digests[key] = done.digest
            self.pages.extend(done.pages)
            yield from done.files
            self.progress.step()
        self.compiled = digests  # type: ignore[assignment] - the overview reads digests
        self.standings = standings
        self._excluded_counts = counts
        self.progress.stage("writing object pages", len(self.index.objects))
        self.diagnostics_by_path()  # grouped once, before any worker starts
        for files, pages in ordered_map(self.rendered_object, sorted(self.index.objects)):
            self.pages.extend(pages)
            yield from files
            self.progress.step()
        self.progress.stage("writing overview pages", 1)
        yield from self.overview_files()
        self.progress.step()

    # -- contexts --------------------------------------------------------------------

    def compile_and_render(self, key: ContextKey
                           ) -> tuple[CompiledContext, list[tuple[str, bytes]], list[str]]:
        """One context's answer, its files, and the pages among them. Runs in a worker
        process when a build or a rebuild uses them (:func:`ordered_map`), so the pages
        are handed back rather than left in this renderer's list."""
        answer = compile_one(self.index, key, self.inputs.git)
        files, pages = self._taking_pages(lambda: list(self.context_files(key, answer)))
        return answer, files, pages

    def compiled_context(self, key: ContextKey) -> "CompiledFiles":
        """One context compiled and rendered, with what the rest of the build keeps of it."""
        answer, files, pages = self.compile_and_render(key)
        return CompiledFiles(files=files, pages=pages, digest=AnswerDigest.of(answer),
                             standings={uri: tuple(rows) for uri, rows in
                                        standings_of({key: answer}).items()},
                             excluded=tuple(excluded_uris(answer)))

    def _taking_pages(self, render: Callable[[], list[tuple[str, bytes]]]
                      ) -> tuple[list[tuple[str, bytes]], list[str]]:
        """``render()``'s files and the pages it noted, taken back out of :attr:`pages`."""
        before = len(self.pages)
        files = render()
        pages = self.pages[before:]
        del self.pages[before:]
        return files, pages

    def context_view(self, key: ContextKey, answer: CompiledContext, page: str) -> dict:
        obj = self.index.objects[key.uri]
        by_tier: dict[str, list] = {t.value: [] for t in TIER_ORDER}
        required_by_tier: Counter[str] = Counter()
        for e in answer.selected:
            if e.required:
                required_by_tier[e.tier.value] += e.cost_tokens
            by_tier[e.tier.value].append({
                "e": e,
                "anchor": urls.anchor_for(e.uri),
                "href": self.object_href(page, e.uri),
                "paths": [{
                    "d": d,
                    "via_href": self.object_href(page, d.via) if d.via else None,
                } for d in e.discovered_by],
            })
        excluded = []
        unresolved = []
        for x in answer.excluded:
            held = self.index.objects.get(x.uri)  # its title, as a selected row shows it
            row = {"x": x, "anchor": urls.anchor_for(x.uri), "href": self.object_href(page, x.uri),
                   "title": held.title if held is not None else None}
            (unresolved if x.reason.value == "unresolved" else excluded).append(row)
        dedup = [{"d": d, "kept_href": self.object_href(page, d.kept),
                  "anchor": urls.anchor_for(d.dropped[0]) if d.dropped else None,
                  "dropped": [(u, self.object_href(page, u), urls.anchor_for(u)) for u in d.dropped]}
                 for d in answer.deduplicated]
        state = self.index.issue_states.get(key.uri)
        return {
            "key": key,
            "obj": obj,
            "a": answer,
            "state": state,
            "object_href": urls.relative(page, urls.object_page(key.uri)),
            "json_href": urls.relative(page, urls.context_json(key.kind, key.identity)),
            "budget_svg": budget_bar(answer.budget, dict(required_by_tier)),
            "tiers": [(t, by_tier[t.tier.value]) for t in answer.budget.tiers],
            "excluded": excluded,
            "unresolved": unresolved,
            "dedup_semantic": [d for d in dedup if d["d"].dropped],
            "dedup_structural": [d for d in dedup if not d["d"].dropped],
            "reason_counts": Counter(x.reason.value for x in answer.excluded),
            "tier_rules": tier_rules(answer, self.index),
            "excluded_tokens": sum(x.cost_tokens for x in answer.excluded),
        }

    def context_files(self, key: ContextKey, answer: CompiledContext) -> Iterator[tuple[str, bytes]]:
        page = urls.context_page(key.kind, key.identity)
        yield urls.context_json(key.kind, key.identity), canonical_json(answer)
        title = self.index.objects[key.uri].title or key.identity
        yield page, self.render("context.html", page, title=f"Context of {key.identity}: {title}",
                                **self.context_view(key, answer, page))

    # -- objects ---------------------------------------------------------------------

    def object_record(self, obj: LayerObject) -> ObjectRecord:
        page = urls.object_page(obj.uri)
        index = self.index
        state = index.issue_states.get(obj.uri)

        def edge(e_kind: str, fld: str, uri: str) -> EdgeRecord:
            return EdgeRecord(edge=e_kind, field=fld, uri=uri,
                              page=urls.object_page(uri) if uri in index.objects else None)

        standings = []
        for s in self.standings.get(obj.uri, []):
            standings.append(StandingRecord(
                context=s.context.uri, context_kind=s.context.kind, context_id=s.context.identity,
                standing=s.standing, word=s.word, detail=s.detail, relevance=s.relevance,
                cost_tokens=s.cost_tokens, page=urls.context_page(s.context.kind, s.context.identity)
                + "#" + urls.anchor_for(obj.uri)))
        prov = obj.provenance
        return ObjectRecord(
            uri=obj.uri, kind=obj.kind, identity=obj.identity, title=obj.title, summary=obj.summary,
            status=obj.status, state=state.state if state else None,
            state_reasons=list(state.reasons) if state else [], version=obj.version,
            tags=list(obj.tags), facts=dict(obj.facts), fields=dict(obj.fields),
            provenance=prov, page=page,
            edges_out=[edge(e.kind, e.field, e.target) for e in index.out_edges.get(obj.uri, [])],
            edges_in=[edge(e.kind, e.field, e.source) for e in index.in_edges.get(obj.uri, [])],
            external=[EdgeRecord(edge=x.kind, field=x.field, uri=x.node)
                      for x in index.externals_by_source.get(obj.uri, [])],
            unresolved=[UnresolvedRecord(field=u.field, reference=u.reference, target=u.target_uri,
                                         correction=u.correction, line=u.line)
                        for u in index.unresolved_by_source.get(obj.uri, [])],
            standings=standings,
        )

    def rendered_object(self, uri: str) -> tuple[list[tuple[str, bytes]], list[str]]:
        """One object's files and the pages among them (a worker's job in a full build)."""
        return self._taking_pages(lambda: list(self.object_files(self.index.objects[uri])))

    def object_files(self, obj: LayerObject) -> Iterator[tuple[str, bytes]]:
        record = self.object_record(obj)
        yield urls.object_json(obj.uri), canonical_json(record)
        page = record.page
        body_html = None
        if obj.body and obj.body.strip():
            body_html = self.md.render(obj.body, obj.provenance.directory, self.path_link(page))
        rel = lambda target: urls.relative(page, target) if target else None  # noqa: E731
        counts = Counter(s.standing for s in record.standings)
        context_key = self.context_of_uri.get(obj.uri)
        diags = self.diagnostics_by_path().get(obj.provenance.path, [])
        xref = cross_ref_query(self.index, obj.uri)
        yield page, self.render(
            "object.html", page,
            title=f"{obj.kind} {obj.identity}",
            obj=obj,
            rec=record,
            body_html=body_html,
            fields=_field_rows(obj.fields),
            edges_out=[(e, rel(e.page)) for e in record.edges_out],
            edges_in=[(e, rel(e.page)) for e in record.edges_in],
            standings=[(s, rel(s.page)) for s in record.standings[:MAX_STANDINGS_SHOWN]],
            standings_hidden=max(0, len(record.standings) - MAX_STANDINGS_SHOWN),
            standing_counts=counts,
            own_context=(self.context_href(page, context_key) if context_key else None),
            json_href=rel(urls.object_json(obj.uri)),
            diagnostics=diags,
            xref=xref,
            xref_hits=[(h, self.object_href(page, h.anchor)) for h in xref.hits],
        )

    def diagnostics_by_path(self) -> dict[str, list[Diagnostic]]:
        grouped = self.__dict__.get("_diagnostics_by_path")
        if grouped is None:
            grouped = {}
            for d in self.index.diagnostics:
                grouped.setdefault(d.path, []).append(d)
            self.__dict__["_diagnostics_by_path"] = grouped
        return grouped

    # -- overview --------------------------------------------------------------------

    def overview_files(self) -> Iterator[tuple[str, bytes]]:
        for rel, _depends, make in self.overview_parts():
            yield rel, make()

    def overview_parts(self) -> list[tuple[str, str, Callable[[], bytes]]]:
        """``(path, what it shows, render)`` for every overview file, in build order.

        What it shows, so an incremental rebuild can keep a file nothing it shows changed
        in (keep these honest when a page starts to show more):
        ``layer`` — the fingerprint or every context: rendered every time;
        ``objects`` — every object's own values and derived state;
        ``plan`` — the issues and milestones: values, states, edges, contexts;
        ``kind:<kind>`` — that kind's objects, their state and standing counts;
        ``pages`` — the set of pages; ``templates`` — the templates and the code only.
        """
        index = self.index
        memo: dict[str, Any] = {}

        def site_index() -> _SiteIndexParts:
            if "site_index" not in memo:
                memo["site_index"] = self.site_index_parts()
            return memo["site_index"]

        def search_json() -> bytes:
            if "search" not in memo:
                memo["search"] = canonical_plain_json(self.search_index())
            return memo["search"]

        def objects_json() -> bytes:
            # canonical_json(ObjectsIndex(rows)), laid out from each row's own canonical
            # text (a compact JSON array is its items joined by commas): rows are kept
            # between builds, and an edit changes few
            rows = []
            for uri in sorted(index.objects):
                obj = index.objects[uri]
                state = index.issue_states.get(uri)
                word = state.state if state else None
                rows.append(self.rows.text("objects.json", obj, word,
                                           lambda obj=obj, word=word: _object_row(obj, word)))
            return ("[" + ",".join(rows) + "]\n").encode("utf-8")

        parts: list[tuple[str, str, Callable[[], bytes]]] = [
            ("api/v1/index.json", "layer", lambda: site_index().json()),
            ("api/v1/objects.json", "objects", objects_json),
        ]
        for name, model in sorted(SCHEMAS.items()):
            parts.append((f"api/v1/schemas/{name}", "templates",
                          lambda model=model: canonical_json(schema_of(model), indent=2)))
        parts.append(("api/v1/search-index.json", "layer", search_json))
        # the HTTP API's OpenAPI document, generated from the operation registry
        parts.append((OPENAPI_FILE, "templates", openapi_bytes))
        for name in STATIC_FILES:
            path = self.inputs.templates / "static" / name
            if path.is_file():
                parts.append((f"static/{name}", "templates", path.read_bytes))
        parts += [
            ("index.html", "layer", lambda: self.render(
                "dashboard.html", "index.html", title="Dashboard", **self.dashboard_view(site_index()))),
            ("plan.html", "plan", lambda: self.render(
                "plan.html", "plan.html", title="Plan", **self.plan_view())),
            ("diagnostics.html", "layer", lambda: self.render(
                "diagnostics.html", "diagnostics.html", title="Diagnostics", **self.diagnostics_view())),
            ("search.html", "layer", lambda: self.render(
                "search.html", "search.html", title="Search",
                search_json=search_json().decode("utf-8").rstrip("\n"))),
        ]
        for kind in sorted(index.by_kind):
            page = urls.kind_page(kind)
            parts.append((page, f"kind:{kind}", lambda kind=kind, page=page: self.render(
                "kind.html", page, title=f"Every {kind}", **self.kind_view(kind, page))))
        parts += [
            ("404.html", "templates", lambda: self.render("404.html", "404.html", title="Not found",
                                                         base_url=self.inputs.base_url)),
            ("sitemap.xml", "pages", self.sitemap),
        ]
        return parts

    def site_index_parts(self) -> "_SiteIndexParts":
        """``api/v1/index.json`` as its head (every value but the contexts) and one
        canonical row per context, kept between builds (:class:`RowCache`): a large layer
        has over 10,000 contexts and an edit changes few of them."""
        index = self.index
        rows: list[str] = []
        over: list[ContextSummary] = []
        for key, answer in sorted(self.compiled.items()):
            obj = index.objects[key.uri]
            state = index.issue_states.get(key.uri)
            b = answer.budget
            values = dict(kind=key.kind, id=key.identity, uri=key.uri, title=obj.title,
                          state=state.state if state else None,
                          selected=len(answer.selected), excluded=len(answer.excluded),
                          used_tokens=b.used_tokens, limit_tokens=b.limit_tokens,
                          required_tokens=b.required_tokens, over_budget=b.over_budget)
            rows.append(self.rows.text("index.json", obj, tuple(values.values()),
                                       lambda values=values: _context_row(values)))
            if b.over_budget:
                over.append(_context_summary(values))
        diag_counts = count_by_severity(index.diagnostics)
        state_counts = Counter(s.state for s in index.issue_states.values())
        head = SiteIndex(
            fingerprint=index.fingerprint, files=len(index.layer.files), objects=len(index.objects),
            edges=len(index.edges), unresolved=len(index.unresolved), kinds=index.counts_by_kind(),
            diagnostics=diag_counts,
            defaults={"budget_tokens": DEFAULT_BUDGET_TOKENS, "floor": DEFAULT_FLOOR,
                      "max_depth": DEFAULT_MAX_DEPTH},
            contexts=[],
            issue_states={s: state_counts.get(s, 0) for s in STATES})
        return _SiteIndexParts(head=head, rows=rows, over_budget=over)

    def search_index(self) -> dict:
        from ..query.search_index import build_search_index

        return build_search_index(self.index, url_for=lambda obj: urls.object_page(obj.uri))

    def row_html(self, macro: str, obj: LayerObject, values: dict, shows: tuple) -> str:
        """One row of a long list page: ``macro`` of ``templates/rows.html`` applied to
        ``values``, kept (:class:`RowCache`) while ``obj`` and ``shows`` (every other
        value the row shows) are the same."""
        def render() -> str:
            # the template's module is looked up once per renderer (each lookup checks
            # the file's mtime; a first build renders 40,000 rows on a large layer)
            module = self.__dict__.get("_rows_module")
            if module is None:
                module = self.__dict__["_rows_module"] = self.env.get_template("rows.html").module
            return getattr(module, macro)(values)

        return self.rows.text(macro, obj, shows, render)

    def kind_view(self, kind: str, page: str) -> dict:
        rows = []
        for obj in sorted(self.index.by_kind[kind], key=lambda o: o.uri):
            state = self.index.issue_states.get(obj.uri)
            key = self.context_of_uri.get(obj.uri)
            values = {"obj": obj, "href": urls.relative(page, urls.object_page(obj.uri)),
                      "state": state.state if state else None,
                      "context_href": self.context_href(page, key) if key else None,
                      "reached": len(self.standings.get(obj.uri, ()))}
            rows.append(self.row_html("kind_row", obj, values, (
                values["href"], values["state"], values["context_href"], values["reached"])))
        return {"kind": kind, "rows": rows}

    def excluded_counter(self) -> Counter[str]:
        """How many contexts exclude each identifier (unresolved names aside)."""
        if self._excluded_counts is not None:
            return self._excluded_counts
        counter: Counter[str] = Counter()
        for answer in self.compiled.values():
            counter.update(excluded_uris(answer))
        return counter

    def dashboard_view(self, site_index: "_SiteIndexParts") -> dict:
        index = self.index
        page = "index.html"
        milestones = []
        issues_by_ms: dict[str, list[LayerObject]] = {}
        for issue in index.by_kind.get("issue", []):
            for e in index.out_edges.get(issue.uri, []):
                if e.kind == "belongs_to":
                    issues_by_ms.setdefault(e.target, []).append(issue)
        for ms in sorted(index.by_kind.get("milestone", []), key=lambda o: o.uri):
            counts = Counter(index.issue_states[i.uri].state for i in issues_by_ms.get(ms.uri, []))
            key = self.context_of_uri.get(ms.uri)
            milestones.append({"obj": ms, "counts": [(s, counts.get(s, 0)) for s in STATES],
                               "total": sum(counts.values()),
                               "href": self.context_href(page, key) if key else None})
        over = site_index.over_budget
        excluded_counter = self.excluded_counter()
        # the first 15 of the sorted counts, without sorting tens of thousands
        most_excluded = [(uri, n, self.object_href(page, uri), index.objects.get(uri))
                         for uri, n in heapq.nsmallest(15, excluded_counter.items(),
                                                       key=lambda kv: (-kv[1], kv[0]))]
        return {
            "si": site_index.head,
            "contexts_total": len(site_index.rows),
            "milestones": milestones,
            "over": over,
            "most_excluded": most_excluded,
            "unresolved": index.unresolved[:50],
            "unresolved_total": len(index.unresolved),
            "unresolved_href": lambda u: self.object_href(page, u.source),
            "diag_counts": site_index.head.diagnostics,
            "kinds": [(k, n, urls.kind_page(k)) for k, n in sorted(site_index.head.kinds.items())],
            "states": [(s, site_index.head.issue_states.get(s, 0)) for s in STATES],
        }

    def plan_view(self) -> dict:
        index = self.index
        page = "plan.html"
        issues_by_ms: dict[str, list[LayerObject]] = {}
        orphans = []
        for issue in sorted(index.by_kind.get("issue", []), key=lambda o: o.uri):
            targets = [e.target for e in index.out_edges.get(issue.uri, []) if e.kind == "belongs_to"]
            if targets:
                issues_by_ms.setdefault(targets[0], []).append(issue)
            else:
                orphans.append(issue)
        nodes, edges, sections = [], [], []
        for ms in sorted(index.by_kind.get("milestone", []), key=lambda o: o.uri):
            issues = issues_by_ms.get(ms.uri, [])
            counts = Counter(index.issue_states[i.uri].state for i in issues)
            key = self.context_of_uri.get(ms.uri)
            anchor = "m-" + urls.encode_name(ms.identity)
            nodes.append({"id": ms.uri, "label": ms.title or ms.identity, "href": "#" + anchor,
                          "counts": {s: counts.get(s, 0) for s in STATES}})
            for e in index.out_edges.get(ms.uri, []):
                if e.kind == "depends_on":
                    edges.append((ms.uri, e.target))
            sections.append({"obj": ms, "anchor": anchor,
                             "context_href": self.context_href(page, key) if key else None,
                             "object_href": self.object_href(page, ms.uri),
                             "deps": [(e.target, self.object_href(page, e.target))
                                      for e in index.out_edges.get(ms.uri, []) if e.kind == "depends_on"],
                             "issues": [self.plan_row("plan_issue_row", page, i) for i in issues],
                             "counts": [(s, counts.get(s, 0)) for s in STATES]})
        return {"svg": plan_graph(nodes, edges), "sections": sections,
                "orphans": [self.plan_row("plan_orphan_row", page, i) for i in orphans],
                "states": STATES}

    def plan_row(self, macro: str, page: str, issue: LayerObject) -> str:
        row = self.issue_row(page, issue)
        return self.row_html(macro, issue, row, (
            row["state"], tuple(row["deps"]), row["context_href"], row["object_href"]))

    def issue_row(self, page: str, issue: LayerObject) -> dict:
        state = self.index.issue_states[issue.uri]
        key = self.context_of_uri.get(issue.uri)
        deps = [(e.target.rsplit("/", 1)[-1], self.object_href(page, e.target))
                for e in self.index.out_edges.get(issue.uri, []) if e.kind == "depends_on"]
        deps += [(u.reference, None) for u in self.index.unresolved_by_source.get(issue.uri, [])
                 if u.field == "depends_on"]
        return {"obj": issue, "state": state, "deps": deps,
                "context_href": self.context_href(page, key) if key else None,
                "object_href": self.object_href(page, issue.uri)}

    def diagnostics_view(self) -> dict:
        page = "diagnostics.html"
        groups: dict[str, list[Diagnostic]] = {}
        for d in self.index.diagnostics:
            groups.setdefault(d.path or "(layer)", []).append(d)
        rows = []
        for path in sorted(groups, key=lambda p: (p == "(layer)", p)):
            found = self.index.at_path(path) if path != "(layer)" else []
            href = urls.relative(page, urls.object_page(sorted(o.uri for o in found)[0])) if found else None
            rows.append({"path": path, "href": href, "entries": groups[path]})
        return {"groups": rows, "counts": count_by_severity(self.index.diagnostics),
                "codes": sorted(Counter(d.code for d in self.index.diagnostics).items())}

    def sitemap(self) -> bytes:
        base = (self.inputs.base_url or "").rstrip("/")
        lines = ['<?xml version="1.0" encoding="UTF-8"?>',
                 '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
        for later in self._later_pages:
            self.pages.extend(later())
        self._later_pages = []
        for page in sorted(set(self.pages)):
            if page == "404.html":
                continue
            loc = f"{base}/{page}" if base else page
            lines.append(f"  <url><loc>{_xml_escape(loc)}</loc></url>")
        lines.append("</urlset>")
        return ("\n".join(lines) + "\n").encode("utf-8")


@dataclass(frozen=True)
class _SiteIndexParts:
    """``api/v1/index.json`` in parts: the model without its contexts, and each context's
    canonical row (the dashboard reads the head and the contexts over budget)."""

    head: SiteIndex
    rows: list[str]
    over_budget: list[ContextSummary]

    def json(self) -> bytes:
        # canonical_json(head with the contexts): the head's keys are sorted, so its one
        # empty "contexts" list comes right after "api" (a fixed string) and is the first
        # such text; a compact array is its items joined by commas
        text = canonical_json_text(self.head)
        spliced = text.replace('"contexts":[]', '"contexts":[' + ",".join(self.rows) + "]", 1)
        return spliced.encode("utf-8")


def _context_summary(values: dict) -> ContextSummary:
    return ContextSummary(page=urls.context_page(values["kind"], values["id"]),
                          json_url=urls.context_json(values["kind"], values["id"]), **values)


def _context_row(values: dict) -> str:
    """One context's row of ``api/v1/index.json``, as canonical JSON text."""
    return canonical_json_text(_context_summary(values))[:-1]


def _object_row(obj: LayerObject, state: str | None) -> str:
    """One row of ``api/v1/objects.json``, as canonical JSON text."""
    return canonical_json_text(ObjectSummary(
        uri=obj.uri, kind=obj.kind, identity=obj.identity, title=obj.title, status=obj.status,
        state=state, version=obj.version, path=obj.provenance.path,
        page=urls.object_page(obj.uri), json_url=urls.object_json(obj.uri)))[:-1]


def excluded_uris(answer: CompiledContext) -> list[str]:
    """The identifiers one answer excludes, unresolved names aside (the dashboard counts
    them over every context)."""
    return [x.uri for x in answer.excluded if x.reason.value != "unresolved"]


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _field_rows(fields: dict) -> list[tuple[str, str, bool]]:
    """(key, text, is_block) for an object's fields: scalars inline, the rest as YAML-ish."""
    rows = []
    for key, value in fields.items():
        if isinstance(value, (dict, list)):
            rows.append((key, _block(value, 0).rstrip("\n"), True))
        else:
            rows.append((key, "" if value is None else _scalar(value), False))
    return rows


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _block(value: Any, indent: int) -> str:
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return pad + "{}\n"
        out = []
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}{k}:\n{_block(v, indent + 1)}")
            else:
                out.append(f"{pad}{k}: {_scalar(v) if not isinstance(v, (dict, list)) else ('{}' if isinstance(v, dict) else '[]')}\n")
        return "".join(out)
    if isinstance(value, list):
        if not value:
            return pad + "[]\n"
        out = []
        for v in value:
            if isinstance(v, (dict, list)) and v:
                inner = _block(v, indent + 1)
                out.append(f"{pad}- {inner.lstrip()}")
            else:
                out.append(f"{pad}- {_scalar(v) if not isinstance(v, (dict, list)) else '[]'}\n")
        return "".join(out)
    return pad + _scalar(value) + "\n"


def build_site(inputs: SiteInputs, progress: Progress | None = None) -> Iterator[tuple[str, bytes]]:
    """Every file of the site, in a fixed order."""
    return SiteRenderer(inputs, progress or Progress()).build()
