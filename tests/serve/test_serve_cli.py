"""``devcontext serve`` as a process: it serves, Ctrl-C stops it cleanly (exit 0), a taken
port is a clear message, binding beyond loopback is warned about; and an open page in a
real browser reloads after an edit."""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.demo import demo_root
from servekit import EventStream, request, serve

ROOT = Path(__file__).resolve().parents[2]


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child before it runs: Ctrl-C at its default, as a terminal starts a program.
    A non-interactive shell starts a background job (``make test &``) with SIGINT ignored,
    the test run inherits that, and Python started with SIGINT ignored keeps ignoring it,
    as nohup asks, so the server would not stop on the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def _start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "generator", "serve", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                 "LC_ALL": "C.UTF-8", "TZ": "UTC"},
                            preexec_fn=_ctrl_c_as_at_a_terminal)


def _wait_serving(proc: subprocess.Popen, timeout: float = 120.0) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        found = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return int(found.group(1))
    proc.kill()
    raise AssertionError(f"the server did not start: {proc.stderr.read()}")


def test_serve_answers_and_ctrl_c_stops_it_cleanly(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(demo_root(), repo)
    proc = _start(["--repo", str(repo), "--out", str(tmp_path / "site"), "--port", "0"], tmp_path)
    try:
        port = _wait_serving(proc)
        status, _, body = request(port, "/")
        assert status == 200 and b"devcontext-livereload" in body
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    with pytest.raises(OSError):  # the port is closed
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    assert (tmp_path / "site/index.html").is_file()


def test_a_taken_port_is_a_clear_message(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "generator", "serve", "--port", str(port),
                               "--out", str(tmp_path / "site")], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert f"port {port} on 127.0.0.1 is taken" in proc.stderr and "--port" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "site").exists()  # refused before building anything


def test_binding_beyond_loopback_is_warned_about(tmp_path):
    proc = _start(["--host", "0.0.0.0", "--port", "0", "--out", str(tmp_path / "site"), "-q"],
                  tmp_path)
    try:
        warning = proc.stderr.readline()  # written before anything is built
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "warning: binding 0.0.0.0" in warning and "--host 127.0.0.1" in warning
    assert proc.returncode == 0, err


def test_make_serve_runs_the_verb():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^serve:.*\n\t\$\(BIN\)/devcontext serve --out site", makefile, re.M)


def test_an_open_page_reloads_after_an_edit(browser, tmp_path):
    served = serve(tmp_path, watch=True)
    page = browser.new_page()
    try:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"http://127.0.0.1:{served.port}/contexts/issue/I0201.html")
        page.wait_for_function("() => window.__devcontextEvents && "
                               "window.__devcontextEvents.readyState === 1", timeout=30_000)
        page.evaluate("() => { window.__before = true; }")
        issue = served.box.repo / ".ai/repo/project/issues/I0201.yaml"
        issue.write_text(issue.read_text().replace("title: A stale", "title: Reloaded in the browser: a stale", 1))
        page.wait_for_function("() => !window.__before && document.readyState === 'complete'",
                               timeout=60_000)
        assert "Reloaded in the browser" in page.content()
        # a broken template shows the overlay in the open page, the fix removes it
        template = served.box.templates / "context.html"
        good = template.read_text()
        template.write_text(good.replace("{% block main %}", "{% block main %}{{ nope.nope }}", 1))
        page.wait_for_selector("#devcontext-error", timeout=60_000)
        assert "templates/context.html" in page.inner_text("#devcontext-error")
        template.write_text(good)
        page.wait_for_function("() => !document.getElementById('devcontext-error')", timeout=60_000)
        assert errors == []
    finally:
        page.close()
        served.close()


def test_events_stream_survives_a_client_going_away(tmp_path):
    served = serve(tmp_path, watch=False)
    try:
        for _ in range(3):
            stream = EventStream(served.port)
            assert stream.next()[0] == "hello"
            stream.close()
        assert request(served.port, "/")[0] == 200
    finally:
        served.close()


def test_a_first_build_that_fails_says_where_and_exits_2(tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    page = templates / "plan.html"
    page.write_text(page.read_text().replace("{% block main %}", "{% block main %}{% if %}", 1))
    proc = subprocess.run([sys.executable, "-m", "generator", "serve", "--port", "0", "-q",
                           "--templates", str(templates), "--out", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    assert "the first build failed (templates/plan.html:3)" in proc.stderr
    assert "Traceback" not in proc.stderr and str(tmp_path) not in proc.stderr


def test_a_deleted_output_directory_is_written_again(tmp_path):
    served = serve(tmp_path, watch=False)
    try:
        shutil.rmtree(served.site)
        issue = served.box.repo / ".ai/repo/project/issues/I0101.yaml"
        issue.write_text(issue.read_text() + "\n# edited\n")
        report = served.session.builder.rebuild([served.box.rel(issue)])
        assert report.mode == "full" and (served.site / "index.html").is_file()
    finally:
        served.close()
