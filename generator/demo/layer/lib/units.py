"""Unit conversion. Readings are stored in SI; conversion to other units is for display only."""

from __future__ import annotations

_WIND_TO_MS = {"m/s": 1.0, "km/h": 1 / 3.6, "kn": 0.514444, "mph": 0.44704}


def to_celsius(value: float, unit: str) -> float:
    if unit == "C":
        return value
    if unit == "F":
        return (value - 32.0) * 5.0 / 9.0
    if unit == "K":
        return value - 273.15
    raise ValueError(f"unknown temperature unit {unit!r}")


def to_metres_per_second(value: float, unit: str) -> float:
    try:
        return value * _WIND_TO_MS[unit]
    except KeyError:
        raise ValueError(f"unknown wind unit {unit!r}") from None


def for_display(temperature_c: float, wind_ms: float, system: str) -> tuple[str, str]:
    """Format a stored reading for the terminal, in the unit system the user asked for."""
    if system == "metric":
        return f"{temperature_c:.1f} °C", f"{wind_ms * 3.6:.0f} km/h"
    if system == "imperial":
        return f"{temperature_c * 9.0 / 5.0 + 32.0:.1f} °F", f"{wind_ms / 0.44704:.0f} mph"
    raise ValueError(f"unknown unit system {system!r}")
