"""``devcontext serve``: build the site, serve it, rebuild incrementally on every edit."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

from ..errors import DevContextError, InputError
from ..gitinfo import read_git
from ..outdir import check_out_dir, home_dir
from ..progress import TerminalProgress
from ..site.build import Progress
from ..site.i18n import LANGUAGES, parse_languages, set_process_language
from ..site.templating import templates_dir
from ..workspace import resolve_repo
from .common import add_repo_option, limits_from_args

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="build the site, serve it and rebuild it on every edit",
        description="Build the site, serve it over HTTP with live reload, and rebuild only what "
        "an edit to the layer (or the templates) affects. Also answers the live API: "
        "GET /api/v1/devcontext/explain and /api/v1/devcontext/compile (the request's fields as "
        "query parameters) and GET /v1/explain (the query engine). Binds 127.0.0.1 unless told "
        "otherwise. Ctrl-C stops it.",
    )
    add_repo_option(p)
    p.add_argument("--out", default="site", metavar="DIR", help="output directory (default: site)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    p.add_argument("--token", metavar="T",
                   help="require `Authorization: Bearer T` on every API request")
    p.add_argument("--templates", metavar="DIR", help="templates directory (default: the bundled one)")
    p.add_argument("--base-url", metavar="URL", help="absolute URL the site is served at (for sitemap.xml)")
    p.add_argument("--lang", metavar="LANG", help="interface language: " + ", ".join(LANGUAGES)
                   + " (default: en; one language: devcontext build --lang en,cs makes both)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no rebuild lines")
    p.set_defaults(run=run)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _sigterm_as_interrupt() -> None:
    """SIGTERM stops the server as Ctrl-C does (observer stopped, server closed, exit 0)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)


def run(args: argparse.Namespace) -> int:
    # imported here, not at the top: every other command starts without the server's stack
    from ..serve.incremental import IncrementalBuilder
    from ..serve.server import LOOPBACK_HOSTS, PortInUse
    from ..serve.session import ServeSession, describe_failure

    tell = (lambda line: None) if args.quiet else (lambda line: print(line, flush=True))
    logging.basicConfig(level=logging.WARNING, format="devcontext serve: %(message)s")
    if not 0 <= args.port <= 65535:
        print(f"devcontext serve: --port {args.port} is not a port; give 0 to 65535", file=sys.stderr)
        return 2
    (lang, *more) = parse_languages(args.lang)
    if more:
        raise InputError(f"--lang {args.lang}: serve renders one language, found "
                         f"{1 + len(more)}. Give one (--lang {lang}); devcontext build "
                         f"--lang {args.lang} writes them all.")
    set_process_language(lang)
    root, is_demo = resolve_repo(args.repo)
    out = Path(args.out)
    target = check_out_dir(args.out, repo=root, home=home_dir())
    progress = TerminalProgress(enabled=False if args.quiet else None)
    label = "demo layer (nimbus)" if is_demo else root.resolve().name
    session: ServeSession | None = None
    _sigterm_as_interrupt()
    try:
        if args.host not in LOOPBACK_HOSTS:
            print(f"devcontext serve: warning: binding {args.host}, not the loopback address: anyone "
                  "who can reach this machine on that address can read the site"
                  + (" and call the API" if not args.token else " (the API needs the token)")
                  + ". Use --host 127.0.0.1 to keep it local.", file=sys.stderr)
        builder = IncrementalBuilder(
            root, target, label=label,
            templates=templates_dir(args.templates),
            base_url=args.base_url, git=lambda: read_git(root, working_tree=False),
            progress=Progress(stage=progress.stage, step=progress.step),
            limits=limits_from_args(args))
        try:
            session = ServeSession(builder, host=args.host, port=args.port, token=args.token,
                                   say=tell)
        except PortInUse as exc:
            print(f"devcontext serve: {exc.strerror}", file=sys.stderr)
            return 2
        try:
            report = session.build()
        except DevContextError:
            raise
        except Exception as exc:  # noqa: BLE001 - a template error, say: where, not a traceback
            progress.close()
            error = describe_failure(exc, root, builder.templates)
            where = f"{error['file']}:{error['line']}" if error["line"] else str(error["file"])
            print(f"devcontext serve: the first build failed ({where}): {error['message']}",
                  file=sys.stderr)
            return 2
        progress.close()
        tell(f"{report.summary()}; output in {out}")
        session.watch()
        tell(f"serving {session.url} — edits to the layer rebuild it (Ctrl-C to stop)")
        session.serve_forever()
    except KeyboardInterrupt:
        progress.close()
    finally:
        if session is not None:
            session.close()
    tell("stopped")
    return 0
