"""Derived issue states: facts first, then dependencies."""

from __future__ import annotations

from generator.index import build_index
from generator.layer.loader import load_repository
from layerkit import issue, write_layer


def states(tmp_path, issues: dict[str, str]):
    files = {f".ai/repo/project/issues/{i}.yaml": text for i, text in issues.items()}
    files[".ai/repo/project/milestones/m1.yaml"] = "id: m1\ntitle: M1\n"
    index = build_index(load_repository(write_layer(tmp_path, files))[1])
    return {uri.rsplit("/", 1)[1]: s for uri, s in index.issue_states.items()}, index


def test_each_state_from_its_facts_and_dependencies(tmp_path):
    got, _ = states(tmp_path, {
        "I0001": issue("I0001", started_at="2026-01-01", completed_at="2026-01-02"),
        "I0002": issue("I0002", depends_on=["I0001"]),
        "I0003": issue("I0003", depends_on=["I0002"]),
        "I0004": issue("I0004", started_at="2026-01-01", depends_on=["I0002"]),
        "I0005": issue("I0005", started_at="2026-01-01", verified_at="2026-01-03"),
        "I0006": issue("I0006", cancelled_at="2026-01-04", completed_at="2026-01-05"),
        "I0007": issue("I0007", depends_on=["I0006"]),
        "I0008": issue("I0008", depends_on=["I9999"]),
    })
    assert {k: v.state for k, v in got.items()} == {
        "I0001": "DONE", "I0002": "READY", "I0003": "BLOCKED", "I0004": "ACTIVE",
        "I0005": "VERIFY", "I0006": "CANCELLED", "I0007": "READY", "I0008": "BLOCKED",
    }
    assert got["I0003"].reasons == ("depends on I0002, which is READY",)
    assert got["I0003"].blocked_by == ("majordomus://issue/I0002",)
    assert got["I0004"].reasons == ("started at 2026-01-01", "depends on I0002, which is READY")
    assert "cancelled" in got["I0007"].reasons[0]
    assert got["I0008"].reasons == ("depends on I9999, which is not in the layer",)


def test_a_cycle_blocks_and_is_reported_once(tmp_path):
    got, index = states(tmp_path, {
        "I0001": issue("I0001", depends_on=["I0002"]),
        "I0002": issue("I0002", depends_on=["I0001"]),
        "I0003": issue("I0003", depends_on=["I0001"]),
    })
    assert {k: v.state for k, v in got.items()} == {"I0001": "BLOCKED", "I0002": "BLOCKED", "I0003": "BLOCKED"}
    cycles = [d for d in index.diagnostics if d.code == "dependency_cycle"]
    assert len(cycles) == 1 and "I0001 -> I0002 -> I0001" in cycles[0].message


def test_a_long_chain_does_not_recurse(tmp_path):
    chain = {f"I{n:04d}": issue(f"I{n:04d}", depends_on=[f"I{n - 1:04d}"] if n > 1 else []) for n in range(1, 3001)}
    got, _ = states(tmp_path, chain)
    assert got["I0001"].state == "READY" and got["I3000"].state == "BLOCKED"
