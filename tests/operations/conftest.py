"""A served demo layer for the conformance run: the registry's HTTP surface on the
product's own server, on a free loopback port."""

from __future__ import annotations

import pytest

from generator.operations.http import REGISTRY_ROUTES, HttpSurface
from generator.serve.server import DevServer
from generator.workspace import Workspace


@pytest.fixture(scope="module")
def served_api(tmp_path_factory):
    index = Workspace.open().index
    surface = HttpSurface()
    server = DevServer(tmp_path_factory.mktemp("site"), host="127.0.0.1", port=0,
                       api=lambda route, pairs: surface.answer(route, index, pairs),
                       api_routes=REGISTRY_ROUTES)
    server.start()
    yield f"http://127.0.0.1:{server.port}"
    server.close()
