"""The reference pages: one per registry operation, carrying what the original page of
``devcontext.explain`` carries (``spec/devcontext-explain.md``) — every property of both of
its schemas with its description, every referenced type, the exposure, the JSON Schemas,
the policies and the benchmark matrix (covered/missing, figures from a results file)."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.benchresults import parse_results
from generator.engine.compile import GitInfo
from generator.operations import OPERATIONS, operation
from generator.operations.openapi import OPENAPI_FILE, openapi_document
from generator.operations.registry import Policies
from generator.site.build import SiteInputs, build_site, page_kit
from generator.site.pages.kit import NAV
from generator.site.pages.reference import (
    benchmark_matrix,
    reference_page,
    reference_path,
    type_html,
)
from generator.workspace import Workspace
from generator.writer import write_site
from speckit import PRODUCT_NAMES, needs_spec, spec, spec_input_text

#: A results file as ``make bench`` writes it (figures made up here, never timed).
EXPLAIN_FIGURES = {("direct", "cold", "p50"): 0.8125, ("direct", "cold", "p95"): 2.5,
                   ("direct", "warm", "p50"): 0.0271, ("direct", "warm", "p95"): 0.0625,
                   ("http", "warm", "p50"): 0.3504, ("http", "warm", "p95"): 1.234,
                   ("mcp", "warm", "p50"): 1.9}


def results_bytes() -> bytes:
    rows = []
    for (transport, phase, stat), value in EXPLAIN_FIGURES.items():
        rows.append({"name": f"real: devcontext.explain policy {transport} {phase} {stat}",
                     "value": value, "unit": "ms", "note": "",
                     "tags": {"figure": "operation", "operation": "devcontext.explain",
                              "transport": transport, "case": "policy", "phase": phase,
                              "stat": stat, "layer": "real"}})
    rows.append({"name": "real: objects.get policy http warm p50", "value": math.nan,
                 "unit": "ms", "note": "skipped: the live server does not serve /api/v1/object",
                 "tags": {"figure": "operation", "operation": "objects.get", "transport": "http",
                          "case": "policy", "phase": "warm", "stat": "p50"}})
    return json.dumps(rows, indent=2).encode("utf-8")


class Texts(HTMLParser):
    """The text of every element that has an id (nested ones included in their parents)."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "wbr", "col", "source"}
    #: Elements that separate words (inline ones such as ``code`` do not).
    BLOCKS = {"td", "th", "tr", "p", "li", "div", "h1", "h2", "h3", "h4", "pre", "summary",
              "table", "ul", "section", "details"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []
        self.texts: dict[str, list[str]] = {}
        self.attrs: dict[str, dict] = {}

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        values = dict(attrs)
        if tag in self.BLOCKS:
            self.handle_data(" ")
        self.stack.append((tag, values.get("id")))
        if values.get("id"):
            self.texts.setdefault(values["id"], [])
            self.attrs[values["id"]] = values

    def handle_endtag(self, tag):
        if tag in self.BLOCKS:
            self.handle_data(" ")
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        for _, ident in self.stack:
            if ident:
                self.texts[ident].append(data)

    def text(self, ident: str) -> str:
        return " ".join("".join(self.texts[ident]).split())


def texts(html: bytes) -> Texts:
    parser = Texts()
    parser.feed(html.decode("utf-8"))
    return parser


def plain(markdown: str) -> str:
    """A description's words as a reader sees them (Markdown's marks rendered away)."""
    return " ".join(re.sub(r"[`*]", "", markdown).split())


@pytest.fixture(scope="module")
def index():
    return Workspace.open().index


@pytest.fixture(scope="module")
def results():
    return parse_results(results_bytes(), ".bench/results.json")


@pytest.fixture(scope="module")
def explain_page(index, results) -> Texts:
    kit = page_kit(SiteInputs(index=index, bench=results))
    return texts(reference_page(kit, operation("devcontext.explain")))


@needs_spec
def test_every_input_property_of_the_spec_with_its_description(explain_page):
    schema = spec("devcontext-explain-input.schema.json")
    for prop, sub in schema["properties"].items():
        row = explain_page.text(f"input-{prop}")
        assert row.startswith(prop), row
        assert plain(spec_input_text(prop, sub["description"])) in row, prop
        assert ("yes" if prop in schema["required"] else "no") in row.split(" ")[1:6]


@needs_spec
def test_every_output_property_and_type_of_the_spec_with_its_description(explain_page):
    schema = spec("devcontext-explanation.schema.json")
    checked = 0
    for prop, sub in schema["properties"].items():
        assert plain(sub["description"]) in explain_page.text(f"output-{prop}"), prop
        checked += 1
    for name, sub in schema["$defs"].items():
        ours = PRODUCT_NAMES.get(name, name)
        section = explain_page.text(f"type-{ours}")
        first = plain(sub["description"]).split(". ")[0]
        assert first in section, name
        for value in sub.get("enum", ()):
            assert f'"{value}"' in section, (name, value)
        for prop, psub in sub.get("properties", {}).items():
            row = explain_page.text(f"type-{ours}-{prop}")
            assert plain(psub["description"]) in row, f"{name}.{prop}"
            checked += 1
    assert checked > 50


def test_exposure_and_policies_as_the_original_page(explain_page):
    assert explain_page.text("exposure") == (
        "Exposure Where this one definition is reachable. Absence is explicit: a surface that "
        "does not carry it says so. surface as MCP tool devcontext_explain HTTP GET "
        "/api/v1/devcontext/explain, operationId devcontext.explain (in OpenAPI) command "
        "line devcontext explain")
    policies = explain_page.text("policies")
    assert "benchmark: required — a target on every transport the exposure declares, for " \
        "each of the operation's 2 cases." in policies
    assert "cache: process — up to 8 entries in the process, keyed by layer fingerprint + " \
        "git state + canonical input" in policies


def test_a_surface_that_does_not_carry_the_operation_says_so(index):
    kit = page_kit(SiteInputs(index=index))
    page = texts(reference_page(kit, operation("devcontext.pack")))
    assert "HTTP not carried" in page.text("exposure")
    assert "MCP tool devcontext_pack" in page.text("exposure")


def test_the_json_schemas_are_there_whole(index):
    kit = page_kit(SiteInputs(index=index))
    html = reference_page(kit, operation("devcontext.explain")).decode()
    blocks = re.findall(r'<details><summary>[^<]*</summary><pre class="json">(.*?)</pre>',
                        html, re.S)
    assert len(blocks) == 2
    import html as html_module

    from generator.operations.schemas import input_schema, output_schema
    op = operation("devcontext.explain")
    assert json.loads(html_module.unescape(blocks[0])) == input_schema(op)
    assert json.loads(html_module.unescape(blocks[1])) == output_schema(op)


def test_the_matrix_marks_covered_missing_and_not_exposed(results):
    explain = benchmark_matrix(operation("devcontext.explain"), results)
    assert [(r.transport, r.state, len(r.cases)) for r in explain] == [
        ("direct", "covered", 2), ("http", "covered", 2), ("mcp", "covered", 2)]
    pack = benchmark_matrix(operation("devcontext.pack"), results)
    assert [(r.transport, r.state) for r in pack] == [
        ("direct", "covered"), ("http", "not exposed"), ("mcp", "covered")]
    unbenched = dataclasses.replace(operation("devcontext.policy"),
                                    policies=Policies(benchmark_required=False))
    assert [r.state for r in benchmark_matrix(unbenched, results)] == ["missing"] * 3


def test_the_matrix_carries_the_results_figures(results):
    rows = {r.transport: r for r in benchmark_matrix(operation("devcontext.explain"), results)}
    policy = rows["http"].cases[0]
    assert policy.name == "policy"
    assert policy.figures == {("cold", "p50"): None, ("cold", "p95"): None,
                              ("warm", "p50"): 0.3504, ("warm", "p95"): 1.234}
    assert rows["direct"].measured == 4 and rows["direct"].expected == 8
    assert rows["mcp"].cases[1].measured == 0
    # a NaN row (a route the live server does not serve) is not measured, with its note
    objects = {r.transport: r for r in benchmark_matrix(operation("objects.get"), results)}
    assert objects["http"].cases[0].figures[("warm", "p50")] is None
    assert "does not serve" in objects["http"].cases[0].note


def test_the_page_shows_the_figures_and_what_is_not_measured(explain_page):
    section = explain_page.text("benchmarks")
    assert "Figures from .bench/results.json, in milliseconds." in section
    assert ("HTTP policy the first policy object's identifier, default request: in the "
            "answer not measured not measured 0.350 ms 1.23 ms") in section
    assert "direct (in-process call) covered 2 policy: cold + warm; absent: cold + warm " \
        "(4 of 8 figures measured)" in section
    assert "MCP covered 2 policy: cold + warm; absent: cold + warm (1 of 8 figures " \
        "measured)" in section


def test_without_results_the_page_says_how_to_produce_them(index):
    kit = page_kit(SiteInputs(index=index))
    page = texts(reference_page(kit, operation("devcontext.explain")))
    assert "No results file was given to this build: run make bench, then build with " \
        "--bench-results .bench/results.json." in page.text("benchmarks")
    assert "figures measured" not in page.text("benchmarks")


def test_types_read_as_words_with_links():
    assert str(type_html({"type": ["integer", "null"]})) == "integer or null"
    assert str(type_html({"type": "array", "items": {"type": "string"}})) == "array of string"
    assert str(type_html({"anyOf": [{"$ref": "#/$defs/Budget"}, {"type": "null"}]})) == \
        '<a href="#type-Budget"><code>Budget</code></a> or null'
    assert str(type_html({"type": "object", "additionalProperties": {"type": "integer"}})) == \
        "map of string to integer"
    assert str(type_html({"$ref": "#/$defs/<x>"})) == \
        '<a href="#type-&lt;x&gt;"><code>&lt;x&gt;</code></a>'


# -- on the built site ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory, results) -> Path:
    out = tmp_path_factory.mktemp("reference-site")
    ws = Workspace.open(None, exclude=[out])
    write_site(build_site(SiteInputs(index=ws.index, git=GitInfo(), files=ws.tree.files,
                                     label="demo layer (nimbus)", bench=results,
                                     base_url="https://example.org/site/")), out)
    return out


def test_one_page_per_operation_linked_from_the_index(site):
    html = (site / "reference/index.html").read_text()
    for op in OPERATIONS:
        assert (site / reference_path(op.id)).is_file()
        assert f'<a href="{op.id}.html"><code>{op.id}</code></a>' in html
    assert '<a href="../api/openapi.json">' in html


def test_every_page_links_the_reference_and_performance_pages(site):
    assert ("Reference", "reference/index.html") in NAV
    assert ("Performance", "performance.html") in NAV
    for rel in ("index.html", "plan.html", "diagnostics.html", "contexts/issue/I0201.html",
                "reference/devcontext.explain.html", "performance.html"):
        html = (site / rel).read_text()
        depth = rel.count("/")
        assert f'href="{"../" * depth}reference/index.html"' in html, rel
        assert f'href="{"../" * depth}performance.html"' in html, rel


def test_the_api_index_and_openapi_link_the_reference_pages(site):
    data = json.loads((site / "api/v1/index.json").read_text())
    assert [o["id"] for o in data["operations"]] == [op.id for op in OPERATIONS]
    for link in data["operations"]:
        assert (site / link["page"]).is_file()
    explain = next(o for o in data["operations"] if o["id"] == "devcontext.explain")
    assert explain["http_route"] == "/api/v1/devcontext/explain"
    doc = openapi_document()
    base = (site / OPENAPI_FILE).parent
    for item in doc["paths"].values():
        url = item["get"]["externalDocs"]["url"]
        assert (base / url).resolve().is_file(), url


def test_the_sitemap_lists_them(site):
    sitemap = (site / "sitemap.xml").read_text()  # written: the build was given its URL
    assert "<loc>https://example.org/site/reference/devcontext.explain.html</loc>" in sitemap
    assert "<loc>https://example.org/site/performance.html</loc>" in sitemap
