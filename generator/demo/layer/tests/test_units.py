import pytest

from lib.units import for_display, to_celsius, to_metres_per_second


@pytest.mark.parametrize(
    ("value", "unit", "expected"), [(0, "C", 0), (212, "F", 100), (273.15, "K", 0)]
)
def test_temperatures_are_converted_to_celsius(value, unit, expected):
    assert to_celsius(value, unit) == pytest.approx(expected)


@pytest.mark.parametrize(("value", "unit", "expected"), [(36, "km/h", 10), (10, "kn", 5.14444)])
def test_wind_is_converted_to_metres_per_second(value, unit, expected):
    assert to_metres_per_second(value, unit) == pytest.approx(expected)


def test_an_unknown_unit_is_refused():
    with pytest.raises(ValueError, match="furlongs"):
        to_metres_per_second(1, "furlongs")


def test_display_converts_only_at_the_edge():
    assert for_display(5.0, 5.0, "metric") == ("5.0 °C", "18 km/h")
    assert for_display(5.0, 5.0, "imperial") == ("41.0 °F", "11 mph")
