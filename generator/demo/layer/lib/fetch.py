"""Fetch a station's current observation. Every attempt has a timeout; attempts are counted."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any, Callable

FEED_URL = "https://feeds.example.org/stations/{station}/latest.json"
TIMEOUT_SECONDS = 5.0
ATTEMPTS = 3
BACKOFF_SECONDS = (0.5, 2.0)  # wait before the second and the third attempt


class FetchError(RuntimeError):
    """No attempt produced an answer; the message says how many were made and why."""


def _get(url: str, timeout: float) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - fixed https URL
        return response.read()


def fetch_observation(
    station: str,
    get: Callable[[str, float], bytes] = _get,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Return the decoded feed document, or raise FetchError after ATTEMPTS tries."""
    url = FEED_URL.format(station=station)
    last = "no attempt was made"
    for attempt in range(ATTEMPTS):
        if attempt:
            sleep(BACKOFF_SECONDS[attempt - 1])
        try:
            return json.loads(get(url, TIMEOUT_SECONDS))
        except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as exc:
            last = str(exc)
    raise FetchError(f"station {station}: {ATTEMPTS} attempts failed, the last with: {last}")
