"""The one depth-first walk the cycle finders share (states, supersedes, the plan's chains)."""

from __future__ import annotations

from generator.graphwalk import depth_first, first_cycles


def test_every_closing_edge_is_met_and_each_cycle_reported_once():
    walk = depth_first({"a": ["b"], "b": ["a", "c", "a"], "c": ["b"], "d": ["d", "zz"]})
    assert walk.back_edges == [("b", "a", ("a", "b", "a")), ("c", "b", ("b", "c", "b")),
                               ("b", "a", ("a", "b", "a")), ("d", "d", ("d", "d"))]
    assert first_cycles(walk) == [("a", "b", "a"), ("b", "c", "b"), ("d", "d")]
    assert walk.finished == ["c", "b", "a", "d"]  # each after what it leads to


def test_a_long_chain_needs_no_recursion():
    n = 20_000
    walk = depth_first({f"n{i}": [f"n{i + 1}"] if i + 1 < n else [] for i in range(n)})
    assert walk.finished[0] == f"n{n - 1}" and walk.back_edges == []
    assert len(walk.finished) == n
