"""The on-disk cache: one JSON file per station, written atomically.

The cache is disposable (rule project.the-cache-is-disposable): deleting the directory loses
speed, never data the tool cannot fetch again.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from lib.readings import Reading

DEFAULT_TTL = timedelta(minutes=10)


@dataclass(frozen=True)
class Cached:
    reading: Reading
    fetched_at: datetime

    def age(self, now: datetime) -> timedelta:
        return now - self.fetched_at

    def is_fresh(self, now: datetime, ttl: timedelta = DEFAULT_TTL) -> bool:
        return self.age(now) <= ttl


class Cache:
    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, station: str) -> Path:
        return self.root / f"{station}.json"

    def get(self, station: str) -> Cached | None:
        try:
            data = json.loads(self._path(station).read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        fetched_at = datetime.fromisoformat(data["fetched_at"])
        return Cached(Reading.from_json(data["reading"]), fetched_at)

    def put(self, reading: Reading, fetched_at: datetime) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        body = {"reading": reading.to_json(), "fetched_at": fetched_at.isoformat()}
        fd, tmp = tempfile.mkstemp(dir=self.root, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(body, handle, sort_keys=True)
        os.replace(tmp, self._path(reading.station))

