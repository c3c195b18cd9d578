from datetime import datetime, timedelta, timezone

from lib import cli
from lib.cache import Cache
from lib.fetch import FetchError
from lib.readings import parse_feed

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _offline(station):
    raise FetchError(f"station {station}: 3 attempts failed, the last with: timed out")


def test_show_prints_a_fresh_reading_without_fetching(tmp_path, feed, monkeypatch, capsys):
    Cache(tmp_path).put(parse_feed("EGLL", feed), T0)
    monkeypatch.setattr(cli, "_now", lambda: T0 + timedelta(minutes=2))
    monkeypatch.setattr(cli, "fetch_observation", _offline)
    assert cli.main(["--cache-dir", str(tmp_path), "show", "EGLL"]) == 0
    assert "EGLL (current): 5.0 °C" in capsys.readouterr().out


def test_a_stale_reading_is_shown_with_its_age_when_the_fetch_fails(
    tmp_path, feed, monkeypatch, capsys
):
    Cache(tmp_path).put(parse_feed("EGLL", feed), T0)
    monkeypatch.setattr(cli, "_now", lambda: T0 + timedelta(minutes=95))
    monkeypatch.setattr(cli, "fetch_observation", _offline)
    assert cli.main(["--cache-dir", str(tmp_path), "show", "EGLL"]) == 0
    out = capsys.readouterr().out
    assert "STALE, 95 min old" in out
    assert "current" not in out


def test_show_without_cache_or_network_fails_with_exit_3(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "fetch_observation", _offline)
    assert cli.main(["--cache-dir", str(tmp_path), "show", "EGLL"]) == 3
    assert "3 attempts failed" in capsys.readouterr().err
