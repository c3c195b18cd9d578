"""``devcontext serve`` over real HTTP on a free loopback port: static pages with the
live-reload snippet, the live API, refusals (traversal, limits, methods, tokens), and an
edit followed by a rebuild and a reload event read from the event stream."""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest

from generator.engine import ExplainInput, explain
from generator.jsonio import canonical_json
from generator.serve.server import (
    MAX_HEADER_BYTES,
    MAX_HEADER_LINE,
    MAX_HEADERS,
    MAX_REQUEST_LINE,
    DevServer,
    PortInUse,
)
from generator.workspace import Workspace
from servekit import EventStream, raw, request, serve, status_of

SNIPPET_ID = b'id="devcontext-livereload"'


@pytest.fixture(scope="module")
def served():
    base = Path(tempfile.mkdtemp(prefix="devcontext-serve-"))
    s = serve(base, watch=False)
    try:
        yield s
    finally:
        s.close()
        shutil.rmtree(base, ignore_errors=True)


# -- static pages --------------------------------------------------------------------------

def test_pages_are_served_with_the_snippet_and_the_files_stay_clean(served):
    status, head, body = served.get("/")
    assert status == 200 and head["content-type"] == "text/html; charset=utf-8"
    assert SNIPPET_ID in body and body.rstrip().endswith(b"</html>")
    on_disk = (served.site / "index.html").read_bytes()
    assert SNIPPET_ID not in on_disk
    assert body.replace(body[body.index(b"<script id=\"devcontext-livereload\""):body.rindex(b"</body>")], b"") == on_disk
    assert int(head["content-length"]) == len(body)
    for page in ("/plan.html", "/contexts/issue/I0201.html", "/objects/adr/adr-0004.html"):
        status, head, body = served.get(page)
        assert status == 200 and SNIPPET_ID in body, page


def test_json_and_assets_are_served_as_built(served):
    for path, kind in (("/api/v1/index.json", "application/json"),
                       ("/static/style.css", "text/css; charset=utf-8"),
                       ("/api/v1/devcontext/compile/issue/I0201.json", "application/json")):
        status, head, body = served.get(path)
        assert status == 200 and head["content-type"] == kind
        assert body == (served.site / path.lstrip("/")).read_bytes()


def test_head_answers_headers_only_and_unknown_pages_are_404(served):
    status, head, body = served.get("/plan.html", method="HEAD")
    assert status == 200 and body == b"" and int(head["content-length"]) > 0
    status, head, body = served.get("/no/such/page.html")
    assert status == 404 and b"There is no page here" in body and SNIPPET_ID in body
    status, head, _ = served.get("/contexts")
    assert status == 301 and head["location"] == "/contexts/"


def test_only_get_and_head(served):
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "PATCH"):
        status, head, body = served.get("/", method=method)
        assert status == 405, method
        assert head["allow"] == "GET, HEAD"
        assert json.loads(body)["error"]["code"] == "method_not_allowed"


# -- the live API --------------------------------------------------------------------------

ADR = "majordomus://adr/adr-0004"


def test_explain_answers_as_the_engine_does(served):
    status, head, body = served.get(f"/api/v1/devcontext/explain?uri={ADR}&issue=I0201")
    assert status == 200 and head["content-type"] == "application/json"
    index = Workspace.open(served.box.repo).index
    assert body == canonical_json(explain(index, ExplainInput(uri=ADR, issue="I0201")))
    data = json.loads(body)
    assert data["uri"] == ADR and data["standing"] in ("selected", "excluded", "deduplicated",
                                                        "not_reached")


def test_compile_equals_the_built_context_json(served):
    status, _, body = served.get("/api/v1/devcontext/compile?issue=I0201")
    assert status == 200
    assert body == (served.site / "api/v1/devcontext/compile/issue/I0201.json").read_bytes()


def test_paths_and_uris_repeat_or_separate_with_commas(served):
    one = served.get("/api/v1/devcontext/compile?paths=lib/cache.py,tests&uris=" + ADR)
    two = served.get(f"/api/v1/devcontext/compile?paths=lib/cache.py&paths=tests&uris={ADR}")
    assert one[0] == two[0] == 200 and one[2] == two[2]
    request_ = json.loads(one[2])["request"]
    assert request_["paths"] == ["lib/cache.py", "tests"] and request_["uris"] == [ADR]
    status, data = served.json("/api/v1/devcontext/explain?uri=" + ADR +
                               "&milestone=offline-reads&budget_tokens=5000&floor=0.5"
                               "&max_depth=2&all_blocking_rules=true&intent=cache")
    assert status == 200 and data["budget"]["limit_tokens"] == 5000


@pytest.mark.parametrize("query,parameter", [
    ("issue=I0201&budget_tokens=abc", "budget_tokens"),
    ("issue=I0201&budget_tokens=0", "budget_tokens"),
    ("issue=I0201&floor=2", "floor"),
    ("issue=I0201&max_depth=-1", "max_depth"),
    ("issue=I0201&bogus=1", "bogus"),
    ("issue=I0201&issue=I0202", "issue"),
    ("issue=I0201&paths=../etc", "paths"),
    ("issue=I0201&paths=", "paths"),
    ("issue=I0201&uris=a,,b", "uris"),
    ("issue=I0201", "uri"),  # explain needs the identifier
    ("uri=&issue=I0201", "uri"),
])
def test_bad_parameters_are_400_naming_the_parameter(served, query, parameter):
    if parameter != "uri":
        query = f"uri={ADR}&{query}"
    status, head, body = served.get("/api/v1/devcontext/explain?" + query)
    assert status == 400, body
    error = json.loads(body)["error"]
    assert error["parameter"] == parameter and error["code"] == "invalid_request"
    assert error["message"] and "Traceback" not in error["message"]


def test_compile_refuses_uri_and_unknown_names_are_404(served):
    status, data = served.json("/api/v1/devcontext/compile?issue=I0201&uri=x")
    assert status == 400 and data["error"]["parameter"] == "uri"
    status, data = served.json("/api/v1/devcontext/compile?issue=I9999")
    assert status == 404 and data["error"] == {
        "code": "not_found", "parameter": "issue", "message": data["error"]["message"]}
    assert "I9999" in data["error"]["message"]
    status, data = served.json("/api/v1/devcontext/explain?uri=x&uris=majordomus://adr/nope")
    assert status == 404 and data["error"]["parameter"] == "uris"


def test_query_explain_is_mounted(served):
    status, data = served.json("/v1/explain?kind=text&value=cache")
    assert status == 200 and data["kind"] == "explain" and data["explain"]["hits"]
    status, data = served.json("/v1/explain?kind=cross_ref&start=I0201&depth=1")
    assert status == 200 and data["kind"] == "explain"
    status, data = served.json("/v1/explain?kind=sideways")
    assert status == 400 and data["error"]["parameter"] == "kind"
    status, data = served.json("/v1/explain?kind=cross_ref&start=I9999")
    assert status == 404 and data["error"]["parameter"] == "start"


def test_an_internal_failure_is_a_500_without_a_traceback(served, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(served.session.api.cache, "compile", boom)
    status, data = served.json("/api/v1/devcontext/compile?issue=I0202&budget_tokens=777")
    assert status == 500 and data["error"]["code"] == "internal_error"
    assert "secret" not in json.dumps(data) and "Traceback" not in json.dumps(data)


# -- refusals ------------------------------------------------------------------------------

SECRET = "top-secret-outside-the-site"


@pytest.fixture(scope="module")
def outside(served):
    """A file beside the output directory, and links to it from inside."""
    secret = served.box.root / "secret.txt"
    secret.write_text(SECRET)
    (served.site / "static" / "leak.txt").symlink_to(secret)
    (served.site / "static" / "leakdir").symlink_to(served.box.root, target_is_directory=True)
    (served.site / "static" / "inside.css").symlink_to(served.site / "static" / "style.css")
    return secret


@pytest.mark.parametrize("target", [
    "/../secret.txt",
    "/static/../../secret.txt",
    "/%2e%2e/secret.txt",
    "/%2E%2E/secret.txt",
    "/static/%2e%2e/%2e%2e/secret.txt",
    "/..%2fsecret.txt",
    "/static%2f..%2f..%2fsecret.txt",
    "/static/..%5c..%5csecret.txt",
    "/static\\..\\..\\secret.txt",
    "/static/leak.txt",
    "/static/leakdir/secret.txt",
    "/%00/secret.txt",
    "/index.html%00.txt",
    "//secret.txt",
    "/" + os.path.abspath("/etc/passwd").lstrip("/"),
    "http://127.0.0.1/../secret.txt",
    "/.%2e/secret.txt",
])
def test_nothing_outside_the_output_directory_is_served(served, outside, target):
    answer = raw(served.port, f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    assert status_of(answer) in (400, 404), answer[:200]
    assert SECRET.encode() not in answer and b"root:" not in answer


def test_a_link_that_stays_inside_is_served(served, outside):
    status, _, body = served.get("/static/inside.css")
    assert status == 200 and body == (served.site / "static/style.css").read_bytes()


def test_request_size_limits(served):
    long_target = "/" + "a" * (MAX_REQUEST_LINE + 10)
    assert status_of(raw(served.port, f"GET {long_target} HTTP/1.1\r\n\r\n".encode())) == 414
    big_header = f"GET / HTTP/1.1\r\nX-Big: {'b' * (MAX_HEADER_LINE + 10)}\r\n\r\n".encode()
    assert status_of(raw(served.port, big_header)) == 431
    many = "".join(f"X-H{i}: v\r\n" for i in range(MAX_HEADERS + 5))
    assert status_of(raw(served.port, f"GET / HTTP/1.1\r\n{many}\r\n".encode())) == 431
    lines = MAX_HEADER_BYTES // 4000 + 2
    heavy = "".join(f"X-W{i}: {'w' * 4000}\r\n" for i in range(lines))
    assert status_of(raw(served.port, f"GET / HTTP/1.1\r\n{heavy}\r\n".encode())) == 431
    assert status_of(raw(served.port, b"GARBAGE\r\n\r\n")) == 400
    assert status_of(raw(served.port, b"GET / HTTP/2.0\r\n\r\n")) == 505
    # and the server still answers
    assert served.get("/")[0] == 200


def test_keep_alive_serves_several_requests_on_one_connection(served):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    try:
        for path in ("/", "/plan.html", "/api/v1/devcontext/compile?issue=I0201"):
            conn.request("GET", path)
            resp = conn.getresponse()
            assert resp.status == 200
            resp.read()
    finally:
        conn.close()


def test_a_taken_port_is_reported_with_the_fix(served):
    with pytest.raises(PortInUse) as taken:
        DevServer(served.site, port=served.port)
    assert "--port" in taken.value.strerror and str(served.port) in taken.value.strerror


# -- the token -------------------------------------------------------------------------------

def test_with_a_token_every_api_request_needs_it(tmp_path):
    s = serve(tmp_path, token="s3cret", watch=False)
    try:
        for path in ("/api/v1/devcontext/compile?issue=I0201",
                     f"/api/v1/devcontext/explain?uri={ADR}&issue=I0201",
                     "/v1/explain?kind=text&value=cache"):
            status, head, body = s.get(path)
            assert status == 401 and json.loads(body)["error"]["code"] == "unauthorized"
            assert head["www-authenticate"].startswith("Bearer")
            for wrong in ("Bearer nope", "Basic s3cret", "s3cret", "Bearer s3cret2", "Bearer "):
                assert s.get(path, headers={"Authorization": wrong})[0] == 401, wrong
            assert s.get(path, headers={"Authorization": "Bearer s3cret"})[0] == 200
        assert s.get("/")[0] == 200  # the site itself is not the API
    finally:
        s.close()


def test_without_a_token_the_api_is_open(served):
    assert served.get("/api/v1/devcontext/compile?issue=I0202")[0] == 200


# -- edits, rebuilds and reload events -------------------------------------------------------

@pytest.fixture
def watched(tmp_path):
    s = serve(tmp_path, watch=True)
    try:
        yield s
    finally:
        s.close()


@pytest.mark.parametrize("pool", ["in process", "worker processes"])
def test_an_edit_rebuilds_and_sends_a_reload_event(watched, monkeypatch, pool):
    # with workers, the rebuild forks while the server's and the watcher's threads run
    monkeypatch.setenv("DEVCONTEXT_WORKERS", "2" if pool == "worker processes" else "1")
    monkeypatch.setattr("generator.workers.WARMUP_SECONDS", 0)
    monkeypatch.setattr("generator.workers.POOL_WORTH_SECONDS", 0)
    stream = EventStream(watched.port)
    try:
        event, data = stream.next()
        assert event == "hello" and data == {"build": 1, "error": None}
        issue = watched.box.repo / ".ai/repo/project/issues/I0201.yaml"
        issue.write_text(issue.read_text().replace("title: A stale", "title: Freshly edited: a stale", 1))
        event, data = stream.next(deadline=60)
        assert event == "reload" and data["build"] == 2 and data["error"] is None
        status, _, body = watched.get("/contexts/issue/I0201.html")
        assert status == 200 and b"Freshly edited" in body
        assert b"Freshly edited" in (watched.site / "objects/issue/I0201.html").read_bytes()
    finally:
        stream.close()


def test_a_failed_rebuild_shows_an_overlay_until_fixed(watched):
    stream = EventStream(watched.port)
    try:
        assert stream.next()[0] == "hello"
        template = watched.box.templates / "object.html"
        good = template.read_text()
        before = watched.get("/objects/adr/adr-0004.html")[2]
        template.write_text(good.replace("{% block main %}", "{% block main %}\n{{ broken_value.x }}", 1))
        event, data = stream.next(deadline=60)
        assert event == "build-error"
        error = data["error"]
        assert error["file"] == "templates/object.html" and error["line"] == 4
        assert "broken_value" in error["message"]
        assert str(watched.box.root) not in json.dumps(error)
        status, _, body = watched.get("/objects/adr/adr-0004.html")
        assert status == 200 and b'id="devcontext-error"' in body and b"broken_value" in body
        assert body.split(b"<div id=\"devcontext-error\"")[0] == before.split(b"<script id=")[0]
        status, data = watched.json("/__devcontext/status")
        assert data["error"]["file"] == "templates/object.html"
        template.write_text(good)
        event, data = stream.next(deadline=60)
        assert event == "reload" and data["error"] is None
        assert b'id="devcontext-error"' not in watched.get("/objects/adr/adr-0004.html")[2]
    finally:
        stream.close()


def test_a_layer_error_keeps_the_last_site(watched):
    stream = EventStream(watched.port)
    try:
        assert stream.next()[0] == "hello"
        manifest = watched.box.repo / ".ai/manifest.yaml"
        text = manifest.read_text()
        manifest.unlink()
        event, data = stream.next(deadline=60)
        assert event == "build-error" and data["error"]["file"] == ".ai/manifest.yaml"
        assert str(watched.box.repo) not in data["error"]["message"]
        assert watched.get("/")[0] == 200
        manifest.write_text(text)
        event, data = stream.next(deadline=60)
        assert event == "reload"
    finally:
        stream.close()


def test_diagnostics_are_not_failures(watched):
    stream = EventStream(watched.port)
    try:
        assert stream.next()[0] == "hello"
        issue = watched.box.repo / ".ai/repo/project/issues/I0202.yaml"
        # a dangling reference is the layer's diagnostic, not a file that no longer loads
        issue.write_text(issue.read_text().replace("depends_on:\n", "depends_on:\n  - I0999\n", 1))
        event, data = stream.next(deadline=60)
        assert event == "reload" and data["error"] is None
        status, _, body = watched.get("/diagnostics.html")
        assert b"I0202.yaml" in body
    finally:
        stream.close()


def test_editor_bursts_are_coalesced_into_one_rebuild(watched):
    stream = EventStream(watched.port)
    try:
        assert stream.next()[0] == "hello"
        issue = watched.box.repo / ".ai/repo/project/issues/I0203.yaml"
        text = issue.read_text()
        for i in range(5):  # a save, a backup, a rename, a rewrite...
            tmp = issue.with_name(f".I0203.yaml.swp{i}")
            tmp.write_text(text + f"# {i}\n")
            tmp.replace(issue)
        event, data = stream.next(deadline=60)
        assert event == "reload" and data["build"] == 2
        with pytest.raises((TimeoutError, socket.timeout)):
            stream.next(deadline=1.5)
        assert (watched.site / "api/v1/objects/issue/I0203.json").exists()
    finally:
        stream.close()


def test_a_silent_client_is_dropped_and_others_are_served(served, monkeypatch):
    from generator.serve.handler import Handler

    monkeypatch.setattr(Handler, "timeout", 1)
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as silent:
        assert served.get("/")[0] == 200  # another client is answered meanwhile
        silent.settimeout(10)
        assert silent.recv(100) == b""  # closed by the server after its timeout
