"""The registry's benchmark cases on every transport each operation is exposed on.

For every operation whose policy requires a benchmark, each of its declared cases
(:data:`generator.operations.OPERATIONS`) is timed on each transport of its exposure:

- ``direct``: the in-process call through the registry's :class:`Runner`;
- ``http``: ``GET`` on the live server's route, over one kept-alive loopback connection;
- ``mcp``: ``tools/call`` to a ``devcontext mcp`` subprocess, through the SDK's client.

``cold`` is a call with empty caches (a fresh runner, a fresh server, a fresh MCP
process); ``warm`` the same call again. p50 and p95 per (operation, case, transport,
state), in milliseconds, each row tagged ``{"figure": "operation", "operation",
"transport", "case", "phase": "cold"|"warm", "stat": "p50"|"p95", "layer"}`` for the
reference and performance pages (a cell the live server does not serve is written as NaN,
not measured). Also: the MCP server's cold start (spawn → initialised → first answer).
On the real layer when present, else the demo layer. Targets (warm explain, p50): ≤ 1 ms
direct, ≤ 5 ms over HTTP and MCP.
"""

from __future__ import annotations

import functools
import http.client
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import anyio

from generator.demo import demo_root
from generator.engine.compile import GitInfo
from generator.operations import OPERATIONS, Operation, Runner
from generator.workspace import Workspace

from .layers import ROOT, real

COLD_ROUNDS = {"direct": 5, "http": 5, "mcp": 3}
WARM_CALLS = 60
TARGETS_MS = {("devcontext.explain", "direct"): 1.0, ("devcontext.explain", "http"): 5.0,
              ("devcontext.explain", "mcp"): 5.0}


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def _ms(call: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    call()
    return (time.perf_counter() - t0) * 1e3


# -- the transports --------------------------------------------------------------------------


def _direct(op: Operation, index, files, arguments: dict, cold: bool) -> list[float]:
    if cold:
        return [_ms(lambda: Runner().answer(op, index, arguments, files=files))
                for _ in range(COLD_ROUNDS["direct"])]
    runner = Runner()
    runner.answer(op, index, arguments, files=files)
    return [_ms(lambda: runner.answer(op, index, arguments, files=files))
            for _ in range(WARM_CALLS)]


def _live_server(index, git: GitInfo, out: Path):
    """The live server as ``devcontext serve`` runs it: its API over the last good build."""
    from generator.serve.live_api import API_ROUTES, LiveApi
    from generator.serve.incremental import Snapshot
    from generator.serve.server import DevServer

    snapshot = Snapshot(index=index, git=git, build=1)
    api = LiveApi(lambda: snapshot)
    server = DevServer(out, host="127.0.0.1", port=0, api=api.handle, api_routes=API_ROUTES)
    server.start()
    return server


def _served_routes() -> tuple[str, ...]:
    from generator.serve.live_api import API_ROUTES

    return API_ROUTES


def _query(arguments: dict) -> str:
    pairs = []
    for name, value in arguments.items():
        for item in (value if isinstance(value, (list, tuple)) else [value]):
            pairs.append((name, str(item)))
    return urlencode(pairs)


def _get(conn: http.client.HTTPConnection, target: str) -> None:
    conn.request("GET", target)
    resp = conn.getresponse()
    resp.read()
    if resp.status != 200:
        raise RuntimeError(f"GET {target} answered {resp.status}")


def _http(op: Operation, index, git, arguments: dict, cold: bool, out: Path) -> list[float]:
    target = f"{op.exposure.http_route}?{_query(arguments)}"
    rounds = COLD_ROUNDS["http"] if cold else 1
    times: list[float] = []
    for _ in range(rounds):
        server = _live_server(index, git, out)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        try:
            conn.connect()
            call = functools.partial(_get, conn, target)
            if cold:
                times.append(_ms(call))
            else:
                call()
                times.extend(_ms(call) for _ in range(WARM_CALLS))
        finally:
            conn.close()
            server.close()
    return times


async def _mcp_session(repo: Path, body):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "generator", "mcp", "--repo", str(repo)],
                                   cwd=str(ROOT), env={"PYTHONPATH": str(ROOT)})
    with open(Path(tempfile.gettempdir()) / "bench-mcp.err", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                return await body(client)


async def _mcp_call(client, op: Operation, arguments: dict) -> float:
    """One ``tools/call`` round trip. Sent as the raw request: ``ClientSession.call_tool``
    also re-validates the structured content against the output schema in the client
    (Python jsonschema, ~3 ms for an explanation), which is the client's cost, not the
    server's; the test suite does that validation."""
    import mcp_types as types

    request = types.CallToolRequest(params=types.CallToolRequestParams(
        name=op.exposure.mcp_tool, arguments=arguments))
    t0 = time.perf_counter()
    result = await client.send_request(request, types.CallToolResult)
    elapsed = (time.perf_counter() - t0) * 1e3
    if result.is_error:
        raise RuntimeError(f"{op.exposure.mcp_tool} failed: {result.content[0].text}")
    return elapsed


def _mcp(op: Operation, repo: Path, arguments: dict, cold: bool) -> list[float]:
    async def warm(client) -> list[float]:
        await _mcp_call(client, op, arguments)
        return [await _mcp_call(client, op, arguments) for _ in range(WARM_CALLS)]

    async def first(client) -> list[float]:
        return [await _mcp_call(client, op, arguments)]

    if not cold:
        return anyio.run(_mcp_session, repo, warm)
    times: list[float] = []
    for _ in range(COLD_ROUNDS["mcp"]):
        times.extend(anyio.run(_mcp_session, repo, first))
    return times


def _mcp_cold_start(repo: Path, op: Operation, arguments: dict) -> list[float]:
    """Spawn → initialised → first answer, as a client registering the server sees it."""
    async def first(client) -> None:
        await _mcp_call(client, op, arguments)

    times = []
    for _ in range(COLD_ROUNDS["mcp"]):
        t0 = time.perf_counter()
        anyio.run(_mcp_session, repo, first)
        times.append((time.perf_counter() - t0) * 1e3)
    return times


# -- the matrix ------------------------------------------------------------------------------


def matrix_tags(op_id: str, transport: str, case: str, phase: str, stat: str,
                layer: str) -> dict[str, str]:
    """The tags of one cell of the operation matrix (the reference and performance pages
    look figures up by them: ``generator.benchresults``)."""
    return {"figure": "operation", "operation": op_id, "transport": transport, "case": case,
            "phase": phase, "stat": stat, "layer": layer}



def main(report) -> None:
    repo = real() or demo_root()
    label = "real" if repo != demo_root() else "demo"
    ws = Workspace.open(repo)
    from generator.gitinfo import read_git

    git = read_git(ws.root)
    out = Path(tempfile.mkdtemp(prefix="bench-transports-"))
    for op in OPERATIONS:
        if not op.policies.benchmark_required:
            continue
        for case in op.benchmark_cases:
            arguments = case.arguments(ws.index)
            for transport in op.exposure.transports:
                for state in ("cold", "warm"):
                    cold = state == "cold"
                    name = f"{label}: {op.id} {case.name} {transport} {state}"
                    if transport == "direct":
                        times = _direct(op, ws.index, ws.tree.files, arguments, cold)
                    elif transport == "http":
                        if op.exposure.http_route not in _served_routes():
                            # written as not measured (NaN), so the pages say which cell is missing
                            for stat in ("p50", "p95"):
                                report(f"{name} {stat}", float("nan"), "ms",
                                       "skipped: the live server does not serve "
                                       f"{op.exposure.http_route}",
                                       matrix_tags(op.id, transport, case.name, state, stat, label))
                            continue
                        times = _http(op, ws.index, git, arguments, cold, out)
                    else:
                        times = _mcp(op, repo, arguments, cold)
                    target = TARGETS_MS.get((op.id, transport)) if not cold else None
                    note = f"n={len(times)}" + (f", target p50 ≤ {target:g} ms" if target else "")
                    report(f"{name} p50", statistics.median(times), "ms", note,
                           matrix_tags(op.id, transport, case.name, state, "p50", label))
                    report(f"{name} p95", _p95(times), "ms", "",
                           matrix_tags(op.id, transport, case.name, state, "p95", label))
    explain = next(op for op in OPERATIONS if op.id == "devcontext.explain")
    start = _mcp_cold_start(repo, explain, explain.benchmark_cases[0].arguments(ws.index))
    report(f"{label}: mcp cold start (spawn → initialise → first explain) p50",
           statistics.median(start), "ms", f"n={len(start)}",
           {"figure": "mcp-start", "layer": label, "stat": "p50"})
