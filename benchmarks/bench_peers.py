"""The full build against its peers on the same documents: ``devcontext build`` of a layer
against Hugo and MkDocs rendering that layer's Markdown records as pages — same run,
alternating rounds (the machines are noisy), medians compared. Targets: the real layer
≤ 2.5× Hugo, synthetic ``medium`` ≤ 8× Hugo.

Each tool runs as its own process from the command line, as a user runs it; the figure is
wall time. A peer that is not installed (``make bench`` installs both: MkDocs from the
``bench`` extra, Hugo from Debian) is reported as skipped, never faked.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .layers import real, synthetic

ROUNDS = int(os.environ.get("BENCH_PEER_ROUNDS", "3"))

_HUGO_CONFIG = """baseURL = "http://localhost/"
title = "peer"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
[markup.goldmark.renderer]
unsafe = false
"""
_HUGO_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><main>{{ .Content }}</main></body></html>
"""
_HUGO_LIST = """<!doctype html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>
"""


def markdown_records(root: Path) -> list[tuple[str, str]]:
    """The layer's Markdown files (repo path, text), sorted: the documents every tool
    renders as pages. Front matter is dropped (a peer would refuse the layer's own keys)."""
    out = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if "/.git/" in f"/{rel}":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if text.startswith("---\n"):
            end = text.find("\n---", 4)
            if end >= 0:
                text = text[end + 4:].lstrip("\n")
        out.append((rel, text))
    return out


def _title(rel: str) -> str:
    return rel.rsplit("/", 1)[-1].removesuffix(".md").replace('"', "'")


def _content_name(rel: str) -> str:
    # leading dots hide a file from both peers; index.md/README.md would become section pages
    parts = [p.lstrip(".") or "_" for p in rel.split("/")]
    parts[-1] = "page-" + parts[-1]
    return "/".join(parts)


def hugo_site(docs: list[tuple[str, str]], where: Path) -> Path:
    site = where / "hugo"
    (site / "layouts" / "_default").mkdir(parents=True)
    (site / "hugo.toml").write_text(_HUGO_CONFIG)
    (site / "layouts" / "_default" / "single.html").write_text(_HUGO_PAGE)
    (site / "layouts" / "_default" / "list.html").write_text(_HUGO_LIST)
    (site / "layouts" / "index.html").write_text(_HUGO_LIST)
    for rel, text in docs:
        target = site / "content" / _content_name(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f'---\ntitle: "{_title(rel)}"\n---\n{text}', encoding="utf-8")
    return site


def mkdocs_site(docs: list[tuple[str, str]], where: Path) -> Path:
    site = where / "mkdocs"
    (site / "docs").mkdir(parents=True)
    (site / "mkdocs.yml").write_text("site_name: peer\ntheme: mkdocs\n")
    (site / "docs" / "index.md").write_text("# peer\n")
    for rel, text in docs:
        target = site / "docs" / _content_name(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return site


def _timed(argv: list[str], cwd: Path | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children): on a shared machine
    the CPU time is the steadier of the two."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({done.returncode}): "
                           f"{done.stderr.decode(errors='replace')[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def _commands(root: Path, work: Path) -> dict[str, list[str] | None]:
    docs = markdown_records(root)
    hugo = shutil.which("hugo")
    mkdocs = Path(sys.executable).with_name("mkdocs")
    commands: dict[str, list[str] | None] = {
        "devcontext": [str(Path(sys.executable).with_name("devcontext")), "build", "--quiet",
                       "--repo", str(root), "--out", str(work / "devcontext-site")],
        "hugo": None, "mkdocs": None,
    }
    if hugo:
        site = hugo_site(docs, work)
        commands["hugo"] = [hugo, "--quiet", "--source", str(site), "--destination",
                            str(work / "hugo-out")]
    if mkdocs.exists():
        site = mkdocs_site(docs, work)
        commands["mkdocs"] = [str(mkdocs), "build", "--quiet", "--config-file",
                              str(site / "mkdocs.yml"), "--site-dir", str(work / "mkdocs-out")]
    return commands


def _measure(label: str, root: Path, report) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-peers-"))
    try:
        commands = _commands(root, work)
        docs = len(markdown_records(root))
        times: dict[str, list[tuple[float, float]]] = {
            name: [] for name, argv in commands.items() if argv}
        for _ in range(ROUNDS):  # alternating: every tool once per round
            for name in times:
                times[name].append(_timed(commands[name]))

        def median(name: str, i: int) -> float:
            return statistics.median(t[i] for t in times[name])

        ours, ours_cpu = median("devcontext", 0), median("devcontext", 1)
        report(f"peers {label}: devcontext build", ours, "s",
               f"median of {ROUNDS}; CPU {ours_cpu:.2f} s; {docs:,} Markdown records among "
               "its inputs", tags={"figure": "peer", "peer": "devcontext", "layer": label})
        for peer in ("hugo", "mkdocs"):
            if peer not in times:
                report(f"peers {label}: {peer} (not installed: skipped)", 0.0, "s",
                       "make bench installs it", tags={"figure": "peer", "peer": peer,
                                                        "layer": label, "skipped": "yes"})
                continue
            theirs, theirs_cpu = median(peer, 0), median(peer, 1)
            report(f"peers {label}: {peer}, the same {docs:,} documents", theirs, "s",
                   f"median of {ROUNDS}; CPU {theirs_cpu:.2f} s",
                   tags={"figure": "peer", "peer": peer, "layer": label})
            target = {("hugo", "real"): "target ≤ 2.5×", ("hugo", "medium"): "target ≤ 8×"}
            report(f"peers {label}: devcontext ÷ {peer}", ours / theirs, "×",
                   f"{target.get((peer, label), '')}; in CPU time "
                   f"{ours_cpu / theirs_cpu if theirs_cpu else float('inf'):.1f}×",
                   tags={"figure": "peer-ratio", "peer": peer, "layer": label})
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(report) -> None:
    layer = real()
    if layer is not None:
        _measure("real", layer, report)
    _measure("medium", synthetic("medium"), report)
