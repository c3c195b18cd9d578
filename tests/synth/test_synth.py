"""Tests for generator.synth: deterministic synthetic AI layers."""

from __future__ import annotations

import collections
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

# libyaml when present: the medium layer has ~2,000 documents to parse.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

from generator import synth
from generator.errors import BuildError, InputError

REPO_ROOT = Path(__file__).resolve().parents[2]
REAL_LAYER = REPO_ROOT.parent / "shared" / "data" / "majordomus-layer" / ".ai"

ISSUE_PATH = re.compile(r"\.ai/repo/project/issues/I(\d{4,})\.yaml")
ADR_PATH = re.compile(r"\.ai/repo/adrs/(\d{4})-[a-z0-9-]+\.md")
RULE_PATH = re.compile(r"\.ai/repo/rules/project/([a-z0-9-]+)\.v(\d+)\.md")
SESSION_PATH = re.compile(
    r"\.ai/repo/sessions/(\d{8}T\d{6}Z)--(s-\d{14}-[0-9a-f]{4})--([a-z0-9-]+)--"
    r"([0-9a-f]{7})--[0-9a-f]{16}\.md"
)


# ---- helpers --------------------------------------------------------------------------------


def digest(files: dict[str, bytes]) -> str:
    sha = hashlib.sha256()
    for path in sorted(files):
        sha.update(path.encode() + b"\0" + files[path] + b"\0")
    return sha.hexdigest()


def kind_of(path: str) -> str:
    if ISSUE_PATH.fullmatch(path):
        return "issue"
    if path.startswith(".ai/repo/project/milestones/") and path.endswith(".yaml"):
        return "milestone"
    if ADR_PATH.fullmatch(path):
        return "adr"
    if RULE_PATH.fullmatch(path):
        return "rule"
    if path.startswith(".ai") and path.endswith("/README.md"):
        return "context"
    if path.startswith(".ai/repo/knowledge/curated/"):
        return "knowledge"
    if path.startswith(".ai/repo/sessions/"):
        return "session"
    if path.startswith(".ai/repo/use-cases/"):
        return "use-case"
    if path.startswith(".ai/repo/project/intents/"):
        return "intent"
    if path.startswith("src/") and path.endswith(".py"):
        return "source"
    if path.startswith("tests/") and path.endswith(".py"):
        return "test"
    if path == "README.md":
        return "readme"
    return "config"


def counts(files: dict[str, bytes]) -> collections.Counter:
    return collections.Counter(kind_of(p) for p in files)


def split_front_matter(text: str) -> tuple[str, str]:
    assert text.startswith("---\n"), text[:60]
    end = text.index("\n---\n", 4)
    return text[4 : end + 1], text[end + 5 :]


QUIRK_LINE = re.compile(r"^(title|description): (.*: .*)$", re.MULTILINE)


def load_yaml(text: str) -> tuple[object, bool]:
    """Parse with PyYAML; a document refused only for the dialect's unquoted ': ' is parsed
    again with that one line quoted, and reported as a quirk."""
    try:
        return yaml.load(text, Loader=SafeLoader), False
    except yaml.YAMLError:
        fixed = QUIRK_LINE.sub(lambda m: f"{m.group(1)}: '{m.group(2)}'", text)
        return yaml.load(fixed, Loader=SafeLoader), True


def records(files: dict[str, bytes]) -> tuple[dict[str, object], list[str]]:
    """Every YAML file and front matter, parsed; and the paths that needed the dialect."""
    out: dict[str, object] = {}
    quirks: list[str] = []
    for path, data in files.items():
        text = data.decode("utf-8")
        if path.endswith(".yaml"):
            source = text
        elif path.endswith(".md") and text.startswith("---\n"):
            source = split_front_matter(text)[0]
        else:
            continue
        out[path], quirk = load_yaml(source)
        if quirk:
            quirks.append(path)
    return out, quirks


def issues_of(parsed: dict[str, object]) -> dict[str, dict]:
    return {o["id"]: o for p, o in parsed.items() if ISSUE_PATH.fullmatch(p)}


def derived_state(issue: dict, issues: dict[str, dict]) -> str:
    if issue.get("cancelled_at"):
        return "CANCELLED"
    if issue.get("completed_at"):
        return "DONE"
    if issue.get("verified_at"):
        return "VERIFY"
    if issue.get("started_at"):
        return "ACTIVE"
    deps = issue.get("depends_on") or []
    done = all(d in issues and issues[d].get("completed_at") for d in deps)
    return "READY" if done else "BLOCKED"


# ---- fixtures -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small() -> dict[str, bytes]:
    return synth.synthesize("small")


@pytest.fixture(scope="module")
def small_parsed(small) -> tuple[dict[str, object], list[str]]:
    return records(small)


@pytest.fixture(scope="module")
def medium() -> dict[str, bytes]:
    return synth.synthesize("medium")


@pytest.fixture(scope="module")
def medium_parsed(medium) -> tuple[dict[str, object], list[str]]:
    return records(medium)


@pytest.fixture(scope="module")
def large_files() -> dict[str, bytes]:
    return synth.synthesize("large")


# ---- API and determinism --------------------------------------------------------------------


def test_public_api():
    assert set(synth.__all__) == {"SIZES", "Shape", "synthesize", "write_layer"}
    assert sorted(synth.SIZES) == ["large", "medium", "small"]
    assert all(isinstance(s, synth.Shape) for s in synth.SIZES.values())


def test_modules_and_functions_stay_small():
    # The package was split out of one 1,551-line module; keep each part readable.
    import ast

    package = REPO_ROOT / "generator" / "synth"
    too_long = []
    for module in sorted(package.glob("*.py")):
        text = module.read_text(encoding="utf-8")
        if text.count("\n") > 500:
            too_long.append(f"{module.name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.end_lineno - node.lineno >= 80:
                too_long.append(f"{module.name}:{node.name}: {node.end_lineno - node.lineno + 1}")
    assert too_long == []


def test_same_arguments_same_bytes(small):
    again = synth.synthesize("small")
    assert again == small
    assert list(again) == sorted(again)  # sorted output
    assert synth.synthesize("small", issues=24) == small  # the same effective shape


def test_output_is_paths_to_bytes(small):
    for path, data in small.items():
        assert isinstance(data, bytes)
        assert not path.startswith("/") and "\\" not in path and ".." not in path.split("/")
        data.decode("utf-8")


def test_independent_of_hash_seed(small, medium):
    code = (
        "import hashlib, sys\n"
        "from generator import synth\n"
        "for size in ('small', 'medium'):\n"
        "    files = synth.synthesize(size)\n"
        "    sha = hashlib.sha256()\n"
        "    for path in sorted(files):\n"
        "        sha.update(path.encode() + b'\\0' + files[path] + b'\\0')\n"
        "    print(sha.hexdigest())\n"
    )
    expected = f"{digest(small)}\n{digest(medium)}\n"
    for seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO_ROOT)}
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO_ROOT, env=env,
            capture_output=True, text=True, check=True,
        )
        assert result.stdout == expected


def test_different_arguments_differ(small):
    assert synth.synthesize("small", issues=25) != small


# ---- arguments ------------------------------------------------------------------------------


def test_unknown_size_names_the_valid_sizes():
    with pytest.raises(InputError) as caught:
        synth.synthesize("huge")
    message = str(caught.value)
    assert "'huge'" in message
    for size in ("small", "medium", "large"):
        assert size in message


@pytest.mark.parametrize("bad", [-1, 2.5, "10", True])
def test_bad_issue_count_is_refused(bad):
    with pytest.raises(InputError, match="issues"):
        synth.synthesize("small", issues=bad)


@pytest.mark.parametrize("n", [0, 1, 7, 50, 130])
def test_issue_override_is_honoured(n):
    files = synth.synthesize("small", issues=n)
    found = counts(files)
    assert found["issue"] == n
    assert found["milestone"] >= 1
    parsed, _ = records(files)
    milestones = {o["id"] for p, o in parsed.items() if kind_of(p) == "milestone"}
    for issue in issues_of(parsed).values():
        assert issue["milestone"] in milestones


def test_issue_override_scales_the_other_counts():
    found = counts(synth.synthesize("small", issues=240))
    assert found["issue"] == 240
    assert found["milestone"] == 30
    assert found["adr"] == 120
    assert found["session"] == 60


# ---- sizes ----------------------------------------------------------------------------------


def test_small_counts(small):
    found = counts(small)
    assert found["issue"] == 24
    assert found["milestone"] == 3
    assert found["adr"] == 12
    assert 15 <= found["rule"] <= 19  # 15 rule identities, a few also at version 2
    assert found["context"] == 14
    assert found["knowledge"] == 3
    assert found["session"] == 6
    assert found["use-case"] == 3
    assert found["intent"] == 3  # one per milestone
    assert found["source"] == 27 and found["test"] == 9
    assert found["readme"] == 1
    assert found["config"] == 9


def test_medium_counts(medium):
    found = counts(medium)
    assert found["issue"] == 1000
    assert found["milestone"] == 40
    assert found["intent"] == 40
    assert found["adr"] == 100
    assert 60 <= found["rule"] <= 75
    assert found["session"] == 200
    assert found["source"] == 576 and found["test"] == 96


def test_large_thresholds(large_files):
    files = large_files
    found = counts(files)
    assert found["issue"] >= 10_000
    assert found["milestone"] >= 400
    assert found["adr"] >= 1_000
    assert sum(found.values()) >= 30_000
    # ids are I%04d, so they pass 9999 (one number, the dangling one, is skipped)
    assert ".ai/repo/project/issues/I10000.yaml" in files
    assert ".ai/repo/project/issues/I10001.yaml" in files


# ---- shapes: the same keys and file naming as the real layer --------------------------------


def test_everything_parses_and_only_issue_titles_use_the_dialect(small_parsed):
    parsed, quirks = small_parsed
    assert quirks, "some issue titles carry an unquoted ': '"
    for path in quirks:
        assert ISSUE_PATH.fullmatch(path) or path == ".ai/repo/project/issues/README.md"
    for path, obj in parsed.items():
        assert isinstance(obj, dict), path


def test_file_naming(small):
    for path in small:
        kind = kind_of(path)
        if kind == "session":
            assert SESSION_PATH.fullmatch(path), path
        if path.startswith(".ai/repo/adrs/") and not path.endswith("README.md"):
            assert ADR_PATH.fullmatch(path), path
        if path.startswith(".ai/repo/rules/") and not path.endswith("README.md"):
            assert RULE_PATH.fullmatch(path), path
        if kind == "test":
            assert re.fullmatch(r"tests/[a-z_]+/test_[a-z_]+\.py", path), path
        if kind == "source":
            assert re.fullmatch(r"src/[a-z_]+/[a-z_]+/[a-z_]+\.py", path), path


def test_manifest_and_sources(small_parsed):
    parsed, _ = small_parsed
    manifest = parsed[".ai/manifest.yaml"]
    assert manifest["schema"] == "ai-repository/v1"
    assert manifest["repo"] == {"path": "repo"}
    assert manifest["local"] == {"path": "local", "tracked": False, "implicit_context": False}
    assert manifest["context"] == {"documents": ["README.md"]}
    assert manifest["sections"]["use-cases"] == "repo/use-cases"
    assert manifest["sections"]["sessions"] == "repo/sessions"
    sources = parsed[".ai/repo/knowledge/sources.yaml"]
    assert sources["version"] == 1
    by_id = {s["id"]: s for s in sources["sources"]}
    assert by_id["rule"]["pathspec"] == ":(glob).ai/repo/rules/**/*.md"
    assert by_id["source"] == {"id": "source", "kind": "implementation", "discovery": "vcs",
                               "pathspec": ":(glob)src/**/*.py", "required": False}
    assert by_id["tests"]["kind"] == "test"
    assert by_id["readme"]["kind"] == "document"
    for absent in ("adr", "session", "knowledge", "context"):
        assert absent not in by_id


def real_keys(pattern: str) -> set[str]:
    keys: set[str] = set()
    for path in REAL_LAYER.glob(pattern):
        if path.name == "README.md":
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".md":
            if not text.startswith("---\n"):
                continue
            text = split_front_matter(text)[0]
        keys |= set(re.findall(r"^([a-z_][a-z_-]*):", text, re.MULTILINE))
    return keys


@pytest.mark.real_layer
@pytest.mark.skipif(not REAL_LAYER.is_dir(), reason="the real layer is not present")
@pytest.mark.parametrize(
    ("kind", "pattern", "extra"),
    [
        ("issue", "repo/project/issues/*.yaml", {"completed_at", "cancelled_at",
                                                 "cancelled_because"}),
        ("milestone", "repo/project/milestones/*.yaml", set()),
        ("adr", "repo/adrs/*.md", {"supersedes"}),
        ("rule", "repo/rules/project/*.md", set()),
        ("knowledge", "repo/knowledge/curated/*.md", set()),
        ("session", "repo/sessions/*.md", set()),
        ("use-case", "repo/use-cases/*.md", set()),
        ("intent", "repo/project/intents/*.yaml", set()),
        ("context", "**/README.md", set()),
    ],
)
def test_keys_are_the_real_layers(small_parsed, kind, pattern, extra):
    parsed, _ = small_parsed
    if kind == "context":
        real = set()
        for path in REAL_LAYER.glob(pattern):
            text = path.read_text(encoding="utf-8")
            if text.startswith("---\n"):
                real |= set(re.findall(r"^([a-z_]+):", split_front_matter(text)[0], re.M))
    else:
        real = real_keys(pattern)
    mine = {key for p, o in parsed.items() if kind_of(p) == kind for key in o}
    assert mine, kind
    assert mine - real <= extra, sorted(mine - real - extra)


# ---- the graph: DAGs, lifecycle, deliberate dangling references -----------------------------


@pytest.mark.parametrize("size", ["small", "medium"])
def test_issue_dependencies_point_down(size, small_parsed, medium_parsed):
    parsed, _ = {"small": small_parsed, "medium": medium_parsed}[size]
    issues = issues_of(parsed)
    missing = []
    for ident, issue in issues.items():
        deps = issue.get("depends_on", [])
        assert len(deps) <= 3
        for dep in deps:
            assert int(dep[1:]) < int(ident[1:]), (ident, dep)
            if dep not in issues:
                missing.append(dep)
    # Exactly one deliberately dangling id: the gap in the numbering.
    assert len(missing) == 1
    numbers = sorted(int(i[1:]) for i in issues)
    assert numbers == [n for n in range(1, len(issues) + 2) if n != int(missing[0][1:])]


def test_issue_lifecycle_mix(medium_parsed):
    parsed, _ = medium_parsed
    issues = issues_of(parsed)
    states = collections.Counter(derived_state(i, issues) for i in issues.values())
    total = len(issues)
    assert 0.35 <= states["DONE"] / total <= 0.45
    assert states["VERIFY"] and states["ACTIVE"] and states["READY"] and states["BLOCKED"]
    assert 1 <= states["CANCELLED"] <= 0.03 * total
    assert any("depends_on" not in i for i in issues.values())
    assert any("risk" in i for i in issues.values())
    for issue in issues.values():
        if issue.get("completed_at"):
            assert issue["started_at"] <= issue["verified_at"] <= issue["completed_at"]
            assert issue["evidence"]
            for item in issue["evidence"]:
                assert item["type"] == "test"
                assert re.fullmatch(r"[0-9a-f]{40}", item["commit"])
                assert item["covers"] in issue["evidence_required"]
        if issue.get("started_at") and issue.get("depends_on"):
            # work that has started depends only on work that is done
            held = [d for d in issue["depends_on"] if d in issues]
            assert all(issues[d].get("completed_at") for d in held), issue["id"]


def test_small_has_every_derived_state(small_parsed):
    parsed, _ = small_parsed
    issues = issues_of(parsed)
    states = {derived_state(i, issues) for i in issues.values()}
    assert states == {"DONE", "VERIFY", "ACTIVE", "READY", "BLOCKED", "CANCELLED"}


def test_scopes_name_paths_that_exist(small, small_parsed):
    parsed, _ = small_parsed
    dirs = {str(Path(p).parent) for p in small} | {str(Path(p).parent.parent) for p in small}
    for path, obj in parsed.items():
        if kind_of(path) in ("issue", "milestone"):
            assert 1 <= len(obj["scope"]) <= 4
            for entry in obj["scope"]:
                assert entry.startswith(("src/", "tests/"))
                assert entry in small or entry in dirs, (path, entry)
        if kind_of(path) == "session":
            for changed in obj["changed_files"]:
                assert changed in small, (path, changed)


def test_deliberate_dangling_references(small_parsed, small):
    parsed, _ = small_parsed
    adrs = {o["id"]: o for p, o in parsed.items() if kind_of(p) == "adr"}
    superseded = [ref for o in adrs.values() for ref in o.get("supersedes", [])]
    assert superseded and [ref for ref in superseded if ref not in adrs]
    for adr in adrs.values():
        for ref in adr.get("supersedes", []):
            assert ref < adr["id"]
    rules = {f"{o['id']}@{o['version']}" for p, o in parsed.items() if kind_of(p) == "rule"}
    rule_deps = [d for p, o in parsed.items() if kind_of(p) == "rule" for d in o["depends_on"]]
    assert [d for d in rule_deps if d not in rules]
    contexts = [o for p, o in parsed.items() if kind_of(p) == "context"]
    tracked = [t for o in contexts for t in o.get("tracks", [])]
    dirs = {str(Path(p).parent) for p in small} | {str(Path(p).parent.parent) for p in small}
    dangling = [t for t in tracked if t not in small and t not in dirs]
    # a path the `source` class would discover, so it is unresolved rather than external
    assert dangling and all(re.fullmatch(r"src/.+\.py", t) for t in dangling)
    milestones = {o["id"]: o for p, o in parsed.items() if kind_of(p) == "milestone"}
    ms_deps = [d for o in milestones.values() for d in o.get("depends_on", [])]
    assert [d for d in ms_deps if d not in milestones]


def test_adrs_supersede_in_chains(medium_parsed):
    parsed, _ = medium_parsed
    adrs = {o["id"]: o for p, o in parsed.items() if kind_of(p) == "adr"}
    held = [(a, r) for a, o in adrs.items() for r in o.get("supersedes", []) if r in adrs]
    assert held
    statuses = collections.Counter(adrs[r]["status"] for _, r in held)
    assert statuses["superseded"] >= 0.7 * len(held)
    superseders = {a for a, _ in held}
    assert any(r in superseders for _, r in held), "a chain of at least three"
    assert {o["status"] for o in adrs.values()} >= {"accepted", "proposed", "superseded"}


def test_rules_versions_classes_and_statuses(medium_parsed):
    parsed, _ = medium_parsed
    rules = [o for p, o in parsed.items() if kind_of(p) == "rule"]
    versions = collections.Counter(o["id"] for o in rules)
    assert any(n == 2 for n in versions.values())
    blocking = sum(o["class"] == "blocking" for o in rules)
    assert 0.08 <= blocking / len(rules) <= 0.35
    assert any(o["status"] == "deprecated" for o in rules)
    for o in rules:
        assert o["id"].startswith("project.") and o["kind"] == "rule"


def test_milestone_dependencies_point_back(medium_parsed):
    parsed, _ = medium_parsed
    milestones = {o["id"]: o for p, o in parsed.items() if kind_of(p) == "milestone"}
    for ms in milestones.values():
        for dep in ms.get("depends_on", []):
            if dep in milestones:
                assert milestones[dep]["order"] < ms["order"]
    assert any("depends_on" not in o for o in milestones.values())


# ---- write_layer ----------------------------------------------------------------------------


def read_tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_write_layer_round_trip(tmp_path, small):
    out = tmp_path / "layer"
    assert synth.write_layer(small, out) == len(small)
    assert read_tree(out) == small


def test_write_layer_replaces_an_earlier_output(tmp_path, small):
    out = tmp_path / "layer"
    synth.write_layer(synth.synthesize("small", issues=40), out)
    (out / ".ai" / "local").mkdir()
    (out / ".ai" / "local" / "note.md").write_text("kept")
    (out / "site").mkdir()
    (out / "site" / "index.html").write_text("kept")
    assert synth.write_layer(small, out) == len(small)
    tree = read_tree(out)
    assert tree.pop(".ai/local/note.md") == b"kept"
    assert tree.pop("site/index.html") == b"kept"
    assert tree == small  # stale issues, ADRs, sessions ... are gone


def test_write_layer_into_an_empty_directory(tmp_path, small):
    assert synth.write_layer(small, tmp_path) == len(small)


def test_write_layer_refuses_an_unrelated_directory(tmp_path, small):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BuildError, match="does not look like an earlier synth output"):
        synth.write_layer(small, tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_write_layer_refuses_a_real_layer(tmp_path, small):
    (tmp_path / ".ai").mkdir()
    (tmp_path / ".ai" / "manifest.yaml").write_text("schema: ai-repository/v1\n")
    with pytest.raises(BuildError, match="not written by generator.synth"):
        synth.write_layer(small, tmp_path)


def test_write_layer_refuses_a_file(tmp_path, small):
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(BuildError, match="not a directory"):
        synth.write_layer(small, target)


@pytest.mark.parametrize("bad", ["/abs.md", "../up.md", "a//b.md", "a\\b.md", "./a.md"])
def test_write_layer_refuses_paths_outside(tmp_path, bad):
    with pytest.raises(InputError):
        synth.write_layer({bad: b"x"}, tmp_path / "out")
