"""Reading and loading the layer for a build: the whole tree the first time; after an
edit only the changed paths (the reader's own rules), and only the changed files parsed
again (:func:`load_file`, through the parse cache), then the layer assembled from the
per-file parts."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..diagnostics import Diagnostic
from ..layer.discovery import MANIFEST_PATH
from ..layer.loader import (
    FileLoad,
    Layer,
    LayerSetup,
    assemble_layer,
    fingerprint_of,
    layer_setup,
    load_file,
)
from ..layer.limits import DEFAULT_LIMITS, Limits
from ..layer.reassemble import reassembled_layer
from ..layer.reader import read_paths, read_source_tree
from ..paths import is_within

__all__ = ["Sources", "read_all", "read_changes", "load_all", "load_changes"]


@dataclass(frozen=True)
class Sources:
    """The layer's files as last read, and what was made of them."""

    files: dict[str, bytes]
    problems: list[Diagnostic]
    setup: LayerSetup
    loads: dict[str, FileLoad | None]
    layer: Layer


def read_all(root: Path, exclude: list[Path], limits: Limits = DEFAULT_LIMITS
             ) -> tuple[dict[str, bytes], list[Diagnostic]]:
    tree = read_source_tree(root, exclude=exclude, limits=limits)
    return tree.files, list(tree.problems)


def read_changes(root: Path, old: Sources, paths: Iterable[str], *, full_read: bool,
                 exclude: list[Path], limits: Limits = DEFAULT_LIMITS
                 ) -> tuple[dict[str, bytes], list[Diagnostic], set[str]]:
    """The new files and problems, and the paths whose bytes changed: only ``paths`` are
    read, unless told to read everything, a path that held files is gone (a directory
    moved or deleted) or the reader's own rules need the whole tree; the whole tree then."""
    paths = {p.replace(os.sep, "/").strip("/") for p in paths}
    paths.discard("")
    if not full_read and not paths:
        return old.files, old.problems, set()
    gone_dirs = [p for p in paths if p not in old.files and any(is_within(k, p) for k in old.files)]
    result = None
    if not full_read and not gone_dirs:  # None: the reader needs the whole tree read
        result = read_paths(root, paths, manifest=old.setup.manifest, classes=old.setup.classes,
                            exclude=exclude, limits=limits)
    if result is None:
        files, problems = read_all(root, exclude, limits)
        changed = {p for p in files.keys() | old.files.keys() if files.get(p) != old.files.get(p)}
        return files, problems, changed
    reread, found = result
    changed = {p for p, data in reread.items() if data != old.files.get(p)}
    problems = [d for d in old.problems if d.path not in reread] + found
    if not changed:
        return old.files, problems, changed
    files = dict(old.files)
    added_or_removed = False
    for p in changed:
        data = reread[p]
        if data is None:
            del files[p]
            added_or_removed = True
        else:
            added_or_removed = added_or_removed or p not in files
            files[p] = data
    if added_or_removed:
        files = dict(sorted(files.items()))
    return files, problems, changed


def _assemble(setup: LayerSetup, files: dict[str, bytes], problems: list[Diagnostic],
              loads: dict[str, FileLoad | None], sizes: dict[str, int] | None = None) -> Layer:
    return assemble_layer(setup, problems, (loads[p] for p in files),
                          fingerprint=fingerprint_of(files),
                          files={p: len(b) for p, b in files.items()} if sizes is None else sizes)


def _sizes_after(old: Sources, files: dict[str, bytes], changed_paths: set[str]
                 ) -> dict[str, int] | None:
    """Every file's size after an edit that added or removed none, from the last build's
    (in the same order); None when the set of files changed (then counted again)."""
    if len(files) != len(old.files) or any(p not in files for p in changed_paths):
        return None
    sizes = dict(old.layer.files)
    for p in changed_paths:
        if p not in sizes:
            return None
        sizes[p] = len(files[p])
    return sizes


def load_all(files: dict[str, bytes], problems: list[Diagnostic], cache: dict,
             limits: Limits = DEFAULT_LIMITS) -> Sources:
    setup = layer_setup(files, limits=limits)
    loads = {p: load_file(setup, p, data, cache=cache) for p, data in files.items()}
    return Sources(files, problems, setup, loads, _assemble(setup, files, problems, loads))


def load_changes(old: Sources, files: dict[str, bytes], problems: list[Diagnostic],
                 changed_paths: set[str], cache: dict, limits: Limits = DEFAULT_LIMITS) -> Sources:
    """Only the changed files loaded again; all of them when the manifest's discovery
    (classes, sections, contract names) changed. The layer is the last one with the changed
    files' parts put in (:mod:`generator.layer.reassemble`) when the edit allows it, else
    assembled again from every file's part."""
    setup = old.setup
    added_or_removed = any((p in files) != (p in old.files) for p in changed_paths)
    if added_or_removed or MANIFEST_PATH in changed_paths or old.setup.src_path in changed_paths:
        setup = layer_setup(files, limits=limits)
    if setup.discovery_key() != old.setup.discovery_key():
        loads = {p: load_file(setup, p, data, cache=cache) for p, data in files.items()}
    else:
        loads = dict(old.loads)
        for p in changed_paths:
            if p in files:
                loads[p] = load_file(setup, p, files[p], cache=cache)
            else:
                loads.pop(p, None)
    sizes = _sizes_after(old, files, changed_paths)
    layer = None
    if sizes is not None:
        layer = reassembled_layer(old.layer, old.setup, setup, old.problems, problems, old.loads,
                                  loads, changed_paths, fingerprint=fingerprint_of(files),
                                  files=sizes)
    if layer is None:
        layer = _assemble(setup, files, problems, loads, sizes)
    return Sources(files, problems, setup, loads, layer)
