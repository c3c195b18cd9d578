"""Every case of the nasty corpus: no exception escapes loading, indexing, ``check`` or a
whole site build; the problem is a diagnostic naming the file; nothing outside the
repository is read or shown; every object the case does not damage is still on the site."""

from __future__ import annotations

import builtins
import io
import json
import os
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from generator.cli import main
from generator.engine.compile import GitInfo
from generator.site.build import SiteInputs, build_site
from generator.site.urls import object_page
from generator.workspace import Workspace
from generator.writer import write_site
from nastykit import BASE, CASES, SENTINEL, Case, write_case


@pytest.fixture(scope="module")
def base_objects(tmp_path_factory) -> dict[str, str]:
    """uri -> file of every object of the base layer alone."""
    repo, _ = write_case(tmp_path_factory.mktemp("base"), Case("base"))
    ws = Workspace.open(repo)
    assert [d for d in ws.layer.diagnostics if d.severity != "info"] == []
    return {o.uri: o.provenance.path for o in ws.layer.objects}


class _OpenTrace:
    """Every path ``open`` is given while loading: they must all lie inside the repository."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self._open = builtins.open

    def __call__(self, file, *args, **kwargs):
        if isinstance(file, (str, bytes, os.PathLike)):
            self.paths.append(os.fsdecode(file))
        return self._open(file, *args, **kwargs)


def _load_traced(repo: Path, out: Path, monkeypatch) -> tuple[Workspace, list[str]]:
    trace = _OpenTrace()
    with monkeypatch.context() as m:
        m.setattr(builtins, "open", trace)
        ws = Workspace.open(repo, exclude=[out])
    return ws, trace.paths


def _all_bytes(root: Path) -> list[tuple[str, bytes]]:
    return [(p.relative_to(root).as_posix(), p.read_bytes())
            for p in sorted(root.rglob("*")) if p.is_file()]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_nasty_case(case: Case, tmp_path, monkeypatch, base_objects):
    repo, outside = write_case(tmp_path, case)
    out = tmp_path / "site"
    ws, opened = _load_traced(repo, out, monkeypatch)

    # Nothing outside the repository was opened (by its real path, links resolved).
    repo_real = os.path.realpath(repo)
    for path in opened:
        real = os.path.realpath(path)
        assert os.path.commonpath([repo_real, real]) == repo_real, f"opened {path} ({real})"

    # The problem is a diagnostic naming the file; every diagnostic names a repo path.
    diagnostics = ws.index.diagnostics
    found = {(d.code, d.path) for d in diagnostics}
    for code, path in case.expect:
        if path is None:
            assert any(c == code for c, _ in found), (code, sorted(found))
        else:
            assert (code, path) in found, (code, path, sorted(found))
    for d in diagnostics:
        if d.path is not None:
            assert not d.path.startswith("/") and ".." not in d.path.split("/"), d
            assert str(tmp_path) not in d.message, d
        assert SENTINEL not in d.message, d

    # The whole site builds and holds every object the case did not damage.
    inputs = SiteInputs(index=ws.index, git=GitInfo(), label="nasty", files=ws.tree.files)
    write_site(build_site(inputs), out)
    if not case.damages_all:
        missing = [uri for uri, path in base_objects.items()
                   if path not in case.damages and path in BASE
                   and not (out / object_page(uri)).is_file()]
        assert missing == []
    for rel, data in _all_bytes(out):
        assert SENTINEL.encode() not in data, rel
        assert str(tmp_path).encode() not in data, rel

    # `check` reads it too, without an exception, and says the same.
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        code = main(["check", "--repo", str(repo), "--json"])
    assert code in (0, 1)
    payload = json.loads(buffer.getvalue())
    assert len(payload["diagnostics"]) == len(diagnostics)
    assert SENTINEL not in buffer.getvalue()
