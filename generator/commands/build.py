"""``devcontext build``: compile every context and write the site."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..benchresults import BenchResults, default_results_path, read_results
from ..diagnostics import count_by_severity
from ..gitinfo import read_git
from ..outdir import check_out_dir, home_dir
from ..progress import StageClock, TerminalProgress
from ..site.build import Progress, SiteInputs, build_site
from ..site.pages.sitemap import sitemap_base
from ..site.i18n import LANGUAGES, parse_languages
from ..site.templating import templates_dir
from ..workspace import Workspace, resolve_repo
from ..writer import write_site
from .common import add_repo_option, limits_from_args, plural
from .report import first_few

__all__ = ["register", "run", "site_label", "strict_failure"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "build",
        help="build the static site (explain pages and JSON)",
        description="Compile the context of every issue and milestone and write the static "
        "site: HTML explain pages and JSON under api/v1/. Without --repo it builds the bundled "
        "demo layer. The output directory is replaced atomically. The summary shows the "
        "first few errors and warnings; with --strict either fails the build (exit 1) once "
        "the site is written.",
    )
    add_repo_option(p)
    p.add_argument("--out", default="site", metavar="DIR", help="output directory (default: site)")
    p.add_argument("--templates", metavar="DIR", help="templates directory (default: the bundled one)")
    p.add_argument("--base-url", metavar="URL", help="absolute URL the site is served at (for sitemap.xml)")
    p.add_argument("--lang", metavar="LANGS",
                   help="interface language(s): " + ", ".join(LANGUAGES) + " (default: en); "
                   "several, comma-separated (en,cs), put the first at the root and each other "
                   "under <lang>/, with a language switch on every page")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar, only the summary")
    p.add_argument("--bench-results", metavar="FILE",
                   help="the results of `make bench` the reference and performance pages show "
                   "(default: .bench/results.json of the repository, when it is there)")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when the layer has errors or warnings (the site is still written)")
    p.add_argument("--timings", action="store_true",
                   help="after the summary, the time each stage took (wall and CPU, workers' "
                   "included): loading, compiling the contexts, the object pages, the overview, "
                   "putting the site in place")
    p.set_defaults(run=run)


def bench_results(option: str | None, ws: Workspace) -> BenchResults | None:
    """``--bench-results FILE``, else the repository's ``.bench/results.json`` when present
    (a demo build has none, so its pages stay the same from run to run). Named on the pages
    relative to the repository, or by its file name when outside it (never an absolute path)."""
    path = Path(option) if option else None if ws.is_demo else default_results_path(ws.root)
    if path is None:
        return None
    try:
        shown = path.resolve().relative_to(ws.root.resolve()).as_posix()
    except ValueError:
        shown = path.name
    return read_results(path, shown)


def site_label(ws: Workspace) -> str:
    return "demo layer (nimbus)" if ws.is_demo else ws.root.resolve().name


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    clock = StageClock()
    clock.start("loading the layer")
    out = Path(args.out)
    languages = parse_languages(args.lang)
    target = check_out_dir(args.out, repo=resolve_repo(args.repo)[0], home=home_dir())
    ws = Workspace.open(args.repo, exclude=[target], limits=limits_from_args(args))
    progress = TerminalProgress(enabled=False if args.quiet else None)
    inputs = SiteInputs(
        index=ws.index,
        git=read_git(ws.root, working_tree=False),
        label=site_label(ws),
        templates=templates_dir(args.templates),
        base_url=args.base_url,
        files=ws.tree.files,
        bench=bench_results(args.bench_results, ws),
        languages=languages,
    )
    def stage(name: str, total: int) -> None:
        clock.stage(name, total)
        progress.stage(name, total)

    def then_put_in_place(files):
        yield from files
        clock.start("putting the site in place")

    files = build_site(inputs, Progress(stage=stage, step=progress.step))
    stats = write_site(then_put_in_place(files), target)
    progress.close()
    clock.stop()
    index = ws.index
    over = 0
    import json

    site_index = json.loads((out / "api/v1/index.json").read_text(encoding="utf-8"))
    over = sum(1 for c in site_index["contexts"] if c["over_budget"])
    counts = count_by_severity(index.diagnostics)
    seconds = time.perf_counter() - started
    for line in first_few(index.diagnostics, "error") + first_few(index.diagnostics, "warning"):
        print(line, file=sys.stdout)
    summary = sitemap_base(index, args.base_url).summary
    no_sitemap = f"{summary}; " if summary else ""
    print(
        f"built {out}: {plural(stats.pages, 'page')}, {plural(stats.json_files, 'JSON file')}, "
        f"{stats.bytes / 1e6:.1f} MB; {plural(len(site_index['contexts']), 'context')} "
        f"({over} over budget); {plural(counts['error'], 'error')}, "
        f"{plural(counts['warning'], 'warning')}; {no_sitemap}{seconds:.1f}s",
        file=sys.stdout,
    )
    if args.timings:
        print(clock.summary(), file=sys.stdout)
    if args.strict and (counts["error"] or counts["warning"]):
        print(strict_failure(counts, out), file=sys.stdout)
        return 1
    return 0


def strict_failure(counts: dict[str, int], out: Path) -> str:
    """The last line of a ``build --strict`` that fails: what failed it, and that the site
    was written all the same (so CI can still publish or inspect it)."""
    return (f"FAILED: {plural(counts['error'], 'error')}, {plural(counts['warning'], 'warning')} "
            f"(--strict: errors and warnings fail; the site is written to {out})")
