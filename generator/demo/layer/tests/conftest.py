"""Shared fixtures. No test reaches the network (rule project.tests-never-touch-the-network)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("a test tried to open a network connection")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


@pytest.fixture
def feed() -> dict:
    return {
        "observation": {
            "time": "2026-03-02T09:00:00Z",
            "temperature": 41.0,
            "temperature_unit": "F",
            "wind_speed": 18.0,
            "wind_unit": "km/h",
            "pressure": 1013.2,
        }
    }
