"""The plan's chains: cycles found once, and the critical path as the longest chain of
unfinished work (hypothesis on random graphs, against an exhaustive search)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from generator.site.plan.chains import back_edges, critical_path, cycles


@st.composite
def dags(draw, max_nodes: int = 9):
    """A random DAG: node i may depend only on nodes j < i; some nodes are finished."""
    n = draw(st.integers(min_value=0, max_value=max_nodes))
    names = [f"n{i}" for i in range(n)]
    deps = {names[i]: draw(st.lists(st.sampled_from(names[:i]), unique=True)) if i else []
            for i in range(n)}
    unfinished = set(draw(st.lists(st.sampled_from(names), unique=True))) if names else set()
    return deps, unfinished


def _all_chains(deps, unfinished):
    """Every chain of unfinished nodes, prerequisite first (exhaustive; small graphs)."""
    out = []

    def extend(chain):
        out.append(tuple(chain))
        for node, prereqs in deps.items():
            if node in unfinished and chain[-1] in prereqs and node not in chain:
                extend(chain + [node])

    for start in sorted(unfinished):
        extend([start])
    return out


def _is_chain(path, deps, unfinished):
    return (all(n in unfinished for n in path)
            and all(a in deps[b] for a, b in zip(path, path[1:]))
            and len(set(path)) == len(path))


@settings(max_examples=300, deadline=None)
@given(dags())
def test_the_critical_path_is_a_chain_and_none_is_longer(graph):
    deps, unfinished = graph
    path = critical_path(deps, unfinished)
    assert _is_chain(path, deps, unfinished)
    longest = max((len(c) for c in _all_chains(deps, unfinished)), default=0)
    assert len(path) == longest


@st.composite
def graphs(draw, max_nodes: int = 8):
    """Any graph, cycles and self-loops included, with a name that is no node."""
    n = draw(st.integers(min_value=1, max_value=max_nodes))
    names = [f"n{i}" for i in range(n)]
    deps = {m: draw(st.lists(st.sampled_from(names + ["ghost"]), unique=True)) for m in names}
    unfinished = set(draw(st.lists(st.sampled_from(names), unique=True)))
    return deps, unfinished


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_on_a_cyclic_graph_the_path_is_still_a_chain_and_cutting_back_edges_leaves_a_dag(graph):
    deps, unfinished = graph
    path = critical_path(deps, unfinished)
    assert _is_chain(path, {k: [t for t in v] for k, v in deps.items()}, unfinished)
    assert bool(path) == bool(unfinished)
    cut = back_edges(deps)
    kept = {n: [t for t in ts if t in deps and (n, t) not in cut] for n, ts in deps.items()}
    assert cycles(kept) == [] and back_edges(kept) == set()
    for cycle in cycles(deps):
        assert cycle[0] == cycle[-1]
        assert all(b in deps[a] for a, b in zip(cycle, cycle[1:]))


def test_a_hand_checked_graph():
    deps = {"a": [], "b": ["a"], "c": ["b"], "d": ["a"], "e": ["d", "c"], "f": []}
    assert critical_path(deps, set(deps)) == ("a", "b", "c", "e")
    # finished work cuts the chain: with b done, the longest open chain goes through d
    assert critical_path(deps, set(deps) - {"b"}) == ("a", "d", "e")
    assert critical_path(deps, set()) == ()


def test_each_cycle_is_reported_once_in_dependency_order():
    deps = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["d"], "e": ["a"]}
    assert cycles(deps) == [("a", "b", "c", "a"), ("d", "d")]
    assert critical_path(deps, set(deps)) == ("c", "b", "a", "e")
