"""A repository opened for work: its root, its source tree, layer and index.

The CLI and the server hold one of these. Loading is the only I/O; the
layer and index are pure values rebuilt from the tree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .demo import demo_root
from .index import Index, build_index
from .layer.limits import DEFAULT_LIMITS, Limits
from .layer.loader import Layer, ParseCache, load_layer
from .layer.reader import SourceTree, read_source_tree

__all__ = ["Workspace", "resolve_repo"]

#: Environment variable naming the default repository (the CLI's ``--repo`` wins).
REPO_ENV = "DEVCONTEXT_REPO"


def resolve_repo(repo: str | os.PathLike | None) -> tuple[Path, bool]:
    """The repository to read and whether it is the bundled demo."""
    if repo is None:
        repo = os.environ.get(REPO_ENV) or None
    if repo is None:
        return demo_root(), True
    return Path(repo), False


@dataclass
class Workspace:
    root: Path
    is_demo: bool
    tree: SourceTree
    layer: Layer
    index: Index

    @classmethod
    def open(
        cls,
        repo: str | os.PathLike | None = None,
        *,
        exclude: Iterable[Path] = (),
        cache: ParseCache | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> "Workspace":
        """Read and load ``repo``; a file beyond ``limits`` becomes a diagnostic."""
        root, is_demo = resolve_repo(repo)
        tree = read_source_tree(root, exclude=exclude, limits=limits)
        layer = load_layer(tree, cache=cache, limits=limits)
        return cls(root=root, is_demo=is_demo, tree=tree, layer=layer, index=build_index(layer))

    @property
    def label(self) -> str:
        """How to name this repository to a person (never an absolute path in outputs)."""
        return "the demo layer" if self.is_demo else str(self.root)
