"""The build benchmarks' own parts: the peers are given the layer's Markdown records (front
matter dropped, hidden names made visible), and the memory sampler sums a real process
tree (a forked child's memory counts)."""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks.bench_peers import _content_name, hugo_site, markdown_records, mkdocs_site
from benchmarks.bench_scale import PeakMemory, _tree, output_breakdown, output_size


def test_the_peers_render_the_layers_markdown_records(tmp_path):
    layer = tmp_path / "layer"
    (layer / ".ai" / "repo").mkdir(parents=True)
    (layer / ".ai" / "repo" / "README.md").write_text("---\nschema: context/v1\n---\n# Repo\n")
    (layer / "notes.md").write_text("# Notes\n")
    (layer / "data.yaml").write_text("a: 1\n")
    docs = markdown_records(layer)
    assert docs == [(".ai/repo/README.md", "# Repo\n"), ("notes.md", "# Notes\n")]
    assert _content_name(".ai/repo/README.md") == "ai/repo/page-README.md"
    hugo = hugo_site(docs, tmp_path)
    assert (hugo / "content/ai/repo/page-README.md").read_text().endswith("---\n# Repo\n")
    mkdocs = mkdocs_site(docs, tmp_path)
    assert (mkdocs / "docs/page-notes.md").read_text() == "# Notes\n"


def test_peak_memory_sums_the_whole_process_tree(tmp_path):
    # a parent that forks a child holding 64 MiB of its own: the tree's peak counts it
    code = ("import os, time\n"
            "if os.fork() == 0:\n"
            "    b = bytearray(64 * 2**20)\n"
            "    time.sleep(1.5)\n"
            "    os._exit(0)\n"
            "os.wait()\n")
    proc = subprocess.Popen([sys.executable, "-c", code])
    peak = PeakMemory(proc.pid, interval=0.05)
    time.sleep(0.6)
    assert len(_tree(proc.pid)) == 2
    proc.wait()
    assert peak.stop() >= 64 * 2**20


def test_output_size_counts_every_file(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.pack.js").write_bytes(b"12345")
    (tmp_path / "y.html").write_bytes(b"123")
    assert output_size(tmp_path) == (8, 2)


def test_output_breakdown_sorts_every_file_into_one_kind_with_its_largest(tmp_path):
    files = {"contexts/issue/I1.html": 7, "contexts/issue/I2.html": 9, "contexts/issue/I1.pack.md": 4,
             "api/v1/devcontext/compile/issue/I1.json": 6, "objects/adr/a.html": 3,
             "api/v1/objects/adr/a.json": 2, "index.html": 1, "static/copy.js": 5}
    for rel, size in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x" * size)
    kinds = output_breakdown(tmp_path)
    assert {k: (v["bytes"], v["files"], v["largest"]) for k, v in kinds.items()} == {
        "pack files": (4, 1, ("contexts/issue/I1.pack.md", 4)),
        "context pages": (16, 2, ("contexts/issue/I2.html", 9)),
        "compiled JSON": (6, 1, ("api/v1/devcontext/compile/issue/I1.json", 6)),
        "object pages": (3, 1, ("objects/adr/a.html", 3)),
        "object JSON": (2, 1, ("api/v1/objects/adr/a.json", 2)),
        "the rest": (6, 2, ("static/copy.js", 5)),
    }
    assert sum(v["bytes"] for v in kinds.values()) == output_size(tmp_path)[0]


def test_the_stage_times_read_back_as_build_timings_writes_them():
    from benchmarks.bench_scale import stage_times
    from generator.progress import StageClock, StageTime

    clock = StageClock()
    clock.stages = [StageTime("loading the layer", 8.04, 7.96, 0.0),
                    StageTime("compiling contexts (cs)", 1301.3, 300.2, 2600.64)]
    assert stage_times(f"built site: ...\n{clock.summary()}\n") == [
        ("loading the layer", 8.0, 8.0, 0.0), ("compiling contexts (cs)", 1301.3, 2900.8, 2600.6)]
    assert stage_times("built site: ...\n") == []
