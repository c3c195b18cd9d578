"""The reference pages (``reference/<operation>.html``, and ``reference/index.html``
listing them): one per operation of the registry, generated from its declaration and its
models' JSON Schemas — never written by hand per operation.

Each carries what the original page of ``devcontext.explain`` carries (the English form is
``spec/devcontext-explain.md``): where the operation is reachable, its input and output
property by property, every type they refer to with its description, the JSON Schemas,
its policies and its benchmark matrix — per transport and case, cold and warm, p50/p95,
covered or missing, with the figures of the results file when the build was given one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from markupsafe import Markup, escape

from ...benchresults import BenchResults
from ...jsonio import canonical_json_text
from ...operations.openapi import OPENAPI_FILE
from ...operations.registry import OPERATIONS, TRANSPORTS, Operation
from ...operations.schemas import input_schema, output_schema
from .. import urls
from ..charts import fmt_figure
from ..records import OperationLink
from ..i18n import N_, _, ngettext
from .kit import PageKit

__all__ = [
    "INDEX_PAGE",
    "MatrixCase",
    "MatrixRow",
    "PHASES",
    "STATS",
    "benchmark_matrix",
    "operation_links",
    "reference_files",
    "reference_index_page",
    "reference_page",
    "reference_path",
    "reference_paths",
    "type_html",
]

INDEX_PAGE = "reference/index.html"
PHASES = ("cold", "warm")
STATS = ("p50", "p95")

#: How each transport is named on the pages.
TRANSPORT_LABELS = {"direct": N_("direct (in-process call)"), "http": N_("HTTP"),
                    "mcp": N_("MCP")}


def reference_path(op_id: str) -> str:
    """The site path of an operation's reference page."""
    return f"reference/{op_id}.html"


def operation_links() -> list[OperationLink]:
    """The API index's list of operations (``api/v1/index.json``), in the registry's order."""
    return [OperationLink(id=op.id, summary=op.summary, page=reference_path(op.id),
                          http_route=op.exposure.http_route) for op in OPERATIONS]


def reference_paths() -> list[str]:
    """Every reference page, the index first (the sitemap's list)."""
    return [INDEX_PAGE] + [reference_path(op.id) for op in OPERATIONS]


# -- the benchmark matrix ----------------------------------------------------------------------


@dataclass(frozen=True)
class MatrixCase:
    """One benchmark case on one transport: its figures per (phase, stat), None where the
    results hold none."""

    name: str
    description: str
    figures: dict[tuple[str, str], float | None]
    unit: str
    #: The results file's note on a figure it could not measure (a route not served).
    note: str

    @property
    def measured(self) -> int:
        return sum(1 for v in self.figures.values() if v is not None)


@dataclass(frozen=True)
class MatrixRow:
    """One transport of an operation: ``covered`` (exposed, and the policy requires a
    benchmark of its cases), ``missing`` (exposed, no benchmark declared) or ``not exposed``."""

    transport: str
    state: str
    cases: tuple[MatrixCase, ...]

    @property
    def measured(self) -> int:
        return sum(c.measured for c in self.cases)

    @property
    def expected(self) -> int:
        return len(self.cases) * len(PHASES) * len(STATS)


def benchmark_matrix(op: Operation, results: BenchResults | None) -> list[MatrixRow]:
    """The matrix of ``op``: a row per transport (in :data:`TRANSPORTS` order), each case
    with its figures from ``results`` (pure)."""
    rows = []
    exposed = op.exposure.transports
    for transport in TRANSPORTS:
        if transport not in exposed:
            rows.append(MatrixRow(transport, "not exposed", ()))
            continue
        if not (op.policies.benchmark_required and op.benchmark_cases):
            rows.append(MatrixRow(transport, "missing", ()))
            continue
        cases = []
        for case in op.benchmark_cases:
            figures: dict[tuple[str, str], float | None] = {}
            unit, note = "ms", ""
            for phase in PHASES:
                for stat in STATS:
                    row = results.operation_row(op.id, transport, case.name, phase, stat) \
                        if results is not None else None
                    figures[(phase, stat)] = row.value if row is not None else None
                    if row is not None:
                        unit = row.unit or unit
                        if row.value is None and row.note:
                            note = row.note
            cases.append(MatrixCase(case.name, case.description, figures, unit, note))
        rows.append(MatrixRow(transport, "covered", tuple(cases)))
    return rows


STATE_WORDS = {"covered": N_("covered"), "missing": N_("missing"),
               "not exposed": N_("not exposed")}


def matrix_view(op: Operation, results: BenchResults | None) -> list[dict[str, Any]]:
    """The matrix as the templates show it (words translated, figures formatted)."""
    view = []
    for row in benchmark_matrix(op, results):
        targets = "; ".join(_("{case}: cold + warm").format(case=c.name) for c in row.cases)
        cases = []
        for case in row.cases:
            cells = []
            for phase in PHASES:
                for stat in STATS:
                    value = case.figures[(phase, stat)]
                    cells.append({"phase": phase, "stat": stat,
                                  "text": None if value is None
                                  else f"{fmt_figure(value)} {case.unit}"})
            cases.append({"name": case.name, "description": _(case.description), "cells": cells,
                          "note": case.note})
        view.append({
            "transport": row.transport, "label": _(TRANSPORT_LABELS[row.transport]),
            "state": row.state, "state_text": _(STATE_WORDS[row.state]),
            "cases": cases, "targets": targets,
            "measured_text": "" if results is None or not row.cases else
            _("{measured} of {expected} figures measured").format(
                measured=row.measured, expected=row.expected),
        })
    return view


# -- schemas as tables -------------------------------------------------------------------------


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _or(parts: list[Markup]) -> Markup:
    out = parts[0]
    for part in parts[1:]:
        out = Markup(escape(_("{left} or {right}"))).format(left=out, right=part)
    return out


def type_html(schema: dict[str, Any]) -> Markup:
    """A property's JSON Schema type in words (``string or null``, ``array of string``),
    each referenced type a link to its description on the page."""
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return Markup('<a href="#type-{0}"><code>{0}</code></a>').format(name)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _or([type_html(option) for option in schema[key]])
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return type_html(schema["allOf"][0])
    kind = schema.get("type")
    if isinstance(kind, list):
        return _or([type_html({**schema, "type": k}) for k in kind])
    if kind == "array":
        return Markup(escape(_("array of {item}"))).format(
            item=type_html(schema.get("items", {})))
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return Markup(escape(_("map of string to {value}"))).format(
            value=type_html(schema["additionalProperties"]))
    if "const" in schema:
        return Markup("<code>{0}</code>").format(canonical_json_text(schema["const"]).strip())
    if kind is None:
        return Markup(escape(_("any value")))
    return Markup(escape(kind))


def _describe(kit: PageKit, text: str | None) -> Markup:
    """A description from the schemas, translated when the catalogue has it, as Markdown
    (the contract's prose carries code and emphasis)."""
    if not text:
        return Markup("")
    return Markup(kit.md.render(_(text), ".", lambda path: None))


def _properties(kit: PageKit, schema: dict[str, Any]) -> list[dict[str, Any]]:
    required = set(schema.get("required", ()))
    return [{"name": name, "type": type_html(prop), "required": name in required,
             "description": _describe(kit, prop.get("description")),
             "values": [canonical_json_text(v).strip() for v in prop.get("enum", ())]}
            for name, prop in sorted(schema.get("properties", {}).items())]


def _type_view(kit: PageKit, name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "anchor": f"type-{name}",
            "description": _describe(kit, schema.get("description")),
            "properties": _properties(kit, schema),
            "values": [canonical_json_text(v).strip() for v in schema.get("enum", ())],
            "kind": type_html({k: v for k, v in schema.items() if k not in ("enum",)})
            if "properties" not in schema else Markup(escape(_("object")))}


def _schema_view(kit: PageKit, schema: dict[str, Any], title: str) -> dict[str, Any]:
    return {"title": title, "description": _describe(kit, schema.get("description")),
            "properties": _properties(kit, schema),
            "json": canonical_json_text(schema, indent=2)}


# -- the pages ---------------------------------------------------------------------------------


def _exposure(op: Operation, page: str) -> list[dict[str, Any]]:
    e = op.exposure
    code = lambda text: Markup("<code>{0}</code>").format(text)  # noqa: E731
    rows = []
    rows.append({"surface": _("MCP"), "how": Markup(escape(_("tool {tool}"))).format(
        tool=code(e.mcp_tool)) if e.mcp_tool else None})
    if e.http_route:
        openapi = urls.relative(page, OPENAPI_FILE)
        how = Markup(escape(_("{route}, operationId {operation_id} (in {openapi})"))).format(
            route=code(f"GET {e.http_route}"), operation_id=code(e.operation_id),
            openapi=Markup('<a href="{0}">OpenAPI</a>').format(openapi))
    else:
        how = None
    rows.append({"surface": _("HTTP"), "how": how})
    rows.append({"surface": _("command line"), "how": code(f"devcontext {e.cli_command}")
                 if e.cli_command else None})
    return rows


def _policies(op: Operation) -> list[Markup]:
    p = op.policies
    out = [Markup(escape(_("benchmark: {word} — a target on every transport the exposure "
                           "declares, for each of the operation's {n} cases.")))
           .format(word=Markup("<strong>{0}</strong>").format(
               _("required") if p.benchmark_required else _("not required")),
               n=len(op.benchmark_cases))]
    if p.cache is not None:
        out.append(Markup(escape(ngettext(
            "cache: {scope} — up to {entries} entry in the process, keyed by {key}, so an "
            "edit to the layer can never serve a stale answer.",
            "cache: {scope} — up to {entries} entries in the process, keyed by {key}, so an "
            "edit to the layer can never serve a stale answer.", p.cache.entries))).format(
            scope=Markup("<strong>{0}</strong>").format(p.cache.scope),
            entries=p.cache.entries, key=p.cache.key))
    else:
        out.append(Markup(escape(_("cache: none — every call is answered afresh."))))
    return out


def reference_view(kit: PageKit, op: Operation) -> dict[str, Any]:
    page = reference_path(op.id)
    inp = input_schema(op)
    out = output_schema(op)
    defs: dict[str, Any] = {}
    for schema in (inp, out):
        defs.update(schema.get("$defs", {}))
    results = kit.bench
    return {
        "op": op,
        "summary": _(op.summary),
        "description": _(op.description),
        "exposure": _exposure(op, page),
        "input": _schema_view(kit, inp, op.input_model.__name__),
        "output": _schema_view(kit, out, op.output_model.__name__),
        "types": [_type_view(kit, name, defs[name]) for name in sorted(defs)],
        "policies": _policies(op),
        "matrix": matrix_view(op, results),
        "results_source": results.source if results is not None else None,
        "performance_href": urls.relative(page, "performance.html"),
        "index_href": urls.relative(page, INDEX_PAGE),
    }


def reference_page(kit: PageKit, op: Operation) -> bytes:
    page = reference_path(op.id)
    return kit.render("reference.html", page, title=op.id, **reference_view(kit, op))


def reference_index_page(kit: PageKit) -> bytes:
    rows = [{"op": op, "summary": _(op.summary), "href": urls.relative(INDEX_PAGE, reference_path(op.id)),
             "surfaces": ", ".join(_(TRANSPORT_LABELS[t]) for t in op.exposure.transports)}
            for op in OPERATIONS]
    return kit.render("reference.html", INDEX_PAGE, title=_("Reference"), op=None, rows=rows,
                      openapi_href=urls.relative(INDEX_PAGE, OPENAPI_FILE),
                      performance_href=urls.relative(INDEX_PAGE, "performance.html"))


def reference_files(kit: PageKit) -> list[tuple[str, Callable[[], bytes]]]:
    """Every reference page, the index first, each with how to make it (made when asked)."""
    files: list[tuple[str, Callable[[], bytes]]] = [(INDEX_PAGE, lambda: reference_index_page(kit))]
    files += [(reference_path(op.id), lambda op=op: reference_page(kit, op)) for op in OPERATIONS]
    return files
