"""One ``devcontext serve`` session: the builder, the HTTP server, the watcher and the
live-reload hub, wired together. The server and the watcher only ever see the builder's
``rebuild`` and its output directory (and its last good snapshot, for the API)."""

from __future__ import annotations

import logging
import os
import traceback
from pathlib import Path
from typing import Any, Callable

from ..errors import DevContextError, LayerError
from ..layer.discovery import MANIFEST_PATH
from .api import API_ROUTES, LiveApi
from .incremental import BuildReport, IncrementalBuilder
from .livereload import BuildStatus, EventHub
from .server import DevServer
from .watcher import DEFAULT_QUIET, Batch, Debouncer, LayerWatcher, watch_roots

__all__ = ["ServeSession", "describe_failure"]

log = logging.getLogger("devcontext.serve")

#: The directory holding the ``generator`` package — the checkout, or site-packages when
#: installed — so a failing line of the product's own code is named ``generator/...``.
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def _display(path: str, places: list[tuple[str, str]]) -> str:
    real = os.path.realpath(path)
    for base, label in places:
        if real == base or real.startswith(base + os.sep):
            rel = os.path.relpath(real, base).replace(os.sep, "/")
            return f"{label}{rel}" if label else rel
    return os.path.basename(path)


def describe_failure(exc: BaseException, root: Path, templates: Path) -> dict[str, Any]:
    """``{"file", "line", "message"}`` for a failed rebuild, with no absolute path: a
    template error names the template and its line, a layer error the manifest, anything
    else the innermost line of code that raised."""
    import jinja2

    root_real = os.path.realpath(root)
    tpl_real = os.path.realpath(templates)
    places = [(tpl_real, "templates/"), (root_real, ""), (str(PROJECT_ROOT), "")]
    file: str | None = None
    line: int | None = None
    if isinstance(exc, jinja2.TemplateSyntaxError):
        file = exc.filename or exc.name
        line = exc.lineno
        message = exc.message or str(exc)
    else:
        message = exc.message if isinstance(exc, DevContextError) else (str(exc) or "")
        if not isinstance(exc, DevContextError):
            message = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
        frames = traceback.extract_tb(exc.__traceback__)
        for frame in reversed(frames):
            if os.path.realpath(frame.filename).startswith(tpl_real + os.sep):
                file, line = frame.filename, frame.lineno
                break
        if file is None:
            if isinstance(exc, LayerError):
                file = MANIFEST_PATH
            elif frames:
                file, line = frames[-1].filename, frames[-1].lineno
    if file is not None and file != MANIFEST_PATH:
        file = _display(file, places)
    for base, label in places:
        message = message.replace(base + os.sep, label).replace(base, label.rstrip("/") or ".")
    return {"file": file, "line": line, "message": message}


class ServeSession:
    """Builds, serves and rebuilds. ``say`` prints one line per event for the terminal."""

    def __init__(self, builder: IncrementalBuilder, *, host: str = "127.0.0.1", port: int = 8000,
                 token: str | None = None, quiet: float = DEFAULT_QUIET,
                 say: Callable[[str], None] = lambda line: None) -> None:
        self.builder = builder
        self.say = say
        self.quiet = quiet
        self.hub = EventHub()
        self.api = LiveApi(lambda: builder.snapshot)
        # bind first: a taken port is reported before a long build
        self.server = DevServer(builder.out, host=host, port=port, hub=self.hub,
                                api=self.api.handle, api_routes=API_ROUTES, token=token)
        self.debouncer: Debouncer | None = None
        self.watcher: LayerWatcher | None = None
        self._roots: list | None = None

    @property
    def url(self) -> str:
        return self.server.url

    def build(self) -> BuildReport:
        report = self.builder.rebuild()
        self.hub.set_status(BuildStatus(self.builder.builds))
        return report

    def watch(self) -> None:
        self.debouncer = Debouncer(self.deliver, quiet=self.quiet)
        self.watcher = LayerWatcher(self.builder.root, self.builder.templates, self.builder.out,
                                    self.debouncer)
        self._roots = self._watch_roots()
        self.watcher.start(self._roots)

    def _watch_roots(self) -> list:
        state = self.builder.state
        classes = state.setup.classes if state is not None else ()
        return watch_roots(self.builder.root, classes)

    def deliver(self, batch: Batch) -> None:
        """Rebuild for one batch of changes and tell the pages."""
        try:
            report = self.builder.rebuild(batch.paths, templates=batch.templates)
        except Exception as exc:  # noqa: BLE001 - reported, and the last good site stays
            error = describe_failure(exc, self.builder.root, self.builder.templates)
            log.debug("rebuild failed", exc_info=True)
            self.hub.publish("build-error", BuildStatus(self.builder.builds, error))
            where = f"{error['file']}:{error['line']}" if error["line"] else str(error["file"])
            self.say(f"rebuild failed ({where}): {error['message']} — still serving the last good site")
            return
        failed_before = self.hub.status.error is not None
        if report.changed or failed_before:
            self.hub.publish("reload", BuildStatus(self.builder.builds), summary=report.summary())
            self.say(report.summary())
        roots = self._watch_roots()
        if self.watcher is not None and roots != self._roots:
            self._roots = roots
            self.watcher.set_roots(roots)

    def serve_forever(self) -> None:
        self.server.serve_forever()

    def start(self) -> None:
        """Serve on a background thread (tests, benchmarks)."""
        self.server.start()

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        if self.debouncer is not None:
            self.debouncer.stop()
        self.server.close()
