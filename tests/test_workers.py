"""The worker pool: results in item order whatever the pool, errors raised in the caller,
short work kept in this process, and a clear error for a bad DEVCONTEXT_WORKERS."""

from __future__ import annotations

import os
import time

import pytest

from generator import workers
from generator.errors import InputError
from generator.workers import ordered_map, worker_count


@pytest.fixture
def eager_pool(monkeypatch):
    """Start the workers at once, whatever the amount of work."""
    monkeypatch.setattr(workers, "WARMUP_SECONDS", 0)
    monkeypatch.setattr(workers, "POOL_WORTH_SECONDS", 0)


def _square_and_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


@pytest.mark.parametrize("n", [1, 2, 3])
def test_results_come_back_in_item_order(eager_pool, n):
    items = list(range(101))
    got = list(ordered_map(_square_and_pid, items, workers=n))
    assert [square for square, _ in got] == [x * x for x in items]
    pids = {pid for _, pid in got}
    if n == 1:
        assert pids == {os.getpid()}
    else:  # forked workers did the work (the parent none of it)
        assert os.getpid() not in pids and 1 <= len(pids) <= n


def test_short_work_stays_in_this_process():
    got = list(ordered_map(_square_and_pid, range(200), workers=2))
    assert {pid for _, pid in got} == {os.getpid()}


def _slow(x: int) -> tuple[int, int]:
    time.sleep(0.02)
    return x, os.getpid()


def test_long_work_moves_to_workers_after_the_warmup(monkeypatch):
    monkeypatch.setattr(workers, "WARMUP_SECONDS", 0.1)
    monkeypatch.setattr(workers, "POOL_WORTH_SECONDS", 0.2)
    got = list(ordered_map(_slow, range(60), workers=2))
    assert [x for x, _ in got] == list(range(60))
    here = [x for x, pid in got if pid == os.getpid()]
    assert here == list(range(len(here))) and 0 < len(here) < 20  # the warmup, then workers


def test_a_worker_sees_the_parents_memory_at_fork(eager_pool):
    table = {i: f"v{i}" for i in range(50)}  # never pickled: the closure is not sent anywhere
    got = list(ordered_map(lambda i: table[i], range(50), workers=2))
    assert got == [f"v{i}" for i in range(50)]


def _threshold_and_pid(_: int) -> tuple[int, int]:
    import gc

    return gc.get_threshold()[0], os.getpid()


@pytest.mark.parametrize("n", [1, 2])
def test_jobs_run_with_the_collector_less_eager_and_it_is_restored_after(eager_pool, n):
    import gc

    before = gc.get_threshold()
    got = list(ordered_map(_threshold_and_pid, range(12), workers=n))
    # in this process and in the forked workers alike
    assert {threshold for threshold, _ in got} == {max(before[0], workers.JOB_GEN0_THRESHOLD)}
    assert (n == 1) == ({pid for _, pid in got} == {os.getpid()})
    assert gc.get_threshold() == before


def test_the_heap_is_frozen_while_jobs_run_and_after_a_build_only():
    """Jobs run on a frozen heap, handed back to the collector after them unless a build
    froze it (serve, between edits), until the next full build unfreezes it; an inner
    collector leaves the heap to the outer one. Told by the module's own record, not by
    counting the frozen objects."""
    import gc

    workers.heap_before_build(builds=0, full=True)  # as a full build: whatever tests ran before
    assert gc.get_freeze_count() == 0
    try:
        with workers.collector_for_jobs():
            assert gc.get_freeze_count() > 0
            with workers.collector_for_jobs():
                pass
            assert gc.get_freeze_count() > 0  # the inner one did not unfreeze the outer's
        assert gc.get_freeze_count() == 0
        workers.heap_after_build()
        with workers.collector_for_jobs():
            pass
        assert gc.get_freeze_count() > 0  # a build's heap stays frozen after the jobs
        workers.heap_before_build(builds=3, full=False)
        assert gc.get_freeze_count() > 0  # not every build: every UNFREEZE_EVERY-th
        workers.heap_before_build(builds=3, full=True)
        assert gc.get_freeze_count() == 0
        with workers.collector_for_jobs():
            pass
        assert gc.get_freeze_count() == 0
    finally:
        workers.heap_before_build(builds=0, full=True)


def _fail_on_seven(x: int) -> int:
    if x == 7:
        raise ValueError("seven")
    return x


def test_an_error_in_a_job_is_raised_in_the_caller(eager_pool):
    with pytest.raises(ValueError, match="seven"):
        list(ordered_map(_fail_on_seven, range(40), workers=2))
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


def _signal_dispositions(_: int) -> tuple:
    import signal
    return signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT), os.getpid()


def test_workers_take_the_default_sigterm_and_leave_ctrl_c_to_the_parent(eager_pool):
    import signal

    def parent_handler(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGTERM, parent_handler)
    try:
        got = list(ordered_map(_signal_dispositions, range(8), workers=2))
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert all(pid != os.getpid() for _, _, pid in got)
    assert {(term, intr) for term, intr, _ in got} == {(signal.SIG_DFL, signal.SIG_IGN)}
    assert signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


FAILING_BUILD = """
import signal, sys, time
from generator import workers
workers.WARMUP_SECONDS = workers.POOL_WORTH_SECONDS = 0
def stop(signum, frame):
    raise KeyboardInterrupt
signal.signal(signal.SIGTERM, stop)  # as devcontext serve installs it
def job(x):
    if x == 5:
        raise ValueError("five")
    time.sleep(0.05)
    return x
try:
    list(workers.ordered_map(job, range(40), workers=2))
except ValueError:
    print("failed as expected")
"""


def test_a_failed_job_ends_the_pool_without_tracebacks_from_its_workers():
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    for _ in range(3):  # the traceback came from a race: terminate while workers wait
        proc = subprocess.run([sys.executable, "-c", FAILING_BUILD], capture_output=True,
                              text=True, timeout=60, cwd=root)
        assert proc.stdout.strip() == "failed as expected"
        assert "Traceback" not in proc.stderr, proc.stderr
