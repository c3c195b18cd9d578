"""``devcontext serve`` under a bounded load on loopback while the layer is edited: no 5xx,
every request answered as its kind expects, live answers equal to the engine's, memory
flat, slow clients cut off without stalling the others (``benchmarks/loadtest.py``; ``make
loadtest`` runs it with larger numbers)."""

from __future__ import annotations

from benchmarks.loadtest import LoadConfig, run


def test_the_server_under_load_while_the_layer_is_edited():
    result = run(LoadConfig(clients=16, requests=1500, slow_clients=4, edits=8,
                            rss_bound_mib=48.0, latency_bound=2.0))
    print(result.report())
    assert result.failures() == []
    assert result.total == 1500 and result.server_errors == 0
    assert result.compared >= 10 and result.cut_off == 4
    assert result.builds >= 2  # the edits were rebuilt while the clients ran
    assert {"static", "compile", "explain", "query", "bad parameters", "malformed"} <= set(result.latencies)
