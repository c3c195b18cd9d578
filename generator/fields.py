"""Typed reads of the raw ``fields`` a record was parsed into, for the values several
consumers (engine, index, site, server) read: one place decides what a malformed value
means, so the consumers cannot disagree.

Each function takes a :class:`~generator.model.LayerObject` and never raises: a value of the
wrong shape reads as absent (``None``, ``""`` or an empty sequence), as the layer's
diagnostics already report it.
"""

from __future__ import annotations

from typing import Any

from .layer.records import scalar_text
from .model import LayerObject
from .paths import is_relative_inside, normalise_path

__all__ = [
    "branch",
    "changed_files",
    "contract_mode",
    "contract_paths",
    "contract_tracks",
    "evidence",
    "rule_class",
    "scope_paths",
    "slug",
]


def _path_list(value: Any) -> tuple[str, ...]:
    """A path or list of paths: scalars as text, normalised, empty ones dropped."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return ()
    out = []
    for item in value:
        text = scalar_text(item)
        if text is not None and normalise_path(text):
            out.append(normalise_path(text))
    return tuple(out)


def slug(obj: LayerObject) -> str | None:
    """An issue's or milestone's ``slug`` as text (not stripped), or None."""
    return scalar_text(obj.fields.get("slug"))


def scope_paths(obj: LayerObject) -> list[str]:
    """An issue's or milestone's ``scope``: its string paths, normalised, in order; empty,
    absolute and ``..`` paths are left out (they cannot name a path of the repository)."""
    value = obj.fields.get("scope")
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    out = []
    for item in items:
        if isinstance(item, str):
            path = normalise_path(item)
            if is_relative_inside(path):
                out.append(path)
    return out


def changed_files(obj: LayerObject) -> tuple[str, ...]:
    """A session record's ``changed_files``, normalised, in order."""
    return _path_list(obj.fields.get("changed_files"))


def branch(obj: LayerObject) -> str | None:
    """A session record's ``branch`` when it is a string, else None."""
    value = obj.fields.get("branch")
    return value if isinstance(value, str) else None


def rule_class(obj: LayerObject) -> str:
    """A rule's ``class`` (``blocking``, ``advisory``, ...), stripped and lower-cased; ``""``
    when absent."""
    return (scalar_text(obj.fields.get("class")) or "").strip().lower()


def contract_mode(obj: LayerObject) -> str:
    """A directory contract's ``scope`` (``directory``, ``subtree``, ``explicit``), stripped
    and lower-cased; ``directory`` when absent."""
    return (scalar_text(obj.fields.get("scope")) or "directory").strip().lower()


def contract_paths(obj: LayerObject) -> tuple[str, ...]:
    """A directory contract's explicit ``paths``, normalised."""
    return _path_list(obj.fields.get("paths"))


def contract_tracks(obj: LayerObject) -> tuple[str, ...]:
    """The paths a directory contract ``tracks``, normalised."""
    return _path_list(obj.fields.get("tracks"))


def evidence(obj: LayerObject) -> list[dict[str, Any]]:
    """An issue's ``evidence`` entries that are mappings, in order."""
    value = obj.fields.get("evidence")
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]
