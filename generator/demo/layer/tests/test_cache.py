from datetime import datetime, timedelta, timezone

from lib.cache import DEFAULT_TTL, Cache
from lib.readings import parse_feed

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def test_a_reading_within_its_ttl_is_fresh(tmp_path, feed):
    cache = Cache(tmp_path)
    cache.put(parse_feed("EGLL", feed), T0)
    cached = cache.get("EGLL")
    assert cached is not None
    assert cached.is_fresh(T0 + DEFAULT_TTL)
    assert not cached.is_fresh(T0 + DEFAULT_TTL + timedelta(seconds=1))


def test_an_unknown_station_is_a_miss(tmp_path):
    assert Cache(tmp_path).get("NOPE") is None


def test_a_write_leaves_no_temporary_file_behind(tmp_path, feed):
    Cache(tmp_path).put(parse_feed("EGLL", feed), T0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["EGLL.json"]
