"""A station reading, parsed from a feed and held in SI units."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from lib.units import to_celsius, to_metres_per_second


class FeedError(ValueError):
    """The feed answered, but not with a reading we can trust."""


@dataclass(frozen=True)
class Reading:
    station: str
    observed_at: str  # ISO 8601, UTC, as the station reported it
    temperature_c: float
    wind_ms: float
    pressure_hpa: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reading:
        return cls(**data)


def parse_feed(station: str, payload: dict[str, Any]) -> Reading:
    """Turn one feed document into a Reading, converting to SI on the way in (ADR 0002)."""
    try:
        obs = payload["observation"]
        temperature = to_celsius(float(obs["temperature"]), obs.get("temperature_unit", "C"))
        wind = to_metres_per_second(float(obs["wind_speed"]), obs.get("wind_unit", "m/s"))
        pressure = float(obs["pressure"])
        observed_at = str(obs["time"])
    except (KeyError, TypeError, ValueError) as exc:
        raise FeedError(f"station {station}: unreadable observation ({exc})") from exc
    if not -90.0 <= temperature <= 60.0:
        raise FeedError(f"station {station}: temperature {temperature} C is not plausible")
    return Reading(station, observed_at, temperature, wind, pressure)
