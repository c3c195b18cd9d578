"""Repository-relative paths, written once: how a path from a record is normalised, whether it
stays inside the repository, and whether one path lies within another.

Paths here are ``rel_path`` values: forward slashes, relative to the repository root, ``""``
being the root itself. Containment is by whole segment (``lib`` holds ``lib/x`` but not
``library``), never by string prefix.
"""

from __future__ import annotations

__all__ = ["is_relative_inside", "is_within", "normalise_path"]


def normalise_path(text: str) -> str:
    """Trim, drop a leading ``./`` and trailing ``/``."""
    path = text.strip()
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")


def is_within(path: str, prefix: str) -> bool:
    """``path`` is ``prefix`` or lies under it by whole segment; the root ``""`` holds every
    path."""
    return prefix == "" or path == prefix or path.startswith(prefix + "/")


def is_relative_inside(path: str) -> bool:
    """A non-empty relative path with no ``..`` segment: it cannot leave the repository."""
    return bool(path) and not path.startswith("/") and ".." not in path.split("/")
