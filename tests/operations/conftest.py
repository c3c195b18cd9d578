"""A served demo layer: a real ``devcontext serve`` session (its build, its live API, its
HTTP server) on a free loopback port, with the demo layer copied to a temporary place."""

from __future__ import annotations

import shutil

import pytest

from generator.demo import demo_root
from generator.serve.incremental import IncrementalBuilder
from generator.serve.session import ServeSession
from generator.workspace import Workspace


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base URL, the index it answers from)."""
    base = tmp_path_factory.mktemp("served")
    repo = base / "repo"
    shutil.copytree(demo_root(), repo)
    builder = IncrementalBuilder(repo, base / "site", label="the demo layer")
    session = ServeSession(builder, host="127.0.0.1", port=0)
    session.build()
    session.start()
    try:
        yield f"http://127.0.0.1:{session.server.port}", Workspace.open(repo).index
    finally:
        session.close()
