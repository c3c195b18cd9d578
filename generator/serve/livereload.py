"""Live reload: server-sent events on ``/__devcontext/events`` and the small snippet the
server injects into every HTML response (never into the built files).

Events (``event:`` names; ``data:`` is JSON):

``hello``         on connect: ``{"build": n, "error": null | {...}}``
``reload``        after a rebuild that changed the site: ``{"build": n, "summary": "..."}``;
                  with ``"pages": [...]`` (site-relative files) when only those open pages
                  were made so far — the rest of the site is still catching up
``build-error``   after a failed rebuild: ``{"build": n, "error": {"file", "line", "message"}}``

A page knows the build it was served from and opens its stream with ``?page=<its path>``,
so the hub knows which pages are open (:meth:`EventHub.open_pages`): after an edit those
are made first. A page reloads on a ``reload`` that names it (or names no pages) and also
on ``hello`` when the build moved on while it was loading. A failed rebuild keeps the last good site and
shows the error in an overlay (injected server-side too, so a page opened meanwhile shows it)
until a rebuild succeeds.
"""

from __future__ import annotations

import html
import json
import queue
import re
import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["EventHub", "BuildStatus", "inject", "snippet", "EVENTS_PATH", "STATUS_PATH"]

EVENTS_PATH = "/__devcontext/events"
STATUS_PATH = "/__devcontext/status"
#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE_SECONDS = 15.0

_CLOSED = object()


@dataclass(frozen=True)
class BuildStatus:
    build: int
    #: ``{"file", "line", "message"}`` while the last rebuild failed, else None.
    error: dict[str, Any] | None = None

    def wire(self) -> dict[str, Any]:
        return {"build": self.build, "error": self.error}


class EventHub:
    """Fan-out of events to every connected event stream (one queue per client)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[queue.Queue] = []
        #: queue -> the site-relative page that holds the stream open (None: unnamed).
        self._pages: dict[int, str | None] = {}
        self._status = BuildStatus(build=0)
        self.closed = False

    @property
    def status(self) -> BuildStatus:
        return self._status

    def subscribe(self, page: str | None = None) -> tuple[queue.Queue, BuildStatus]:
        """A queue of events for one stream, held open by ``page`` (site-relative)."""
        q: queue.Queue = queue.Queue(maxsize=64)
        with self._lock:
            if self.closed:
                q.put(_CLOSED)
            self._subscribers.append(q)
            self._pages[id(q)] = page
            return q, self._status

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            self._drop(q)

    def _drop(self, q: queue.Queue) -> None:
        if q in self._subscribers:
            self._subscribers.remove(q)
        self._pages.pop(id(q), None)

    def open_pages(self) -> set[str]:
        """The pages with a live-reload stream open now."""
        with self._lock:
            return {p for p in self._pages.values() if p is not None}

    def publish(self, event: str, status: BuildStatus, **extra: Any) -> None:
        data = {**status.wire(), **extra}
        with self._lock:
            self._status = status
            for q in list(self._subscribers):
                try:
                    q.put_nowait((event, data))
                except queue.Full:  # a stalled client: drop it; EventSource reconnects
                    self._drop(q)
                    try:
                        q.put_nowait(_CLOSED)
                    except queue.Full:
                        pass

    def set_status(self, status: BuildStatus) -> None:
        with self._lock:
            self._status = status

    def close(self) -> None:
        with self._lock:
            self.closed = True
            for q in self._subscribers:
                try:
                    q.put_nowait(_CLOSED)
                except queue.Full:
                    pass
            self._subscribers.clear()
            self._pages.clear()

    @staticmethod
    def is_closed(item: object) -> bool:
        return item is _CLOSED


def format_event(event: str, data: dict[str, Any]) -> bytes:
    payload = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event}\ndata: {payload}\n\n".encode("utf-8")


_SCRIPT = """(function () {
  var build = %(build)d;
  var box = null;
  function show(err) {
    box = document.getElementById("devcontext-error");
    if (!box) {
      box = document.createElement("div");
      box.id = "devcontext-error";
      box.setAttribute("role", "alert");
      box.setAttribute("style", %(style)s);
      document.body.appendChild(box);
    }
    box.textContent = "";
    var head = document.createElement("strong");
    head.textContent = "Rebuild failed — still serving the last good site";
    var where = document.createElement("div");
    where.textContent = (err.file || "(unknown file)") + (err.line ? ":" + err.line : "");
    var msg = document.createElement("pre");
    msg.setAttribute("style", "white-space:pre-wrap;margin:.5em 0 0");
    msg.textContent = err.message || "";
    box.appendChild(head); box.appendChild(where); box.appendChild(msg);
  }
  function hide() {
    var el = document.getElementById("devcontext-error");
    if (el) { el.parentNode.removeChild(el); }
  }
  if (!window.EventSource) { return; }
  var page = location.pathname;
  var source = new EventSource("%(events)s?page=" + encodeURIComponent(page));
  window.__devcontextEvents = source;
  source.addEventListener("hello", function (e) {
    var d = JSON.parse(e.data);
    if (d.error) { show(d.error); } else if (d.build !== build) { location.reload(); } else { hide(); }
  });
  source.addEventListener("reload", function (e) {
    var d = JSON.parse(e.data);
    if (d.pages) {
      var mine = page.charAt(page.length - 1) === "/" ? page + "index.html" : page;
      if (d.pages.indexOf(decodeURIComponent(mine).replace(/^\\//, "")) < 0) { return; }
      location.reload();
    } else if (d.build !== build) { location.reload(); }
  });
  source.addEventListener("build-error", function (e) { show(JSON.parse(e.data).error); });
})();"""

_STYLE = ("position:fixed;left:1em;right:1em;bottom:1em;z-index:2147483647;padding:1em;"
          "background:#3b0d0c;color:#fff;border:2px solid #f85149;border-radius:6px;"
          "font:14px/1.4 ui-monospace,monospace;box-shadow:0 4px 24px rgba(0,0,0,.4)")


def overlay_html(error: dict[str, Any]) -> str:
    where = html.escape(str(error.get("file") or "(unknown file)"))
    if error.get("line"):
        where += f":{int(error['line'])}"
    return (f'<div id="devcontext-error" role="alert" style="{_STYLE}"><strong>Rebuild failed — '
            f'still serving the last good site</strong><div>{where}</div><pre style="white-space:'
            f'pre-wrap;margin:.5em 0 0">{html.escape(str(error.get("message") or ""))}</pre></div>')


def snippet(status: BuildStatus) -> bytes:
    script = _SCRIPT % {"build": status.build, "events": EVENTS_PATH, "style": json.dumps(_STYLE)}
    parts = []
    if status.error:
        parts.append(overlay_html(status.error))
    parts.append(f'<script id="devcontext-livereload">{script}</script>')
    return ("\n".join(parts) + "\n").encode("utf-8")


_BODY_END = re.compile(rb"</body\s*>", re.IGNORECASE)


def inject(page: bytes, status: BuildStatus) -> bytes:
    """The page with the snippet before its last ``</body>`` (appended when it has none)."""
    extra = snippet(status)
    last = None
    for last in _BODY_END.finditer(page):
        pass
    if last is None:
        return page + extra
    return page[: last.start()] + extra + page[last.start():]
