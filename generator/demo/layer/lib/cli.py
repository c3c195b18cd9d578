"""The `nimbus` command: fetch, show."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from pathlib import Path

from lib.cache import Cache
from lib.fetch import FetchError, fetch_observation
from lib.readings import FeedError, parse_feed
from lib.units import for_display

DEFAULT_CACHE = Path.home() / ".cache" / "nimbus"


def _now() -> datetime:
    return datetime.now(timezone.utc)


def cmd_fetch(args: argparse.Namespace, cache: Cache) -> int:
    reading = parse_feed(args.station, fetch_observation(args.station))
    cache.put(reading, _now())
    print(f"{args.station}: fetched reading observed at {reading.observed_at}")
    return 0


def cmd_show(args: argparse.Namespace, cache: Cache) -> int:
    now = _now()
    cached = cache.get(args.station)
    if cached is None or not cached.is_fresh(now):
        try:
            reading = parse_feed(args.station, fetch_observation(args.station))
        except (FetchError, FeedError) as exc:
            if cached is None:
                print(f"nimbus: {exc}", file=sys.stderr)
                return 3
            # I0201: the network failed and the cache is stale; show it, labelled with its age.
            minutes = int(cached.age(now).total_seconds() // 60)
            print(f"nimbus: {exc}; showing a reading fetched {minutes} min ago", file=sys.stderr)
            return _print(cached.reading, args.units, stale_minutes=minutes)
        cache.put(reading, now)
        return _print(reading, args.units)
    return _print(cached.reading, args.units)


def _print(reading, units: str, stale_minutes: int | None = None) -> int:
    temperature, wind = for_display(reading.temperature_c, reading.wind_ms, units)
    label = "current" if stale_minutes is None else f"STALE, {stale_minutes} min old"
    pressure = f"{reading.pressure_hpa:.0f} hPa"
    print(f"{reading.station} ({label}): {temperature}, wind {wind}, {pressure}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nimbus", description="Weather readings, cached.")
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch", help="fetch a station's current reading into the cache")
    fetch.add_argument("station")
    show = sub.add_parser("show", help="show a station's reading, fetching only when stale")
    show.add_argument("station")
    show.add_argument("--units", choices=["metric", "imperial"], default="metric")
    args = parser.parse_args(argv)
    cache = Cache(args.cache_dir)
    try:
        return {"fetch": cmd_fetch, "show": cmd_show}[args.command](args, cache)
    except (FetchError, FeedError) as exc:
        print(f"nimbus: {exc}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
