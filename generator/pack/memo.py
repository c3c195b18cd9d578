"""A bounded memo: what a pure function made of a value, kept for the next pack that
asks, up to a fixed number of values (the oldest forgotten first)."""

from __future__ import annotations

from typing import TypeVar

__all__ = ["Memo"]

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict of at most ``size`` items: adding one more forgets the oldest. Only for
    values a pure function made of their key, so forgetting one costs only the making."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.size and key not in self:
            del self[next(iter(self))]
        super().__setitem__(key, value)
