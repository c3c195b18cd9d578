"""Run one function over many items in forked worker processes, results in item order.

Compiling and rendering the contexts is most of a site build, and each context is
independent of the others: on a machine with several cores they are spread over worker
processes. The workers are forked, so they share the parent's index and templates as they
are at that moment (nothing is pickled on the way in); only each item and its result cross
a pipe. Results come back in the items' order, so a build's bytes do not depend on how many
workers there were.

``DEVCONTEXT_WORKERS`` sets how many (``1`` turns the pool off); the default is the number
of cores this process may use. Fewer items than :data:`MIN_ITEMS` (or no ``fork`` on this
platform) run in this process: starting workers costs more than it saves.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from typing import Callable, Iterable, Iterator, TypeVar

from .errors import InputError

__all__ = ["worker_count", "ordered_map", "MIN_ITEMS"]

T = TypeVar("T")
R = TypeVar("R")

#: Below this many items the work runs in this process.
MIN_ITEMS = 24

#: Items handed to a worker at a time: large enough to amortise the pipe, small enough
#: that both workers stay busy to the end.
CHUNK = 4

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


def ordered_map(job: Callable[[T], R], items: Iterable[T], *, workers: int | None = None,
                min_items: int | None = None) -> Iterator[R]:
    """``job(item)`` for every item, in order; in forked workers when it pays.

    ``job`` runs in a child process that sees this process's memory as it was when the
    pool started: it must not rely on changes the parent makes later, and what it returns
    must pickle. At most a few chunks per worker are in flight, so however many items
    there are, only that many results wait in memory for the caller to take them.
    An exception in a job is raised here, in the caller.
    """
    global _JOB
    items = list(items)
    n = worker_count() if workers is None else max(1, workers)
    least = MIN_ITEMS if min_items is None else min_items
    if n <= 1 or len(items) < max(1, least) or "fork" not in multiprocessing.get_all_start_methods():
        for item in items:
            yield job(item)
        return
    chunks = [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]
    in_flight = 2 * n
    _JOB = job
    try:
        with multiprocessing.get_context("fork").Pool(min(n, len(chunks))) as pool:
            pending: deque = deque()
            for chunk in chunks:
                pending.append(pool.apply_async(_run_chunk, (chunk,)))
                if len(pending) >= in_flight:
                    yield from pending.popleft().get()
            while pending:
                yield from pending.popleft().get()
    finally:
        _JOB = None
