"""The worker pool: results in item order whatever the pool, errors raised in the caller,
the pool really used when asked for, and a clear error for a bad DEVCONTEXT_WORKERS."""

from __future__ import annotations

import os

import pytest

from generator import workers
from generator.errors import InputError
from generator.workers import ordered_map, worker_count


def _square_and_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


@pytest.mark.parametrize("n", [1, 2, 3])
def test_results_come_back_in_item_order(n):
    items = list(range(101))
    got = list(ordered_map(_square_and_pid, items, workers=n, min_items=1))
    assert [square for square, _ in got] == [x * x for x in items]
    pids = {pid for _, pid in got}
    if n == 1:
        assert pids == {os.getpid()}
    else:  # forked workers did the work (the parent none of it)
        assert os.getpid() not in pids and 1 <= len(pids) <= n


def test_few_items_run_in_this_process():
    got = list(ordered_map(_square_and_pid, range(5), workers=2, min_items=24))
    assert {pid for _, pid in got} == {os.getpid()}


def test_a_worker_sees_the_parents_memory_at_fork():
    table = {i: f"v{i}" for i in range(50)}  # never pickled: the closure is not sent anywhere
    got = list(ordered_map(lambda i: table[i], range(50), workers=2, min_items=1))
    assert got == [f"v{i}" for i in range(50)]


def _fail_on_seven(x: int) -> int:
    if x == 7:
        raise ValueError("seven")
    return x


def test_an_error_in_a_job_is_raised_in_the_caller():
    with pytest.raises(ValueError, match="seven"):
        list(ordered_map(_fail_on_seven, range(40), workers=2, min_items=1))
    assert workers._JOB is None


def test_worker_count_from_the_environment(monkeypatch):
    monkeypatch.setenv("DEVCONTEXT_WORKERS", "3")
    assert worker_count() == 3
    monkeypatch.setenv("DEVCONTEXT_WORKERS", "0")
    assert worker_count() == 1
    monkeypatch.setenv("DEVCONTEXT_WORKERS", "many")
    with pytest.raises(InputError, match="DEVCONTEXT_WORKERS must be a whole number"):
        worker_count()
    monkeypatch.delenv("DEVCONTEXT_WORKERS")
    assert worker_count() >= 1
