"""The MCP server's view of the layer: reloaded exactly when something it read changed."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from generator.demo import demo_root
from generator.errors import LayerError
from generator.mcp.live import CLOCK_MARGIN_NS, LiveLayer


@pytest.fixture
def repo(tmp_path):
    target = tmp_path / "repo"
    shutil.copytree(demo_root(), target)
    old = time.time() - 60  # files from a minute ago: the first load is trusted
    for dirpath, dirnames, filenames in os.walk(target):
        for name in dirnames + filenames:
            os.utime(os.path.join(dirpath, name), (old, old))
    os.utime(target, (old, old))
    return target


def _age(path, seconds=60.0):
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_an_unchanged_layer_is_not_read_again(repo):
    live = LiveLayer(repo)
    first = live.current().index
    assert live.current().index is first and live.loads == 1
    assert ".ai/manifest.yaml" in live._paths and ".ai" in live._paths


def _settle(live, *paths):
    """Age what a step touched past the clock margin, so the next load is trusted and a
    reload after it can only come from the next change."""
    for path in paths:
        _age(path)
    live.current()
    assert live._signature is not None
    return live.loads


def test_an_edit_a_new_file_and_a_removal_each_reload(repo):
    live = LiveLayer(repo)
    live.current()
    adrs = repo / ".ai" / "repo" / "adrs"
    adr = next(adrs.glob("0002-*.md"))
    text = adr.read_text(encoding="utf-8")
    adr.write_text(text.replace("SI units", "SI-units", 1), encoding="utf-8")  # same size
    index = live.current().index
    assert "SI-units" in index.get("majordomus://adr/adr-0002").title
    loads = _settle(live, adr)
    assert live.current() and live.loads == loads
    knowledge = repo / ".ai" / "repo" / "knowledge"
    new_dir = knowledge / "deeper"
    new_dir.mkdir()
    (new_dir / "note.md").write_text("# A note\n", encoding="utf-8")
    live.current()
    assert live.loads == loads + 1
    loads = _settle(live, new_dir / "note.md", new_dir, knowledge)
    adr.unlink()
    index = live.current().index
    assert live.loads == loads + 1 and index.get("majordomus://adr/adr-0002") is None


def test_a_file_written_during_the_read_is_not_trusted(repo):
    live = LiveLayer(repo)
    live.current()
    adr = next((repo / ".ai" / "repo" / "adrs").glob("0002-*.md"))
    adr.write_text(adr.read_text(encoding="utf-8") + "\nmore\n", encoding="utf-8")
    live.current()  # the write is within the clock margin of this load
    assert live._signature is None
    _age(adr, CLOCK_MARGIN_NS / 1e9 * 4)
    loads = live.loads
    live.current()
    assert live.loads == loads + 1 and live._signature is not None
    live.current()
    assert live.loads == loads + 1


def test_a_repository_that_loses_its_layer_raises(repo):
    live = LiveLayer(repo)
    live.current()
    (repo / ".ai" / "manifest.yaml").unlink()
    with pytest.raises(LayerError, match="has no .ai/manifest.yaml"):
        live.current()
