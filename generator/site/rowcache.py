"""Rendered rows of the site-wide files, remembered between builds.

``api/v1/objects.json`` holds a row per object, ``api/v1/index.json`` one per context, the
plan and the kind pages one per issue or object. After an edit nearly every object of the
new index is the very object of the previous one (unchanged files are not parsed again,
and objects are immutable), so its row is the same text: rendering 30,000 unchanged rows
again was a large share of every rebuild of a large layer. A row is reused only for the
same object (identity, not equality) and the same derived values; anything else is
rendered again.
"""

from __future__ import annotations

from typing import Callable, Hashable

from ..model import LayerObject

__all__ = ["RowCache"]


class RowCache:
    """``text(table, obj, derived, make)``: ``make()``'s text, reused while ``obj`` is the
    same object and ``derived`` (what else the row shows) is equal."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], tuple[LayerObject, Hashable, str]] = {}

    def text(self, table: str, obj: LayerObject, derived: Hashable, make: Callable[[], str]) -> str:
        key = (table, obj.uri)
        hit = self._rows.get(key)
        if hit is not None and hit[0] is obj and hit[1] == derived:
            return hit[2]
        text = make()
        self._rows[key] = (obj, derived, text)
        return text

    def keep_only(self, uris: set[str] | dict) -> None:
        """Forget the rows of objects that are gone (called after a build)."""
        for key in [k for k in self._rows if k[1] not in uris]:
            del self._rows[key]

    def __len__(self) -> int:
        return len(self._rows)
