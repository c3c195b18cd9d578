"""Small deterministic helpers: slugs, dates as YAML scalars, hex ids, weighted picks."""

from __future__ import annotations

import random
import re
from datetime import datetime

from .yamltext import Raw

EPOCH = datetime(2024, 9, 2, 9, 0, 0)
_SLUG_DROP = re.compile(r"[^a-z0-9]+")


def slugify(text: str, limit: int = 60) -> str:
    slug = _SLUG_DROP.sub("-", text.lower()).strip("-")
    if len(slug) > limit:
        slug = slug[:limit].rstrip("-")
    return slug


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def date_raw(moment: datetime) -> Raw:
    return Raw(moment.date().isoformat())


def datetime_raw(moment: datetime) -> Raw:
    return Raw(moment.isoformat(sep="T", timespec="seconds") + "Z")


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y%m%dT%H%M%SZ")


def hex_digits(rng: random.Random, digits: int) -> str:
    return format(rng.getrandbits(digits * 4), f"0{digits}x")


def weighted(rng: random.Random, options: tuple, cumulative: tuple) -> object:
    """``rng.choices`` for one pick, with precomputed cumulative weights (faster)."""
    x = rng.random() * cumulative[-1]
    for option, bound in zip(options, cumulative):
        if x < bound:
            return option
    return options[-1]


def cumulative(weights: tuple) -> tuple:
    total, out = 0, []
    for w in weights:
        total += w
        out.append(total)
    return tuple(out)


class Unique:
    """Hands out unique slugs: a repeated one gets ``-2``, ``-3``, ... ."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, slug: str) -> str:
        n = self.seen.get(slug, 0) + 1
        self.seen[slug] = n
        if n == 1:
            return slug
        candidate = f"{slug}-{n}"
        while candidate in self.seen:
            n += 1
            candidate = f"{slug}-{n}"
        self.seen[slug] = n
        self.seen[candidate] = 1
        return candidate
