"""Size honesty at scale: every issue and milestone context of the real layer, and of the
synthetic ``medium`` layer (a fixed sample here: every 20th issue and every milestone; the
full run is ``python tests/pack/test_pack_sizes.py``), packs in every format, holds exactly
its entries' text, and states its own size truly against the budget."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from packkit import check_pack

from generator.engine.compile import compile_context
from generator.engine.models import CompileInput
from generator.pack import PackFormat
from generator.workspace import Workspace

#: Every n-th issue of ``medium`` is packed in the suite (all milestones are).
MEDIUM_ISSUE_STEP = 20


def check_contexts(ws: Workspace, issue_step: int = 1) -> int:
    """Pack every milestone and every ``issue_step``-th issue in every format; the count."""
    n = 0
    for kind, step in (("issue", issue_step), ("milestone", 1)):
        for i, obj in enumerate(ws.index.by_kind.get(kind, [])):
            if i % step:
                continue
            answer = compile_context(ws.index, CompileInput(**{kind: obj.identity}))
            for fmt in PackFormat:
                check_pack(answer, ws.tree.files, fmt)
            n += 1
    return n


@pytest.fixture(scope="module")
def medium(tmp_path_factory) -> Workspace:
    from generator.synth import synthesize, write_layer

    root = tmp_path_factory.mktemp("medium")
    write_layer(synthesize("medium"), root)
    return Workspace.open(root)


@pytest.mark.real_layer
def test_every_real_layer_context_packs_honestly(real_layer):
    ws = Workspace.open(real_layer)
    n = check_contexts(ws)
    assert n == len(ws.index.by_kind["issue"]) + len(ws.index.by_kind["milestone"])


def test_medium_contexts_pack_honestly(medium):
    n = check_contexts(medium, MEDIUM_ISSUE_STEP)
    assert n >= len(medium.index.by_kind["milestone"]) + 40


if __name__ == "__main__":  # the full medium run
    import tempfile
    import time

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from generator.synth import synthesize, write_layer

    with tempfile.TemporaryDirectory() as tmp:
        write_layer(synthesize(sys.argv[1] if len(sys.argv) > 1 else "medium"), Path(tmp))
        started = time.perf_counter()
        count = check_contexts(Workspace.open(tmp))
        print(f"{count} contexts packed honestly in 3 formats in "
              f"{time.perf_counter() - started:.0f}s")
