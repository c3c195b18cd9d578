"""The layer after an edit, from the last one and the edited files' parts: the objects of
the changed files put in their old ones' places and their diagnostics in theirs — in time
proportional to the edit, not to the layer (assembling a large layer's 31,000 files again
took 0.36 s, before an edit's first page could be shown).

Only for an edit that adds and removes no file, keeps every object's URI, kind, identity,
path and member (so the same object wins each identity, and no case clash comes or goes),
keeps what each file is claimed by, and touches no diagnostic another file could also have
made; :func:`reassembled_layer` says None otherwise and the layer is assembled afresh.
Equal to :func:`generator.layer.loader.assemble_layer` of the same parts: the property
test ``tests/serve/test_incremental_structures.py`` checks it after random edits.
"""

from __future__ import annotations

import bisect
from typing import Mapping

from ..diagnostics import Diagnostic, sort_diagnostics
from ..model import LayerObject
from .discovery import MANIFEST_PATH
from .loader import FileLoad, Layer, LayerSetup

__all__ = ["reassembled_layer"]

#: Diagnostics that weigh one file against others (made by the assembly, not by a file).
_ACROSS_FILES = frozenset({"duplicate_identity", "case_clash", "required_class_empty"})


def _shape(load: FileLoad | None) -> tuple | None:
    """What of a file's part the assembly weighs against other files' parts."""
    if load is None:
        return None
    return (load.claims, tuple((o.uri, o.kind, o.identity, o.provenance.path,
                                o.provenance.member) for o in load.objects))


def reassembled_layer(old: Layer, old_setup: LayerSetup, setup: LayerSetup,
                      old_problems: list[Diagnostic], problems: list[Diagnostic],
                      old_loads: Mapping[str, FileLoad | None],
                      loads: Mapping[str, FileLoad | None], changed: set[str], *,
                      fingerprint: str, files: dict[str, int]) -> Layer | None:
    """The layer ``assemble_layer`` makes of ``loads`` after the edit of ``changed`` (whose
    parts were ``old_loads``' before), or None when the edit is not one it can take."""
    if setup is not old_setup or MANIFEST_PATH in changed or setup.src_path in changed:
        return None
    if any(d.path in changed for d in setup.diagnostics):
        return None
    for path in changed:
        if path not in old_loads or path not in loads:
            return None  # a file came or went
        before, after = old_loads[path], loads[path]
        if _shape(before) != _shape(after):
            return None
        for load in (before, after):
            if load is not None and any(d.path != path for d in load.diagnostics):
                return None
    moved = set(old_problems).symmetric_difference(problems)
    if any(d.path not in changed for d in moved):
        return None
    kept: list[Diagnostic] = []
    for d in old.diagnostics:
        if d.path in changed:
            if d.code in _ACROSS_FILES:
                return None
        else:
            kept.append(d)
    objects = list(old.objects)
    for path in sorted(changed):
        before, after = old_loads[path], loads[path]
        if before is None or after is None:
            continue
        for was, now in zip(before.objects, after.objects):
            at = bisect.bisect_left(objects, was.uri, key=_uri)
            if at < len(objects) and objects[at] is was:  # it held its identity: it still does
                objects[at] = now
    fresh = [d for d in problems if d.path in changed]
    for path in sorted(changed):  # in path order, as the assembly meets them
        load = loads[path]
        if load is not None:
            fresh.extend(load.diagnostics)
    return Layer(
        manifest=old.manifest,
        classes=old.classes,
        objects=tuple(objects),
        diagnostics=tuple(sort_diagnostics(kept + fresh)),
        fingerprint=fingerprint,
        files=files,
    )


def _uri(obj: LayerObject) -> str:
    return obj.uri
