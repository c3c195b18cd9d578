"""The site: deterministic, atomic, safe, linked, valid against its schemas."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from generator.errors import BuildError
from generator.site import urls
from generator.writer import write_site
from layerkit import issue, write_layer
from sitekit import build, internal_target, scan, tree_bytes

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory) -> Path:
    return build(None, tmp_path_factory.mktemp("demo") / "site")


def test_demo_site_has_every_page_and_json(demo_site):
    files = tree_bytes(demo_site)
    for name in ("index.html", "plan.html", "diagnostics.html", "search.html", "404.html",
                 "static/style.css", "api/v1/index.json", "api/v1/objects.json",
                 "api/v1/schemas/compiled-context.schema.json"):
        assert name in files, name
    index = json.loads(files["api/v1/index.json"])
    objects = json.loads(files["api/v1/objects.json"])
    assert len(index["contexts"]) == 15  # 12 issues + 3 milestones
    for ctx in index["contexts"]:
        assert ctx["page"] in files and ctx["json_url"] in files
    for obj in objects:
        assert obj["page"] in files and obj["json_url"] in files
    assert len(objects) == index["objects"]


def test_two_builds_are_byte_identical_also_across_hash_seeds(demo_site, tmp_path):
    again = build(None, tmp_path / "again")
    assert tree_bytes(again) == tree_bytes(demo_site)
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = tmp_path / "seeded"
    subprocess.run([sys.executable, "-m", "generator", "build", "--out", str(out), "-q"],
                   check=True, env=env, cwd=tmp_path, capture_output=True)
    assert tree_bytes(out) == tree_bytes(demo_site)


@pytest.mark.parametrize("workers", ["1", "2", "3"])
def test_worker_processes_do_not_change_a_byte(demo_site, tmp_path, monkeypatch, workers):
    """Contexts and object pages compiled and rendered in forked workers (every item,
    however few) give the same site as one process."""
    monkeypatch.setenv("DEVCONTEXT_WORKERS", workers)
    monkeypatch.setattr("generator.workers.WARMUP_SECONDS", 0)
    monkeypatch.setattr("generator.workers.POOL_WORTH_SECONDS", 0)
    out = build(None, tmp_path / f"workers-{workers}")
    assert tree_bytes(out) == tree_bytes(demo_site)


def test_no_absolute_paths_or_clock_in_any_output(demo_site):
    for rel, data in tree_bytes(demo_site).items():
        text = data.decode("utf-8", "replace")
        assert str(ROOT) not in text, rel
        assert str(demo_site.parent) not in text, rel


def test_every_internal_link_resolves_to_a_file_and_anchor(demo_site):
    ids_cache: dict[str, set[str]] = {}
    broken = []
    for page in sorted(demo_site.rglob("*.html")):
        rel = page.relative_to(demo_site).as_posix()
        for attr, url in scan(page).links:
            target = internal_target(rel, url)
            if target is None:
                continue
            path, fragment = target
            if not (demo_site / path).is_file():
                broken.append(f"{rel}: {attr}={url}")
                continue
            if fragment and path.endswith(".html"):
                ids = ids_cache.setdefault(path, scan(demo_site / path).ids)
                if fragment not in ids:
                    broken.append(f"{rel}: {url} (no #{fragment})")
    assert broken == []


def test_every_json_file_validates_against_its_schema(demo_site):
    schemas = {p.name: json.loads(p.read_text()) for p in (demo_site / "api/v1/schemas").iterdir()}
    api = demo_site / "api/v1"
    checked = 0

    def check(path: Path, schema_name: str) -> None:
        nonlocal checked
        jsonschema.validate(json.loads(path.read_text()), schemas[schema_name])
        checked += 1

    check(api / "index.json", "index.schema.json")
    check(api / "objects.json", "objects.schema.json")
    for path in sorted((api / "objects").rglob("*.json")):
        check(path, "object.schema.json")
    for path in sorted((api / "devcontext").rglob("*.json")):
        check(path, "compiled-context.schema.json")
    assert checked > 90


def test_compiled_json_is_the_engine_wire_form(demo_site):
    from generator.engine.compile import compile_context
    from generator.engine.models import CompileInput
    from generator.jsonio import canonical_json
    from generator.workspace import Workspace

    ws = Workspace.open(None)
    expected = canonical_json(compile_context(ws.index, CompileInput(issue="I0201")))
    assert (demo_site / urls.context_json("issue", "I0201")).read_bytes() == expected


def test_objects_json_laid_out_from_kept_rows_is_the_model_serialised(demo_site):
    """objects.json is joined from per-object rows (kept between rebuilds): the bytes are
    those of the model serialised whole, and a kept row is used only for the same object
    with the same derived state."""
    from generator.jsonio import canonical_json
    from generator.site.records import ObjectsIndex, ObjectSummary
    from generator.site.rowcache import RowCache
    from generator.workspace import Workspace

    index = Workspace.open(None).index
    expected = canonical_json(ObjectsIndex([ObjectSummary(
        uri=o.uri, kind=o.kind, identity=o.identity, title=o.title, status=o.status,
        state=index.issue_states[o.uri].state if o.uri in index.issue_states else None,
        version=o.version, path=o.provenance.path, page=urls.object_page(o.uri),
        json_url=urls.object_json(o.uri)) for o in sorted(index.objects.values(), key=lambda o: o.uri)]))
    assert (demo_site / "api/v1/objects.json").read_bytes() == expected

    rows = RowCache()
    obj = next(iter(index.objects.values()))
    made = []
    make = lambda: made.append(1) or f"row {len(made)}"  # noqa: E731
    assert rows.text("t", obj, "READY", make) == "row 1"
    assert rows.text("t", obj, "READY", make) == "row 1"  # kept
    assert rows.text("t", obj, "DONE", make) == "row 2"  # derived value moved
    assert rows.text("t", obj.model_copy(), "DONE", make) == "row 3"  # an equal, other object
    rows.keep_only(set())
    assert len(rows) == 0


def test_object_pages_link_to_the_anchor_of_their_standing(demo_site):
    record = json.loads((demo_site / urls.object_json("majordomus://issue/I0104")).read_text())
    standings = {(g["context_kind"], c): g for g in record["standings"] for c, _ in g["contexts"]}
    assert standings["issue", "I0201"]["standing"] == "selected"
    # a context's page is derived from its kind and id, the row from the record's anchor
    assert record["context_anchor"] in scan(demo_site / urls.context_page("issue", "I0201")).ids
    # and the object's page links each context it lists to that row
    page = urls.object_page("majordomus://issue/I0104")
    links = {v for _, v in scan(demo_site / page).links if "contexts/issue/I0201.html" in v}
    assert links == {"../../contexts/issue/I0201.html#" + record["context_anchor"]}


def test_identity_file_names_are_reversible():
    for identity in ["I0001", "project.x@1", ".ai/repo/policy.yaml", "a b/c~d", "ünï/çødé", "~"]:
        name = urls.encode_name(identity)
        assert "/" not in name and not name.startswith(".")
        assert all(c.isalnum() or c in "._-@~" for c in name)
        assert urls.decode_name(name) == identity
    long = "x/" * 200
    assert len(urls.encode_name(long)) <= urls.MAX_NAME


HOSTILE = {
    ".ai/repo/project/milestones/m1.yaml": "id: m1\ntitle: <script>alert(1)</script>\noutcome: '<img src=x onerror=alert(2)>'\n",
    ".ai/repo/project/issues/I0001.yaml": (
        "id: I0001\nmilestone: m1\ntitle: '\"><svg onload=alert(3)>'\nobjective: <b onmouseover=alert(4)>x</b>\n"
        "scope: ['javascript:alert(5)']\nnotes: \"</pre><script>alert(6)</script>\"\n"),
    ".ai/repo/adrs/0001-x.md": (
        "---\nid: adr-0001\ntitle: \"<iframe src=javascript:alert(7)>\"\nstatus: accepted\n"
        "related: ['rule:<script>alert(8)</script>']\n---\n"
        "# Hi\n\n<script>alert(9)</script>\n\n[click](javascript:alert(10)) "
        "[data](data:text/html,<script>alert(11)</script>) <img src=x onerror=alert(12)>\n\n"
        "[vb](vbscript:msgbox) [ok](https://example.org/) ![i](javascript:alert(13))\n"),
    ".ai/repo/rules/project/x.v1.md": "---\nid: 'project.<x>\" onclick=\"alert(14)'\nversion: 1\ntitle: ok\n---\n",
}


def test_a_hostile_layer_produces_no_executable_markup(tmp_path):
    repo = write_layer(tmp_path / "repo", HOSTILE)
    site = build(repo, tmp_path / "site")
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 5
    for page in pages:
        found = scan(page)
        rel = page.relative_to(site).as_posix()
        assert found.handlers == [], rel
        assert found.dangerous_urls == [], rel
        for script in found.scripts:
            if rel == "404.html" and script.get("id") == "site-root":
                continue  # the 404 page's root finder: template text, nothing from the layer
            # Only our own: the search index (JSON data), search.js and copy.js.
            assert script.get("type") == "application/json" or script.get("src", "").endswith(
                ("static/search.js", "static/copy.js")), rel
        text = page.read_text()
        assert "<script>alert" not in text and "<img src=x" not in text and "<svg onload" not in text, rel
    adr_page = site / urls.object_page("majordomus://adr/adr-0001")
    html_text = adr_page.read_text()
    assert "&lt;script&gt;alert(9)&lt;/script&gt;" in html_text  # shown as text, not run
    assert 'href="https://example.org/"' in html_text


def test_a_failed_build_leaves_the_previous_site_intact(tmp_path, demo_site):
    out = tmp_path / "site"
    write_site([("index.html", b"old"), ("stale.html", b"stale")], out)

    def failing():
        yield "index.html", b"new"
        raise BuildError("boom")

    with pytest.raises(BuildError):
        write_site(failing(), out)
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no temporary left behind
    write_site([("index.html", b"new")], out)
    assert sorted(p.name for p in out.iterdir()) == [".devcontext-site", "index.html"]  # stale files never survive


def test_writer_refuses_paths_outside_the_site(tmp_path):
    with pytest.raises(BuildError, match="not a plain relative path"):
        write_site([("../escape.html", b"x")], tmp_path / "site")
    assert not (tmp_path / "escape.html").exists()


def test_build_command_prints_a_summary(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "generator", "build", "--out", str(tmp_path / "s")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.strip().splitlines()[-1]
    assert line.startswith(f"built {tmp_path / 's'}: ") and "pages" in line and "JSON files" in line
    assert "contexts (0 over budget)" in line and line.endswith("s")
    assert proc.stderr == ""  # no progress bar when not on a terminal


def test_a_broken_layer_still_builds_and_shows_its_diagnostics(tmp_path):
    repo = write_layer(tmp_path / "repo", {
        ".ai/repo/project/issues/I0001.yaml": issue("I0001"),
        ".ai/repo/project/issues/I0002.yaml": "id: [broken\n",
    })
    site = build(repo, tmp_path / "site")
    text = (site / "diagnostics.html").read_text()
    assert ".ai/repo/project/issues/I0002.yaml" in text and "yaml_syntax" in text
    assert (site / urls.context_page("issue", "I0001")).is_file()


def test_real_layer_builds_and_links_resolve(real_layer, tmp_path):
    site = build(real_layer, tmp_path / "site")
    index = json.loads((site / "api/v1/index.json").read_text())
    assert len(index["contexts"]) == 56 + 65
    missing = []
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        for _, url in scan(page).links:
            target = internal_target(rel, url)
            if target and not (site / target[0]).is_file():
                missing.append((rel, url))
    assert missing == []


def test_the_overview_files_are_made_with_the_collector_the_jobs_have(monkeypatch):
    """The overview pages run after every context: the heap then holds the whole standing
    table, which the collector must not walk again and again (it is frozen, as in the
    jobs), and the collector is as it was once the build is over."""
    import gc

    from generator import workers
    from generator.demo import demo_root
    from generator.engine.compile import GitInfo
    from generator.site import pipeline
    from generator.site.build import SiteInputs, page_kit
    from generator.site.templating import TEMPLATES_DIR
    from generator.workspace import Workspace

    seen: list[int] = []
    real = pipeline.overview_files

    def watched(*args, **kwargs):
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "overview_files", watched)
    before = gc.get_threshold()
    ws = Workspace.open(demo_root())
    kit = page_kit(SiteInputs(index=ws.index, label="t", files=ws.tree.files))
    files = dict(pipeline.site_files(kit, GitInfo(), TEMPLATES_DIR))
    assert "index.html" in files
    assert seen == [max(before[0], workers.JOB_GEN0_THRESHOLD)]
    assert gc.get_threshold() == before
