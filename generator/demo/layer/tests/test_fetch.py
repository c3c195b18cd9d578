import json
import urllib.error

import pytest

from lib import fetch


def test_a_fetch_stops_after_the_declared_number_of_attempts():
    calls, waits = [], []

    def failing_get(url, timeout):
        calls.append(timeout)
        raise urllib.error.URLError("connection refused")

    with pytest.raises(fetch.FetchError, match="3 attempts failed"):
        fetch.fetch_observation("EGLL", get=failing_get, sleep=waits.append)
    assert calls == [fetch.TIMEOUT_SECONDS] * fetch.ATTEMPTS
    assert waits == list(fetch.BACKOFF_SECONDS)


def test_a_second_attempt_that_answers_is_used(feed):
    answers = iter([TimeoutError("timed out"), json.dumps(feed).encode()])

    def flaky_get(url, timeout):
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert fetch.fetch_observation("EGLL", get=flaky_get, sleep=lambda _: None) == feed
