"""devcontext-site: compile, explain and publish the development context of an AI layer.

The engine as a library::

    from generator import Workspace
    ws = Workspace.open("path/to/repo")      # or None for the bundled demo layer
    ws.index.counts_by_kind()
"""

from __future__ import annotations

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

__all__ = [
    "__version__",
    "BuildError",
    "DevContextError",
    "Diagnostic",
    "Index",
    "InputError",
    "Layer",
    "LayerError",
    "LayerObject",
    "NotFoundError",
    "Provenance",
    "RequestError",
    "SourceTree",
    "Workspace",
    "build_index",
    "load_layer",
    "load_repository",
    "read_source_tree",
]
