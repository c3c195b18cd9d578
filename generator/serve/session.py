"""One ``devcontext serve`` session: the builder, the HTTP server, the watcher and the
live-reload hub, wired together. The server and the watcher only ever see the builder's
``rebuild`` and its output directory (and its last good snapshot, for the API).

Serve never shows a broken page. A rebuild *fails* when it raises (a template error, a
manifest that went away, a write that failed) or when the edit leaves a file that no longer
loads: a changed (created or modified) file with more error-severity load diagnostics of
some code than it had before the edit — YAML that does not parse, a record that lost its
id, a manifest that became unreadable, ... (:func:`load_regressions`, run by the builder
after loading and before writing anything). Warnings, and errors found later (a dangling
reference, a duplicate number), do not fail a rebuild: they are the layer's diagnostics and
show on the site. A failed rebuild writes nothing: the last good pages stay (the page of the
object that just broke too), the API answers from the last good build, and every page shows
the error (file, line, message) in an overlay until a rebuild succeeds; the paths stay
pending, so the fix (or any later edit) applies them all and the tree is again what a full
build makes. Deleting a file is never a failure: its objects go, as in a full build. The
first build is a full build and is not judged this way (a layer broken from the start
builds with its diagnostics).
"""

from __future__ import annotations

import logging
import os
import re
import traceback
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from ..diagnostics import Diagnostic
from ..errors import DevContextError, InputError, LayerError
from ..layer.discovery import MANIFEST_PATH
from .live_api import API_ROUTES, LiveApi
from .incremental import BuildReport, IncrementalBuilder, OpenFirst
from .livereload import BuildStatus, EventHub
from .server import DevServer
from .watcher import DEFAULT_QUIET, Batch, Debouncer, LayerWatcher, watch_roots

__all__ = ["ServeSession", "describe_failure", "load_regressions", "refuse_broken_edits"]

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


_FRAME_LINE = re.compile(r'File "([^"]+)", line (\d+)')


def _remote_traceback(exc: BaseException) -> str:
    """The worker's traceback text that ``multiprocessing`` chains as the cause."""
    cause = exc.__cause__
    return str(cause) if type(cause).__name__ == "RemoteTraceback" else ""


def _template_frame_in(text: str, tpl_real: str) -> tuple[str | None, int | None]:
    """The innermost ``File "…", line N`` of ``text`` that lies in the templates."""
    for name, number in reversed(_FRAME_LINE.findall(text)):
        if os.path.realpath(name).startswith(tpl_real + os.sep):
            return name, int(number)
    return None, None


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
    elif isinstance(exc, InputError) and exc.path is not None:  # a layer file (repo-relative)
        file, line, message = exc.path, exc.line, exc.message
    else:
        message = exc.message if isinstance(exc, DevContextError) else (str(exc) or "")
        if not isinstance(exc, DevContextError):
            message = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
        frames = traceback.extract_tb(exc.__traceback__)
        for frame in reversed(frames):
            if os.path.realpath(frame.filename).startswith(tpl_real + os.sep):
                file, line = frame.filename, frame.lineno
                break
        if file is None:  # raised in a forked worker: its frames arrive only as text
            file, line = _template_frame_in(_remote_traceback(exc), tpl_real)
        if file is None:
            if isinstance(exc, LayerError):
                file = MANIFEST_PATH
            elif frames:
                file, line = frames[-1].filename, frames[-1].lineno
    if file is not None and file != MANIFEST_PATH and not (
            isinstance(exc, InputError) and exc.path is not None):
        file = _display(file, places)
    for base, label in places:
        message = message.replace(base + os.sep, label).replace(base, label.rstrip("/") or ".")
    return {"file": file, "line": line, "message": message}


def _errors_at(path: str, setup, loads, problems) -> list[Diagnostic]:
    load = loads.get(path)
    found = [*setup.diagnostics, *problems, *(load.diagnostics if load is not None else ())]
    return [d for d in found if d.path == path and d.severity == "error"]


def load_regressions(changed_paths, setup, loads, problems, new_setup, new_loads,
                     new_problems) -> list[Diagnostic]:
    """The error diagnostics the edit's changed files gained: for each changed path, those
    of a code the file now has more errors of than before (lines move with any edit, and a
    file already failing the same way shows no page either way). Sorted by path and line."""
    gained: list[Diagnostic] = []
    for path in sorted(changed_paths):
        after = _errors_at(path, new_setup, new_loads, new_problems)
        if not after:
            continue
        before = Counter(d.code for d in _errors_at(path, setup, loads, problems))
        now = Counter(d.code for d in after)
        gained.extend(d for d in after if now[d.code] > before[d.code])
    return sorted(gained, key=lambda d: (d.path or "", d.line or 0, d.code, d.message))


def refuse_broken_edits(changed_paths, setup, loads, problems, new_setup, new_loads,
                        new_problems) -> None:
    """The builder's guard while serving: raise :class:`InputError` naming the first file
    that no longer loads (its line and message) so the rebuild fails and writes nothing."""
    gained = load_regressions(changed_paths, setup, loads, problems, new_setup, new_loads,
                              new_problems)
    if not gained:
        return
    first = gained[0]
    others = sorted({d.path for d in gained} - {first.path})
    more = f" ({len(others)} more file{'s' if len(others) != 1 else ''} also no longer " \
           f"load{'s' if len(others) == 1 else ''}: {', '.join(others)})" if others else ""
    raise InputError(f"{first.message} The last good site is kept until the file loads again "
                     f"(or is deleted).{more}", path=first.path, line=first.line)


class ServeSession:
    """Builds, serves and rebuilds. ``say`` prints one line per event for the terminal."""

    def __init__(self, builder: IncrementalBuilder, *, host: str = "127.0.0.1", port: int = 8000,
                 token: str | None = None, quiet: float = DEFAULT_QUIET,
                 say: Callable[[str], None] = lambda line: None) -> None:
        self.builder = builder
        builder.guard = refuse_broken_edits  # a rebuild that breaks a file writes nothing
        self.say = say
        self.quiet = quiet
        self.hub = EventHub()
        self.api = LiveApi(lambda: builder.snapshot)
        # bind first: a taken port is reported before a long build
        self.server = DevServer(builder.out, host=host, port=port, hub=self.hub,
                                api=self.api.handle, api_routes=API_ROUTES, token=token,
                                pending=builder.pending)
        #: The build number pages are told (each rebuild that showed anything, or failed,
        #: takes the next one — so a page served during a rebuild that did not finish
        #: reloads after the next one that does).
        self.generation = 0
        #: The last rebuild's report (None before the first edit).
        self.last_report: BuildReport | None = None
        self.debouncer: Debouncer | None = None
        self.watcher: LayerWatcher | None = None
        self._roots: list | None = None

    @property
    def url(self) -> str:
        return self.server.url

    def build(self) -> BuildReport:
        report = self.builder.rebuild()
        self.generation = self.builder.builds
        self.hub.set_status(BuildStatus(self.generation))
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
        """Rebuild for one batch of changes and tell the pages: the open ones the edit
        reaches as soon as they are made, then every page once the site has caught up.

        A page told twice (a provisional object page, then its final one) is told under a
        new build number: a page that reloaded to the provisional one and opened its stream
        only after the second word still sees, in its ``hello``, that the build moved on."""
        generation = self.generation + 1
        shown: list[str] = []
        failed_before = self.hub.status.error is not None

        def on_open(rels: list[str]) -> None:
            nonlocal generation
            if not set(rels).isdisjoint(shown):
                generation += 1
            shown.extend(rels)
            self.hub.publish("reload", BuildStatus(generation), pages=sorted(rels),
                             summary="the open pages first; the rest of the site follows")

        debouncer = self.debouncer
        open_first = OpenFirst(open_pages=self.hub.open_pages, on_open=on_open,
                               superseded=debouncer.waiting if debouncer is not None else lambda: False)
        try:
            report = self.builder.rebuild(batch.paths, templates=batch.templates,
                                          open_first=open_first)
        except Exception as exc:  # noqa: BLE001 - reported, and the last good site stays
            error = describe_failure(exc, self.builder.root, self.builder.templates)
            log.debug("rebuild failed", exc_info=True)
            self.generation = generation
            self.hub.publish("build-error", BuildStatus(generation, error))
            where = f"{error['file']}:{error['line']}" if error["line"] else str(error["file"])
            self.say(f"rebuild failed ({where}): {error['message']} — still serving the last good site")
            return
        self.last_report = report
        if report.mode == "superseded":
            if shown:
                self.generation = generation
            self.say(report.summary())
            return
        if report.changed or failed_before or shown:
            self.generation = generation
            self.hub.publish("reload", BuildStatus(generation), summary=report.summary())
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
