import pytest

from lib.readings import FeedError, Reading, parse_feed


def test_a_feed_is_parsed_into_si_units(feed):
    reading = parse_feed("EGLL", feed)
    assert reading.temperature_c == pytest.approx(5.0)
    assert reading.wind_ms == pytest.approx(5.0)
    assert reading.pressure_hpa == pytest.approx(1013.2)


def test_a_reading_survives_a_round_trip_through_json(feed):
    reading = parse_feed("EGLL", feed)
    assert Reading.from_json(reading.to_json()) == reading


def test_a_missing_field_is_a_feed_error_naming_the_station(feed):
    del feed["observation"]["pressure"]
    with pytest.raises(FeedError, match="EGLL"):
        parse_feed("EGLL", feed)


def test_an_implausible_temperature_is_refused(feed):
    feed["observation"].update(temperature=400.0, temperature_unit="C")
    with pytest.raises(FeedError, match="not plausible"):
        parse_feed("EGLL", feed)
