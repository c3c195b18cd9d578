"""`make loadtest`: ``devcontext serve`` under load, on loopback only, bounded in requests
and time, while the layer is being edited (so rebuilds run).

The server is a real ``devcontext serve`` process on a copy of a layer (the bundled demo by
default; ``--repo PATH`` for another, copied first). Tens of client threads (stdlib
``http.client`` and raw sockets) send a fixed number of requests: static pages and files,
the live API (compile, explain, query explain), bad parameters, unknown pages and malformed
requests (a bad request line, a huge header, too many headers, an oversized URL, a bad
escape, a disallowed method); a few slow clients trickle a request byte by byte or stop
half-way, and never finish. Meanwhile an editor rewrites issue titles (now and then breaking
a file's YAML and mending it at the next edit).

Checks, printed with the figures (requests/s, p50/p95 latency, RSS before/after):

* no answer is a 5xx, and every request gets one of the answers its kind expects;
* compile, explain and query answers equal direct engine calls made in this process on the
  layer as it is on disk, at a checkpoint half-way (the editor pauses, the server settles)
  and at the end;
* the server's resident memory after the load is within a bound of what it was after a
  warm-up pass;
* every slow client is cut off (408, then closed) within the server's head timeout plus a
  margin, and the other clients' latency while slow clients hang stays bounded.

``run(LoadConfig(...))`` is what ``tests/serve/test_load.py`` calls with small numbers.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]

#: The server's head timeout (``generator.serve.handler.Handler.head_timeout``) plus this
#: margin is how long a slow client may hang before the test calls it "not cut off".
CUT_MARGIN = 5.0


@dataclass
class LoadConfig:
    clients: int = 48
    requests: int = 12000
    slow_clients: int = 12
    edits: int = 24
    #: Seconds between two edits.
    edit_every: float = 0.4
    repo: Path | None = None
    #: RSS growth (after the load vs after the warm-up) above this fails the run.
    rss_bound_mib: float = 64.0
    #: p95 latency of the other clients while slow clients hang above this fails the run.
    latency_bound: float = 2.0


@dataclass
class LoadResult:
    config: LoadConfig
    seconds: float = 0.0
    statuses: Counter = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    #: (seconds since start, latency) of every regular request.
    timeline: list[tuple[float, float]] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    compared: int = 0
    rss_before: int = 0
    rss_after: int = 0
    #: (kind, seconds until the server cut it off or None, what it answered)
    slow: list[tuple[str, float | None, str]] = field(default_factory=list)
    slow_window: tuple[float, float] = (0.0, 0.0)
    builds: int = 0
    head_timeout: float = 10.0

    @property
    def total(self) -> int:
        return sum(self.statuses.values())

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if isinstance(status, int) and status >= 500)

    def all_latencies(self) -> list[float]:
        return sorted(itertools.chain.from_iterable(self.latencies.values()))

    def latencies_while_slow(self) -> list[float]:
        start, end = self.slow_window
        return sorted(lat for at, lat in self.timeline if start <= at <= end)

    @property
    def cut_off(self) -> int:
        return sum(1 for _, seconds, _ in self.slow
                   if seconds is not None and seconds <= self.head_timeout + CUT_MARGIN)

    def failures(self) -> list[str]:
        """Every check that did not hold, in words (empty when all held)."""
        out = []
        if self.server_errors:
            out.append(f"{self.server_errors} answers were 5xx: "
                       f"{sorted((s, n) for s, n in self.statuses.items() if isinstance(s, int) and s >= 500)}")
        out.extend(self.unexpected[:10])
        out.extend(self.mismatches[:10])
        if self.compared == 0:
            out.append("no answer was compared with the engine's")
        growth = (self.rss_after - self.rss_before) / 2**20
        if growth > self.config.rss_bound_mib:
            out.append(f"the server's RSS grew by {growth:.1f} MiB (bound "
                       f"{self.config.rss_bound_mib:g} MiB)")
        if self.cut_off != len(self.slow):
            out.append(f"only {self.cut_off} of {len(self.slow)} slow clients were cut off within "
                       f"{self.head_timeout + CUT_MARGIN:g} s: {self.slow}")
        during = self.latencies_while_slow()
        if self.slow and not during:
            out.append("no regular request ran while the slow clients hung")
        if during and pct(during, 95) > self.config.latency_bound:
            out.append(f"p95 latency while slow clients hung was {pct(during, 95):.3f} s "
                       f"(bound {self.config.latency_bound:g} s)")
        return out

    def report(self) -> str:
        lat = self.all_latencies()
        during = self.latencies_while_slow()
        lines = [
            f"requests             {self.total:,} in {self.seconds:.1f} s = "
            f"{self.total / max(self.seconds, 1e-9):,.0f} requests/s "
            f"({self.config.clients} clients, {self.builds} builds during the run)",
            f"latency              p50 {pct(lat, 50) * 1000:.1f} ms, p95 {pct(lat, 95) * 1000:.1f} ms, "
            f"max {lat[-1] * 1000 if lat else 0:.1f} ms",
        ]
        for kind in sorted(self.latencies):
            values = sorted(self.latencies[kind])
            lines.append(f"  {kind:<18} {len(values):>6,}  p50 {pct(values, 50) * 1000:7.1f} ms  "
                         f"p95 {pct(values, 95) * 1000:7.1f} ms")
        lines += [
            f"statuses             {', '.join(f'{s}: {n:,}' for s, n in sorted(self.statuses.items(), key=str))}",
            f"5xx answers          {self.server_errors}",
            f"engine comparisons   {self.compared} equal, {len(self.mismatches)} different",
            f"server RSS           {self.rss_before / 2**20:.1f} MiB after warm-up, "
            f"{self.rss_after / 2**20:.1f} MiB after the load "
            f"({(self.rss_after - self.rss_before) / 2**20:+.1f} MiB)",
            f"slow clients cut off {self.cut_off} of {len(self.slow)} (after "
            + ", ".join(f"{s:.1f} s" if s is not None else "never" for _, s, _ in self.slow) + ")",
            f"slow clients heard   " + ", ".join(f"{what} ×{n}" for what, n in sorted(
                Counter(what for _, _, what in self.slow).items())),
            f"while they hung      {len(during):,} other requests, p95 "
            f"{pct(during, 95) * 1000:.1f} ms, max {during[-1] * 1000 if during else 0:.1f} ms",
        ]
        return "\n".join(lines)


def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = values if all(a <= b for a, b in zip(values, values[1:])) else sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


# -- the server process ----------------------------------------------------------------

class ServerProcess:
    """``devcontext serve`` in its own process on a free loopback port."""

    def __init__(self, repo: Path, out: Path) -> None:
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8", "TZ": "UTC"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "--repo", str(repo), "--out", str(out),
             "--port", "0"], cwd=repo.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=env)
        self.lines: list[str] = []
        self.port = self._wait_serving()
        # keep reading what it prints, so a full pipe never blocks it
        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=self._drain, args=(stream,), daemon=True).start()

    def _wait_serving(self, timeout: float = 180.0) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            found = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
            if found:
                return int(found.group(1))
        self.proc.kill()
        raise RuntimeError(f"devcontext serve did not start: {''.join(self.lines)}"
                           f"{self.proc.stderr.read()}")

    def _drain(self, stream) -> None:
        for line in stream:
            self.lines.append(line)

    def rss(self) -> int:
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS in /proc status")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


# -- requests ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Job:
    kind: str
    #: "http": path over a kept-alive connection; "raw": bytes on a fresh socket
    how: str
    target: str | bytes
    expect: frozenset[int]


ADR = "majordomus://adr/adr-0004"


def _jobs(issues: list[str], milestones: list[str], uris: list[str]) -> list[Job]:
    """One round of the mix (the clients cycle through it)."""
    ok, bad, missing = frozenset({200}), frozenset({400}), frozenset({404})
    jobs: list[Job] = []
    for page in ("/", "/index.html", "/plan.html", "/diagnostics.html", "/search.html",
                 "/static/style.css", "/api/v1/index.json", "/objects/adr/adr-0004.html"):
        jobs.append(Job("static", "http", page, ok))
    for issue in issues[:6]:
        jobs += [Job("static", "http", f"/contexts/issue/{issue}.html", ok),
                 Job("static", "http", f"/objects/issue/{issue}.html", ok),
                 Job("static", "http", f"/api/v1/devcontext/compile/issue/{issue}.json", ok)]
    jobs.append(Job("not found", "http", "/objects/issue/NOPE/deeper.html", missing))
    for i, issue in enumerate(issues[:6]):
        uri = uris[i % len(uris)]
        jobs.append(Job("explain", "http", "/api/v1/devcontext/explain?" + urlencode(
            {"uri": uri, "issue": issue}), ok))
        jobs.append(Job("compile", "http", "/api/v1/devcontext/compile?" + urlencode(
            {"issue": issue, "budget_tokens": str(4000 + 1000 * i)}), ok))
    for milestone in milestones[:2]:
        jobs.append(Job("compile", "http", "/api/v1/devcontext/compile?" + urlencode(
            {"milestone": milestone}), ok))
    for value in ("stale", "cache", "reading age", "export csv"):
        jobs.append(Job("query", "http", "/v1/explain?" + urlencode(
            {"kind": "text", "value": value}), ok))
    jobs.append(Job("query", "http", "/v1/explain?" + urlencode({"kind": "cross_ref", "value": ADR}),
                    frozenset({200, 400, 404})))
    # bad parameters
    for query in ("issue=I0201&budget_tokens=abc", "issue=I0201&floor=2", "issue=I0201&bogus=1",
                  "issue=I0201&issue=I0202", "issue=I0201&paths=../etc"):
        jobs.append(Job("bad parameters", "http", "/api/v1/devcontext/compile?" + query, bad))
    jobs.append(Job("bad parameters", "http", "/api/v1/devcontext/explain?issue=I0201", bad))
    jobs.append(Job("bad parameters", "http", "/api/v1/devcontext/compile?issue=I9999", missing))
    jobs.append(Job("bad parameters", "http", "/v1/explain?kind=nonsense&value=x",
                    frozenset({400, 404})))
    # malformed requests, each on a fresh socket
    jobs += [
        Job("malformed", "raw", b"GARBAGE\r\n\r\n", bad),
        Job("malformed", "raw", b"GET / HTTP/1.1 extra\r\n\r\n", bad),
        Job("malformed", "raw", b"GET / FTP/1.0\r\n\r\n", bad),
        Job("malformed", "raw", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n", frozenset({414})),
        Job("malformed", "raw", b"GET / HTTP/1.1\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n",
            frozenset({431})),
        Job("malformed", "raw", b"GET / HTTP/1.1\r\n" + b"".join(
            b"X-H%d: 1\r\n" % i for i in range(80)) + b"\r\n", frozenset({431})),
        Job("malformed", "raw", b"GET / HTTP/1.1\r\n" + b"".join(
            b"X-H%d: %s\r\n" % (i, b"c" * 4000) for i in range(9)) + b"\r\n", frozenset({431})),
        Job("malformed", "raw", b"GET /%ff%fe.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", bad),
        Job("malformed", "raw", b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", bad),
        Job("malformed", "raw", b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
            frozenset({405})),
        Job("malformed", "raw", b"GET /api/v1/devcontext/compile?issue=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            frozenset({400, 404})),
    ]
    return jobs


def _raw(port: int, data: bytes, timeout: float = 30.0) -> int | str:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before reading it all
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    answer = b"".join(chunks)
    if not answer.startswith(b"HTTP/1."):
        return "no answer"
    return int(answer.split(b" ", 2)[1])


class _Client:
    """One client thread's kept-alive connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def get(self, path: str) -> tuple[int, bytes]:
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.conn.request("GET", path)
                resp = self.conn.getresponse()
                body = resp.read()
                if resp.will_close:
                    self.conn.close()
                    self.conn = None
                return resp.status, body
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = None
                if attempt:  # a fresh connection failed too
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


# -- slow clients ------------------------------------------------------------------------

def _slow_client(port: int, kind: str, started: float, give_up: float,
                 out: list, lock: threading.Lock) -> None:
    """Trickle (a byte every 0.2 s, never ending the head) or stall (half a head, then
    nothing); record how long until the server cut the connection and what it said."""
    begin = time.monotonic()
    answer = b""
    cut: float | None = None
    with socket.create_connection(("127.0.0.1", port), timeout=1.0) as sock:
        if kind == "stall":
            sock.sendall(b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
        endless = itertools.cycle(b"GET /plan.html HTTP/1.1\r\nX-Trickle: " + b"z" * 64)
        while time.monotonic() - begin < give_up:
            try:
                if kind == "trickle":
                    sock.send(bytes([next(endless)]))
                    time.sleep(0.2)
                    sock.setblocking(False)
                    try:
                        chunk = sock.recv(4096)
                    except BlockingIOError:
                        chunk = None
                    finally:
                        sock.setblocking(True)
                        sock.settimeout(1.0)
                else:
                    try:
                        chunk = sock.recv(4096)
                    except socket.timeout:
                        chunk = None
                if chunk is None:
                    continue
                answer += chunk
                if not chunk:
                    cut = time.monotonic() - begin
                    break
            except (BrokenPipeError, ConnectionResetError):
                cut = time.monotonic() - begin
                break
    status = answer.split(b"\r\n", 1)[0].decode("latin-1") if answer else "closed without a word"
    with lock:
        out.append((kind, cut, status))


# -- the engine, in this process --------------------------------------------------------

def _engine_answer(repo: Path, out: Path, path: str) -> bytes:
    from urllib.parse import parse_qsl, urlsplit

    from generator.engine import compile_context, explain, parse_input
    from generator.gitinfo import read_git
    from generator.jsonio import canonical_json
    from generator.query import explain_query
    from generator.serve.live_api import request_fields
    from generator.workspace import Workspace

    parts = urlsplit(path)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    index = Workspace.open(repo, exclude=[out]).index
    git = read_git(repo, working_tree=False)
    if parts.path == "/v1/explain":
        return canonical_json(explain_query(index, dict(pairs)))
    is_explain = parts.path.endswith("/explain")
    request = parse_input(request_fields(pairs), explain=is_explain, text=True)
    if is_explain:
        return canonical_json(explain(index, request, git=git))
    return canonical_json(compile_context(index, request, git=git))


def _settle(port: int, quiet: float = 1.5, timeout: float = 60.0) -> dict:
    """Wait until the server's build number has not moved for ``quiet`` seconds (the
    watcher's debounce and the rebuild are over) and the last rebuild succeeded."""
    import json

    client = _Client(port)
    try:
        end = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < end:
            status = json.loads(client.get("/__devcontext/status")[1])
            if status != last:
                last, since = status, time.monotonic()
            elif time.monotonic() - since >= quiet and status["error"] is None:
                return status
            time.sleep(0.1)
        raise RuntimeError(f"the server did not settle in {timeout:g} s: {last}")
    finally:
        client.close()


def _compare(port: int, repo: Path, out: Path, samples: list[str], result: LoadResult,
             lock: threading.Lock) -> None:
    client = _Client(port)
    try:
        for path in samples:
            status, body = client.get(path)
            expected = _engine_answer(repo, out, path)
            for _ in range(2):
                if status == 200 and body == expected:
                    break
                # On a starved machine the watcher may not have seen the last edit within
                # settle's quiet window: wait longer and ask again (a real difference stays).
                _settle(port, quiet=5.0)
                status, body = client.get(path)
                expected = _engine_answer(repo, out, path)
            with lock:
                if status != 200 or body != expected:
                    result.mismatches.append(f"{path}: the server answered {status} with "
                                             f"{len(body)} bytes, the engine {len(expected)} bytes")
                else:
                    result.compared += 1
    finally:
        client.close()


# -- the editor --------------------------------------------------------------------------

def _editor(repo: Path, files: list[Path], config: LoadConfig, stop: threading.Event,
            checkpoint: Callable[[], None]) -> int:
    """Rewrite issue titles; every fifth edit breaks a file's YAML, the next mends it. At
    half-way and at the end, settle and compare (``checkpoint``)."""
    originals = {p: p.read_text(encoding="utf-8") for p in files}
    broken: Path | None = None
    done = 0
    for n in range(config.edits):
        if stop.is_set():
            break
        if broken is not None:
            broken.write_text(originals[broken], encoding="utf-8")
            broken = None
        else:
            path = files[n % len(files)]
            text = originals[path]
            if n % 5 == 4:
                path.write_text(text.replace("\ntitle: ", "\ntitle: [unclosed ", 1), encoding="utf-8")
                broken = path
            else:
                originals[path] = text = re.sub(r"\ntitle: (.*)", lambda m: f"\ntitle: {m.group(1)} ·",
                                                text, count=1)
                path.write_text(text, encoding="utf-8")
        done += 1
        if n == config.edits // 2:
            if broken is not None:
                broken.write_text(originals[broken], encoding="utf-8")
                broken = None
            checkpoint()
        stop.wait(config.edit_every)
    if broken is not None:
        broken.write_text(originals[broken], encoding="utf-8")
    return done


# -- the run -------------------------------------------------------------------------------

def run(config: LoadConfig, say: Callable[[str], None] = lambda line: None) -> LoadResult:
    from generator.demo import demo_root
    from generator.serve.handler import Handler as _Handler

    result = LoadResult(config, head_timeout=_Handler.head_timeout)
    base = Path(tempfile.mkdtemp(prefix="devcontext-loadtest-"))
    server: ServerProcess | None = None
    try:
        repo = base / "repo"
        shutil.copytree(config.repo or demo_root(), repo, copy_function=shutil.copyfile,
                        ignore=shutil.ignore_patterns(".git"))
        out = base / "site"
        say(f"building and serving a copy of {config.repo or 'the demo layer'} ...")
        server = ServerProcess(repo, out)
        port = server.port
        issue_files = sorted((repo / ".ai/repo/project/issues").glob("*.yaml"))
        issues = [p.stem for p in issue_files]
        milestones = sorted(p.stem for p in (repo / ".ai/repo/project/milestones").glob("*.yaml"))
        uris = [ADR, "majordomus://adr/adr-0002", "majordomus://issue/" + issues[0]]
        jobs = _jobs(issues, milestones, uris)
        samples = [j.target for j in jobs if j.kind in ("compile", "explain", "query")
                   and j.expect == frozenset({200})][::2]
        lock = threading.Lock()

        # warm-up: every job once, then the resident memory to compare with
        warm = _Client(port)
        for job in jobs * 3:
            if job.how == "http":
                warm.get(job.target)
            else:
                _raw(port, job.target)
        warm.close()
        result.rss_before = server.rss()
        first_build = _settle(port)["build"]

        counter = itertools.count()
        started = time.monotonic()
        paused = threading.Event()  # set while a checkpoint compares answers
        in_flight = [0]

        def client() -> None:
            conn = _Client(port)
            try:
                while True:
                    with lock:
                        in_flight[0] += 1
                    if paused.is_set():
                        with lock:
                            in_flight[0] -= 1
                        while paused.is_set():
                            time.sleep(0.02)
                        continue
                    try:
                        i = next(counter)
                        if i >= config.requests:
                            return
                        job = jobs[i % len(jobs)]
                        t0 = time.monotonic()
                        try:
                            status = (conn.get(job.target)[0] if job.how == "http"
                                      else _raw(port, job.target))
                        except (OSError, http.client.HTTPException) as exc:
                            status = f"client error {type(exc).__name__}"
                        t1 = time.monotonic()
                        with lock:
                            result.statuses[status] += 1
                            result.latencies.setdefault(job.kind, []).append(t1 - t0)
                            result.timeline.append((t0 - started, t1 - t0))
                            if status not in job.expect:
                                result.unexpected.append(
                                    f"{job.kind} {job.target[:120]!r}: answered {status}, "
                                    f"expected one of {sorted(job.expect)}")
                    finally:
                        with lock:
                            in_flight[0] -= 1
            finally:
                conn.close()

        threads = [threading.Thread(target=client, daemon=True) for _ in range(config.clients)]

        def checkpoint() -> None:
            paused.set()
            end = time.monotonic() + 60
            while time.monotonic() < end:
                with lock:
                    if in_flight[0] == 0:
                        break
                time.sleep(0.02)
            try:
                _settle(port)
                _compare(port, repo, out, samples, result, lock)
            finally:
                paused.clear()

        slow: list = []
        give_up = result.head_timeout + CUT_MARGIN + 5
        slow_threads = [threading.Thread(target=_slow_client, args=(
            port, ("trickle", "stall")[i % 2], started, give_up, slow, lock), daemon=True)
            for i in range(config.slow_clients)]
        for t in slow_threads:
            t.start()
        for t in threads:
            t.start()
        stop = threading.Event()
        editor = threading.Thread(target=_editor, args=(repo, issue_files, config, stop, checkpoint),
                                  daemon=True)
        editor.start()
        for t in threads:
            t.join()
        result.seconds = time.monotonic() - started  # the regular clients' run
        for t in slow_threads:
            t.join()
        stop.set()
        editor.join()
        cuts = [cut for _, cut, _ in slow if cut is not None]
        # the window in which every slow client still hung
        result.slow_window = (0.0, min(cuts) if cuts else give_up)
        result.slow = sorted(slow, key=lambda s: (s[0], s[1] or 0))
        final = _settle(port)
        result.builds = final["build"] - first_build
        _compare(port, repo, out, samples, result, lock)
        result.rss_after = server.rss()
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(base, ignore_errors=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loadtest", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=LoadConfig.clients)
    parser.add_argument("--requests", type=int, default=LoadConfig.requests)
    parser.add_argument("--slow-clients", type=int, default=LoadConfig.slow_clients)
    parser.add_argument("--edits", type=int, default=LoadConfig.edits)
    parser.add_argument("--repo", type=Path, default=None,
                        help="a layer to copy and serve (default: the bundled demo layer)")
    args = parser.parse_args(argv)
    config = LoadConfig(clients=args.clients, requests=args.requests,
                        slow_clients=args.slow_clients, edits=args.edits, repo=args.repo)
    result = run(config, say=print)
    print(result.report())
    failures = result.failures()
    for failure in failures:
        print(f"FAILED: {failure}")
    print("all checks held" if not failures else f"{len(failures)} checks failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
