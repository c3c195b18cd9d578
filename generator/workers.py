"""Run one function over many items in forked worker processes, results in item order.

Compiling and rendering the contexts is most of a site build, and each context is
independent of the others: on a machine with several cores they are spread over worker
processes. The workers are forked, so they share the parent's index and templates as they
are at that moment (nothing is pickled on the way in); only each item and its result cross
a pipe. Results come back in the items' order, so a build's bytes do not depend on how many
workers there were.

``DEVCONTEXT_WORKERS`` sets how many (``1`` turns the pool off); the default is the number
of cores this process may use. Short work (or no ``fork`` on this platform) runs in this
process: starting workers would cost more than it saves.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import time
from collections import deque
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

from .errors import InputError

__all__ = ["worker_count", "ordered_map", "WARMUP_SECONDS", "POOL_WORTH_SECONDS",
           "heap_before_build", "heap_after_build", "UNFREEZE_EVERY", "JOB_GEN0_THRESHOLD",
           "collector_for_jobs"]

T = TypeVar("T")
R = TypeVar("R")

#: Work done in this process before deciding whether to start workers at all.
WARMUP_SECONDS = 0.25
#: Start workers only for more than this much (estimated) remaining work.
POOL_WORTH_SECONDS = 1.0

#: Items handed to a worker at a time, at least: large enough to amortise the pipe, small
#: enough that both workers stay busy to the end.
CHUNK = 4
#: Short items go in chunks of about this much work: each chunk costs the parent a task
#: sent, a result received and the pool's threads woken, which a chunk of four object pages
#: (~3 ms of work) barely outweighed. A context (~20 ms) stays in chunks of :data:`CHUNK`.
CHUNK_SECONDS = 0.025

#: The size asked for the pipe the workers' results come back through (Linux's default
#: is 64 KB, less than a chunk of object pages or of one context's files): a worker then
#: writes a chunk's results and goes on, instead of waiting, holding the pipe's lock, for
#: the parent's result thread to read it piece by piece (a reader that needs the GIL for
#: every piece, while the parent writes files). 1 MB is Linux's default most for one pipe.
RESULT_PIPE_BYTES = 1 << 20

#: The collector's youngest-generation threshold while jobs run (CPython's default is 700).
#: A context's answer and page are tens of thousands of objects that live until the context
#: is written and are then freed by reference counting; at 700 the collector walks them
#: again and again on the way. At 50,000, 30 ``large`` contexts compiled and rendered in one
#: process: 58 → 45 ms CPU each (best of 5, alternated; 44 ms with the collector off), so
#: the collector still runs, for the reference cycles a job leaves, about 70 times less often.
JOB_GEN0_THRESHOLD = 50_000

#: Every this many builds the frozen heap is handed back to the collector, which then
#: frees any reference cycles the builds in between left behind (the rest is freed as
#: soon as it is dropped, frozen or not).
UNFREEZE_EVERY = 32

# The function the forked workers run; set just before the fork, so it need not pickle.
_JOB: Callable | None = None


def worker_count() -> int:
    """How many workers to use: ``DEVCONTEXT_WORKERS``, else the cores available."""
    raw = os.environ.get("DEVCONTEXT_WORKERS", "").strip()
    if raw:
        try:
            return max(1, int(raw))
        except ValueError:
            raise InputError(f"DEVCONTEXT_WORKERS must be a whole number (1 turns the worker "
                             f"processes off), not {raw!r}") from None
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _run_chunk(chunk: list) -> list:
    assert _JOB is not None, "a worker started without its job"
    return [_JOB(item) for item in chunk]


def ordered_map(job: Callable[[T], R], items: Iterable[T], *,
                workers: int | None = None) -> Iterator[R]:
    """``job(item)`` for every item, in order; in forked workers when it pays.

    The first items run here until :data:`WARMUP_SECONDS` of work is done; if what remains
    looks like more than :data:`POOL_WORTH_SECONDS` of work, the rest goes to a pool of
    forked workers (starting one costs tens of milliseconds and a copy of the page tables,
    so small jobs never start one). ``job`` then runs in a child that sees this process's
    memory as it was at the fork: it must not rely on later changes in the parent, and
    what it returns must pickle. At most a few chunks per worker are in flight, so only
    that many results wait in memory for the caller. An error in a job is raised here.
    """
    items = list(items)
    n = worker_count() if workers is None else max(1, workers)
    with collector_for_jobs():  # entered before the fork: the workers inherit it
        yield from _map(job, items, n)


@contextmanager
def collector_for_jobs() -> Iterator[None]:
    """The garbage collector as jobs want it, restored after.

    What exists on entry (the index, a server's state) lives on past the jobs: frozen, the
    collector does not walk it again and again while the jobs allocate (on a large layer
    that walk cost more than the jobs), and forked workers do not copy it. The youngest
    generation waits for :data:`JOB_GEN0_THRESHOLD` objects, so a job's own short-lived
    heap is not walked again and again either."""
    global _JOBS_RUNNING
    owned = not _HEAP_FROZEN and _JOBS_RUNNING == 0
    gc.freeze()
    _JOBS_RUNNING += 1
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], JOB_GEN0_THRESHOLD), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        _JOBS_RUNNING -= 1
        if owned:
            gc.unfreeze()


# -- the frozen heap: gc.freeze is handled here and nowhere else ------------------------

#: Whether :func:`heap_after_build` froze the heap (and no :func:`heap_before_build` has
#: unfrozen it since), and how many :func:`collector_for_jobs` are entered: what the heap's
#: state is, known without asking ``gc.get_freeze_count()``, which counts the frozen
#: objects one by one (serve's heap after a first build of ``medium``: ~50 ms a call, and
#: a rebuild made two or three calls on the way to its first page and its last).
_HEAP_FROZEN = False
_JOBS_RUNNING = 0

def heap_before_build(builds: int, full: bool) -> None:
    """Before a build of a long-lived process (serve): let the collector see (and free)
    what earlier builds left, on a full build and every :data:`UNFREEZE_EVERY` builds."""
    global _HEAP_FROZEN
    if full or builds % UNFREEZE_EVERY == 0:
        gc.unfreeze()
        _HEAP_FROZEN = False


def heap_after_build() -> None:
    """After a build: the state it leaves lives until the next edit, and most of it far
    longer; frozen, the collector stops walking it at every allocation burst (on a large
    layer that walk took longer than the rebuild's own work)."""
    global _HEAP_FROZEN
    gc.freeze()
    _HEAP_FROZEN = True


# Blocked while the pool forks, so no worker can take one before _worker_start has run.
_POOL_SIGNALS = {signal.SIGTERM, signal.SIGINT}


def _worker_start() -> None:
    """A forked worker takes the default SIGTERM (the pool's terminate, which ends a failed
    build early, must end it quietly, not through a handler the parent installed) and leaves
    Ctrl-C to the parent, which stops the pool itself."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _POOL_SIGNALS)


def _widen_result_pipe(pool) -> None:
    """Ask for :data:`RESULT_PIPE_BYTES` of buffer on the pool's result pipe (Linux; the
    pool keeps the pipe as a private attribute: where either is missing, it stays as is)."""
    try:
        import fcntl

        fcntl.fcntl(pool._outqueue._writer.fileno(), fcntl.F_SETPIPE_SZ, RESULT_PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # pragma: no cover - not Linux, or
        pass  # above the limit


def _map(job: Callable[[T], R], items: list[T], n: int) -> Iterator[R]:
    global _JOB
    spent = 0.0
    i = 0
    if WARMUP_SECONDS > 0 or n <= 1:
        while i < len(items) and (n <= 1 or spent < WARMUP_SECONDS):
            started = time.perf_counter()
            result = job(items[i])
            spent += time.perf_counter() - started
            i += 1
            yield result
    rest = items[i:]
    if not rest:
        return
    estimate = spent / i * len(rest) if i else float("inf")
    if estimate < POOL_WORTH_SECONDS or "fork" not in multiprocessing.get_all_start_methods():
        for item in rest:
            yield job(item)
        return
    size = max(CHUNK, int(CHUNK_SECONDS * i / spent)) if spent > 0 else CHUNK
    chunks = [rest[k:k + size] for k in range(0, len(rest), size)]
    in_flight = 2 * n
    _JOB = job
    try:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _POOL_SIGNALS)
        try:
            pool = multiprocessing.get_context("fork").Pool(min(n, len(chunks)),
                                                            initializer=_worker_start)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        _widen_result_pipe(pool)
        with pool:
            pending: deque = deque()
            for chunk in chunks:
                pending.append(pool.apply_async(_run_chunk, (chunk,)))
                if len(pending) >= in_flight:
                    yield from pending.popleft().get()
            while pending:
                yield from pending.popleft().get()
    finally:
        _JOB = None
