"""devcontext-site: compile, explain and publish the development context of an AI layer.

The engine as a library, stage by stage -- load, index, compile, explain, query, build::

    >>> from generator import (CompileInput, ExplainInput, Workspace, compile_context,
    ...                        cross_ref_query, explain, text_query)
    >>> ws = Workspace.open()                  # a repository root, or None: the bundled demo
    >>> ws.index.counts_by_kind()["issue"]
    12
    >>> answer = compile_context(ws.index, CompileInput(issue="I0102"))
    >>> answer.selected[0].uri, answer.budget.over_budget
    ('majordomus://issue/I0102', False)
    >>> explain(ws.index, ExplainInput(issue="I0102", uri="majordomus://adr/adr-0002")).standing
    <Standing.selected: 'selected'>
    >>> text_query(ws.index, "stale reading", limit=1).hits[0].anchor
    'majordomus://claim/stale-readings-are-labelled'
    >>> walk = cross_ref_query(ws.index, "majordomus://issue/I0102", depth=1, limit=3)
    >>> [hit.anchor for hit in walk.hits][1:]
    ['majordomus://issue/I0101', 'majordomus://milestone/first-release']

Building the site is ``write_site(build_site(SiteInputs(index=ws.index, files=ws.tree.files)),
out_dir)``: the build yields ``(path, bytes)`` pairs (each context's pack carries the tree's
bytes), the writer replaces ``out_dir`` atomically.

``Workspace.open`` does the I/O (``read_source_tree`` then ``load_layer`` then
``build_index``); everything after it takes values and returns values. The loading and index
names are imported with the package; the engine, the query engine and the site build are
imported on first use (PEP 562 ``__getattr__``), so ``import generator`` -- which every CLI
verb pays, ``synth`` and ``list`` included -- costs what it did before they were exported
(``python -X importtime``: the engine adds ~50 ms, the site build with Jinja ~80 ms, to the
package's ~200 ms).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

from .diagnostics import Diagnostic
from .errors import (
    BuildError,
    DevContextError,
    InputError,
    LayerError,
    NotFoundError,
    RequestError,
)
from .index import Index, build_index
from .layer.loader import Layer, load_layer, load_repository
from .layer.reader import SourceTree, read_source_tree
from .model import LayerObject, Provenance
from .workspace import Workspace

if TYPE_CHECKING:  # what the lazy names below resolve to, for type checkers and readers
    from .engine.compile import GitInfo, compile_context
    from .engine.explain import explain, explain_in
    from .engine.models import CompiledContext, CompileInput, ExplainInput, Explanation
    from .query.crossref import cross_ref_query
    from .query.models import Hit, Trace
    from .query.text import text_query
    from .site.build import SiteInputs, build_site
    from .writer import SiteStats, write_site

#: Exported name -> the module it lives in, imported on first access.
_LAZY: dict[str, str] = {
    # compile
    "CompileInput": "generator.engine.models",
    "CompiledContext": "generator.engine.models",
    "GitInfo": "generator.engine.compile",
    "compile_context": "generator.engine.compile",
    # explain
    "ExplainInput": "generator.engine.models",
    "Explanation": "generator.engine.models",
    "explain": "generator.engine.explain",
    "explain_in": "generator.engine.explain",
    # query
    "Hit": "generator.query.models",
    "Trace": "generator.query.models",
    "cross_ref_query": "generator.query.crossref",
    "text_query": "generator.query.text",
    # build
    "SiteInputs": "generator.site.build",
    "build_site": "generator.site.build",
    "SiteStats": "generator.writer",
    "write_site": "generator.writer",
}

__all__ = [
    "BuildError",
    "CompileInput",
    "CompiledContext",
    "DevContextError",
    "Diagnostic",
    "ExplainInput",
    "Explanation",
    "GitInfo",
    "Hit",
    "Index",
    "InputError",
    "Layer",
    "LayerError",
    "LayerObject",
    "NotFoundError",
    "Provenance",
    "RequestError",
    "SiteInputs",
    "SiteStats",
    "SourceTree",
    "Trace",
    "Workspace",
    "__version__",
    "build_index",
    "build_site",
    "compile_context",
    "cross_ref_query",
    "explain",
    "explain_in",
    "load_layer",
    "load_repository",
    "read_source_tree",
    "text_query",
    "write_site",
]


def __getattr__(name: str) -> Any:
    """Import a lazily exported name on first access and keep it on the package."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'generator' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
