"""Properties over random layers and random requests: every invariant the schema
descriptions state (``enginekit.check_invariants``), explain agreeing with the answer, the
request-bound exclusions being undone by the value their detail names, the caches, and
determinism — the same input gives the same bytes, in this process and across processes
with different ``PYTHONHASHSEED``.

Layers: the synthetic ``small`` layer at several issue counts (written once per count) and
small generated layers shaped like the fixture base layer (rules with random classes,
statuses, versions and dependencies; issues with random milestones, dependencies and
scopes; ADRs with random supersedes and related rules; sessions; contracts), dangling
references included.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from enginekit import (
    LayerCache,
    bring_back_request,
    check_explain,
    check_invariants,
    compile_dict,
    standings_agree,
)
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from generator.engine import EngineCache, ExplainInput, GitInfo, explain, parse_input
from generator.engine.cache import COMPILE_CACHE_SIZE, EXPLAIN_CACHE_SIZE
from generator.index import Index
from generator.jsonio import canonical_json
from generator.synth import synthesize, write_layer
from generator.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
#: ENGINE_TEST_EXAMPLES raises the example count for a long exploratory run.
_EXAMPLES = int(os.environ.get("ENGINE_TEST_EXAMPLES", "60"))
SETTINGS = settings(max_examples=_EXAMPLES, deadline=None, derandomize=_EXAMPLES <= 60,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])

# ---------------------------------------------------------------------------------------
# Layers
# ---------------------------------------------------------------------------------------

_SYNTH: dict[int, Index] = {}
_SYNTH_ROOT: list[Path] = []
SYNTH_SIZES = (0, 3, 8, 24)


@pytest.fixture(scope="module")
def synth_root(tmp_path_factory) -> Path:
    if not _SYNTH_ROOT:
        _SYNTH_ROOT.append(tmp_path_factory.mktemp("synth"))
    return _SYNTH_ROOT[0]


def synthetic(root: Path, issues: int) -> Index:
    """``synthesize("small", issues=N)`` on disk and indexed, once per N."""
    if issues not in _SYNTH:
        out = root / f"small-{issues}"
        write_layer(synthesize("small", issues=issues), out)
        _SYNTH[issues] = Workspace.open(out).index
    return _SYNTH[issues]


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> LayerCache:
    return LayerCache(tmp_path_factory.mktemp("generated"))


MANIFEST = """\
schema: ai-repository/v1
repo: {path: repo}
local: {path: local, tracked: false, implicit_context: false}
sections:
  policy: repo/policy.yaml
  scope: repo/scope.yaml
  profiles: repo/profiles
  rules: repo/rules
  adrs: repo/adrs
  project: repo/project
  knowledge: repo/knowledge
  sessions: repo/sessions
context:
  documents: [README.md]
"""
SOURCES = """\
version: 1
sources:
  - {id: library, kind: implementation, discovery: vcs, pathspec: ':(glob)lib/*.sh'}
  - {id: case, kind: test, discovery: vcs, pathspec: ':(glob)test/cases/*.sh'}
"""
FILES = ["lib/a.sh", "lib/b.sh", "lib/c.sh", "test/cases/01_a.sh", "test/cases/02_b.sh"]
SCOPES = ["lib", "test", "test/cases", "lib/a.sh", ".ai/repo/rules", "docs", "lib/gone.sh"]
WORDS = ["cache", "fetch", "units", "thing", "alpha", "rule", "decision", "lib", "cases", "the",
         "with", "of"]
STATUSES = ["active", "active", "active", "deprecated", "superseded", "rejected"]


def _flow(items) -> str:
    return "[" + ", ".join(str(i) for i in items) + "]"


@st.composite
def layer_files(draw) -> dict[str, str]:
    """A small planned-like layer with random relations (dangling ones included)."""
    # sometimes a second class indexes lib/*.sh as documents too (path de-duplication)
    sources = SOURCES + ("  - {id: script, kind: document, discovery: vcs, "
                         "pathspec: ':(glob)lib/*.sh'}\n" if draw(st.booleans()) else "")
    files: dict[str, str] = {
        ".ai/manifest.yaml": MANIFEST,
        ".ai/repo/knowledge/sources.yaml": sources,
        ".ai/repo/policy.yaml": "version: 1\n",
        ".ai/repo/profiles/implementation.yaml": "name: implementation\n",
    }
    if draw(st.booleans()):
        files[".ai/repo/scope.yaml"] = "version: 1\nin: [lib/**]\n"
    for path in FILES:
        files[path] = "#!/bin/sh\n" + "echo x\n" * draw(st.integers(0, 40))
    n_rules = draw(st.integers(1, 6))
    rule_names = [f"project.r{i}" for i in range(n_rules)]
    for i, name in enumerate(rule_names):
        versions = [1, 2] if draw(st.integers(0, 4)) == 0 else [1]
        deps = draw(st.lists(st.sampled_from(rule_names + ["project.missing"]), max_size=2,
                             unique=True))
        deps = [d for d in deps if d != name]
        for v in versions:
            files[f".ai/repo/rules/project/r{i}.v{v}.md"] = (
                f"---\nid: {name}\nversion: {v}\ntitle: Rule {i} {draw(st.sampled_from(WORDS))}\n"
                f"class: {draw(st.sampled_from(['blocking', 'advisory', 'advisory']))}\n"
                f"status: {draw(st.sampled_from(STATUSES))}\n"
                + (f"depends_on: {_flow(deps)}\n" if deps else "")
                + "---\n# Rationale\n" + "Text.\n" * draw(st.integers(0, 30)))
    milestones = ["m1", "m2"]
    for m in milestones:
        deps = draw(st.lists(st.sampled_from(milestones + ["m9"]), max_size=1))
        deps = [d for d in deps if d != m]
        files[f".ai/repo/project/milestones/{m}.yaml"] = (
            f"id: {m}\nslug: milestone-{m}\ntitle: Milestone {m}\n"
            + (f"depends_on: {_flow(deps)}\n" if deps else ""))
    n_issues = draw(st.integers(1, 6))
    issue_ids = [f"I{i:04d}" for i in range(1, n_issues + 1)]
    for iid in issue_ids:
        deps = draw(st.lists(st.sampled_from(issue_ids + ["I0099"]), max_size=2, unique=True))
        deps = [d for d in deps if d != iid]
        scope = draw(st.lists(st.sampled_from(SCOPES), max_size=2, unique=True))
        lines = [f"id: {iid}", f"milestone: {draw(st.sampled_from(milestones + ['m9']))}",
                 f"title: Issue {iid} about {draw(st.sampled_from(WORDS))}"]
        if deps:
            lines.append(f"depends_on: {_flow(deps)}")
        if scope:
            lines.append(f"scope: {_flow(scope)}")
        if draw(st.booleans()):
            lines.append("evidence:\n  - commit: abc123\n    covers: proof")
        files[f".ai/repo/project/issues/{iid}.yaml"] = "\n".join(lines) + "\n"
    n_adrs = draw(st.integers(0, 4))
    for i in range(1, n_adrs + 1):
        sup = draw(st.lists(st.integers(1, i + 1), max_size=2, unique=True))
        sup = [f"adr-{s:04d}" for s in sup if s != i]
        related = draw(st.lists(st.sampled_from(rule_names + ["project.missing"]), max_size=2,
                                unique=True))
        files[f".ai/repo/adrs/{i:04d}-d{i}.md"] = (
            f"---\nid: adr-{i:04d}\ntitle: Decision {i} {draw(st.sampled_from(WORDS))}\n"
            f"status: {draw(st.sampled_from(['accepted', 'accepted', 'superseded']))}\n"
            + (f"supersedes: {_flow(sup)}\n" if sup else "")
            + (f"related: {_flow('rule:' + r for r in related)}\n" if related else "")
            + "---\n# Decision\n")
    files[".ai/README.md"] = (
        "---\nschema: context/v1\nid: ai.layer\nkind: context\ntitle: The layer\nstatus: active\n"
        f"scope: subtree\ntracks: {_flow(draw(st.lists(st.sampled_from(SCOPES), max_size=2)))}\n"
        "---\n# Layer\n")
    if draw(st.booleans()):
        files[".ai/repo/rules/README.md"] = (
            "---\nschema: context/v1\nid: ai.repo.rules\nkind: context\ntitle: Rules\n"
            f"status: active\nscope: {draw(st.sampled_from(['subtree', 'directory']))}\n---\n# R\n")
    for i in range(draw(st.integers(0, 2))):
        changed = draw(st.lists(st.sampled_from(FILES), max_size=2, unique=True))
        files[f".ai/repo/sessions/s-{i}.md"] = (
            f"---\nschema: session/v1\nkind: session\nsession_id: s-{i}\ntitle: Session {i}\n"
            f"branch: {draw(st.sampled_from(['master', 'feature']))}\noutcome: closed\n"
            + (f"changed_files: {_flow(changed)}\n" if changed else "") + "---\nNotes.\n")
    return files


# ---------------------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------------------

@st.composite
def requests(draw, index: Index) -> tuple[dict[str, Any], str | None]:
    request: dict[str, Any] = {}
    issues = [o.identity for o in index.by_kind.get("issue", [])]
    milestones = index.by_kind.get("milestone", [])
    if issues and draw(st.booleans()):
        request["issue"] = draw(st.sampled_from(issues))
    if milestones and draw(st.integers(0, 3)) == 0:
        m = draw(st.sampled_from(milestones))
        request["milestone"] = draw(st.sampled_from([m.identity, m.uri]))
    if draw(st.integers(0, 3)) == 0:
        request["uris"] = draw(st.lists(st.sampled_from(sorted(index.objects)), min_size=1,
                                        max_size=2, unique=True))
    if draw(st.integers(0, 2)) == 0:
        dirs = sorted({o.provenance.directory for o in index.objects.values()} - {"."})
        request["paths"] = draw(st.lists(st.sampled_from(dirs + SCOPES), min_size=1, max_size=2))
    if draw(st.integers(0, 2)) == 0:
        words = [w for o in list(index.objects.values())[:40] for w in (o.title or "").split()]
        request["intent"] = " ".join(draw(st.lists(st.sampled_from(words + WORDS), min_size=1,
                                                   max_size=5)))
    if draw(st.booleans()):
        request["budget_tokens"] = draw(st.one_of(st.sampled_from([1, 10, 100, 500, 2000]),
                                                  st.integers(1, 30000)))
    if draw(st.booleans()):
        request["floor"] = draw(st.one_of(st.sampled_from([0.0, 0.25, 0.4, 0.45, 0.6, 0.9, 1.0]),
                                          st.floats(0, 1)))
    if draw(st.booleans()):
        request["max_depth"] = draw(st.integers(0, 5))
    if draw(st.integers(0, 3)) == 0:
        request["all_blocking_rules"] = True
    branch = draw(st.sampled_from([None, None, "master", "feature", "main"]))
    return request, branch


def _event(text: str) -> None:
    """Count what the examples exercised (--hypothesis-show-statistics); a no-op outside
    a hypothesis test."""
    try:
        event(text)
    except InvalidArgument:
        pass


def _check_all(index: Index, request: dict[str, Any], branch: str | None, rechecks: int = 3):
    compiled = compile_dict(index, request, branch)
    check_invariants(compiled, index)
    standings_agree(index, compiled, extra=["majordomus://adr/9999"])
    for reason in sorted({x.reason.value for x in compiled.excluded}):
        _event(f"excluded for {reason}")
    for key in sorted({d.key for d in compiled.deduplicated}):
        _event(f"dedup key {key}")
    if compiled.budget.over_budget:
        _event("over budget")
    # determinism in the process: the same input, the same bytes
    assert canonical_json(compile_dict(index, request, branch)) == canonical_json(compiled)
    # request-bound exclusions: the value the detail names undoes them (a few per answer)
    checked = 0
    for row in compiled.excluded:
        if not row.reason.request_bound or checked >= rechecks:
            continue
        again = bring_back_request(request, row)
        if again is None:
            continue
        checked += 1
        recompiled = compile_dict(index, again, branch)
        still = {x.uri: x for x in recompiled.excluded}.get(row.uri)
        assert still is None or still.reason is not row.reason, (row, again, still)
        if row.reason.value == "budget":
            assert row.uri in {e.uri for e in recompiled.selected}, (row, again)
    return compiled


# ---------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data(), size=st.sampled_from(SYNTH_SIZES))
def test_invariants_on_synthetic_layers(synth_root, data, size):
    index = synthetic(synth_root, size)
    request, branch = data.draw(requests(index))
    _check_all(index, request, branch)


@SETTINGS
@given(data=st.data(), files=layer_files())
def test_invariants_on_generated_layers(generated, data, files):
    index = generated.index(files)
    request, branch = data.draw(requests(index))
    _check_all(index, request, branch)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), files=layer_files())
def test_a_one_token_budget_keeps_only_the_required(generated, data, files):
    index = generated.index(files)
    request, branch = data.draw(requests(index))
    request["budget_tokens"] = 1
    compiled = compile_dict(index, request, branch)
    assert all(e.required for e in compiled.selected)
    assert compiled.budget.over_budget == (compiled.budget.required_tokens > 1)
    assert compiled.budget.used_tokens == compiled.budget.required_tokens


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), size=st.sampled_from(SYNTH_SIZES))
def test_a_budget_never_changes_what_is_reached(synth_root, data, size):
    """The budget decides what is given, never what is reached: selected ∪ budget-excluded
    is the same under any two budgets, and the other exclusions are identical."""
    index = synthetic(synth_root, size)
    request, branch = data.draw(requests(index))
    small = compile_dict(index, dict(request, budget_tokens=data.draw(st.integers(1, 3000))),
                        branch)
    large = compile_dict(index, dict(request, budget_tokens=10**9), branch)

    def reached(c):
        return {e.uri for e in c.selected} | {x.uri for x in c.excluded if x.reason.value == "budget"}

    def others(c):
        return [x for x in c.excluded if x.reason.value != "budget"]

    assert reached(small) == reached(large)
    assert others(small) == others(large)
    # Semantic collapses do not depend on the budget; structural (`uri`) records name a
    # kept entry, so they follow what the budget selected.
    assert [d for d in small.deduplicated if d.dropped] == [d for d in large.deduplicated if d.dropped]
    assert small.conflicts == large.conflicts
    kept_small = {e.uri for e in small.selected}
    assert [d for d in small.deduplicated if not d.dropped] == [
        d for d in large.deduplicated if not d.dropped and d.kept in kept_small]
    assert not any(x.reason.value == "budget" for x in large.excluded)


@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), size=st.sampled_from(SYNTH_SIZES))
def test_the_caches_answer_what_the_engine_answers(synth_root, data, size):
    index = synthetic(synth_root, size)
    request, branch = data.draw(requests(index))
    git = GitInfo(branch=branch) if branch else None
    cache = EngineCache()
    direct = compile_dict(index, request, branch)
    first = cache.compile(index, parse_input(request), git)
    again = cache.compile(index, parse_input(request), git)
    assert again is first and canonical_json(first) == canonical_json(direct)
    uri = data.draw(st.sampled_from(sorted(index.objects) + ["majordomus://adr/9999"]))
    ask = parse_input(dict(request, uri=uri), explain=True)
    cached = cache.explain(index, ask, git)
    assert cache.explain(index, ask, git) is cached
    assert cached == explain(index, ask, git=git)
    check_explain(index, first, uri)


def test_cache_sizes_and_fingerprint_keying(synth_root):
    small, other = synthetic(synth_root, 3), synthetic(synth_root, 8)
    assert (COMPILE_CACHE_SIZE, EXPLAIN_CACHE_SIZE) == (16, 8)
    cache = EngineCache()
    issues = [o.identity for o in small.by_kind["issue"]]
    for budget in range(1, 21):
        cache.compile(small, parse_input({"budget_tokens": budget * 1000}))
    assert len(cache.compiled) == 16
    for budget in range(1, 11):
        cache.explain(small, ExplainInput(uri="majordomus://adr/9999", budget_tokens=budget))
    assert len(cache.explained) == 8
    # another layer (another fingerprint) never gets this layer's answer
    request = parse_input({"issue": issues[0]} if issues[0] in {o.identity for o in other.by_kind["issue"]} else {})
    a, b = cache.compile(small, request), cache.compile(other, request)
    assert a.fingerprint == small.fingerprint and b.fingerprint == other.fingerprint
    assert a.fingerprint != b.fingerprint


def test_every_issue_and_milestone_of_a_synthetic_layer(synth_root):
    """Not random: every issue and milestone of small-24 at the default request."""
    index = synthetic(synth_root, 24)
    for obj in index.by_kind["issue"] + index.by_kind["milestone"]:
        compiled = _check_all(index, {obj.kind: obj.identity}, "master", rechecks=1)
        assert compiled.selected[0].uri == obj.uri


# ---------------------------------------------------------------------------------------
# Determinism across processes
# ---------------------------------------------------------------------------------------

_SCRIPT = textwrap.dedent("""
    import hashlib, json, sys
    from generator.engine import ExplainInput, GitInfo, compile_context, explain, parse_input
    from generator.jsonio import canonical_json
    from generator.workspace import Workspace
    out = {}
    for root in sys.argv[1:]:
        index = Workspace.open(root).index
        requests = [{}, {"intent": "the cache and the fetch of units"},
                    {"all_blocking_rules": True, "budget_tokens": 500, "floor": 0.4}]
        requests += [{"issue": o.identity} for o in index.by_kind.get("issue", [])[:8]]
        requests += [{"milestone": o.identity, "max_depth": 2}
                     for o in index.by_kind.get("milestone", [])[:3]]
        for i, request in enumerate(requests):
            c = compile_context(index, parse_input(request), git=GitInfo(branch="master"))
            e = explain(index, ExplainInput(uri=sorted(index.objects)[i % len(index.objects)],
                                            **request), git=GitInfo(branch="master"))
            digest = hashlib.sha256(canonical_json(c) + canonical_json(e)).hexdigest()
            out[f"{root}|{json.dumps(request, sort_keys=True)}"] = digest
    print(json.dumps(out, sort_keys=True))
""")


def test_same_bytes_across_processes_and_hash_seeds(synth_root):
    layers = [str(synth_root / "small-24"), str(ROOT / "generator" / "demo" / "layer")]
    synthetic(synth_root, 24)
    outputs = []
    for seed in ("0", "1", "4242", "random"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        proc = subprocess.run([sys.executable, "-c", _SCRIPT, *layers], capture_output=True,
                              text=True, env=env, cwd=ROOT, timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr
        outputs.append(json.loads(proc.stdout))
    assert len(outputs[0]) >= 10
    assert all(o == outputs[0] for o in outputs[1:])
