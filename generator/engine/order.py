"""Natural ordering: runs of digits compare by value (``I2`` before ``I10``), letters
case-insensitively first and exactly as a tie-break. One key function, used wherever the
contract asks for natural order."""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["natural_key"]

_CHUNK = re.compile(r"(\d+)")


@lru_cache(maxsize=1 << 17)
def natural_key(text: str) -> tuple:
    parts = []
    for i, chunk in enumerate(_CHUNK.split(text)):
        if i % 2:  # a run of digits
            stripped = chunk.lstrip("0") or "0"
            # equal values: the spelling with more leading zeros first
            parts.append((1, len(stripped), stripped, -len(chunk)))
        elif chunk:
            parts.append((0, chunk.lower(), chunk))
    return (tuple(parts), text)
