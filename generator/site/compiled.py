"""One context compiled and rendered — the job a build runs for every context it
compiles, in forked worker processes when there are many (:func:`generator.workers.ordered_map`)
— and the record a build keeps of it: everything but the answer itself (holding every
answer of a large layer does not fit in memory). A context whose page is made again without
its answer having changed (a template edit, a file its pack carries) is compiled again: its
reach says the answer is the same, and keeping every answer's JSON compressed to read back
instead cost 2.5 ms of zlib a context and 360 MB on a large layer."""

from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import dataclass
from typing import Callable

from ..engine.compile import GitInfo, compile_context, compile_with_reach
from ..engine.models import CompileInput
from ..engine.reach import Reach
from .contexts import AnswerDigest, ContextKey, excluded_uris, standings_of
from .pages.context import context_files, pack_files, pack_paths
from .pages.kit import PageKit
from .standing_table import SentStandings, StandingsSender

__all__ = ["ContextRecord", "context_job", "json_digest"]


@dataclass(frozen=True)
class ContextRecord:
    """What a build keeps of one compiled context."""

    #: The context's files (its JSON first), made with the answer; dropped once written.
    files: list[tuple[str, bytes]]
    #: The answer's budget and entry counts, all the overview reads of it.
    counts: AnswerDigest
    #: uri -> its standings in this context, and what it adds to the dashboard's "most
    #: excluded" count, as the job's process sends them (a :class:`.StandingsReceiver`
    #: of the build reads them).
    standings: SentStandings | None
    #: The excluded uris, read (kept by serve: a rebuild takes them off the count).
    excluded: tuple[str, ...]
    #: What the answer depended on, as the engine declared it (kept by serve only).
    reach: Reach | None
    #: Digest of the answer's JSON without its fingerprint: "did the answer change".
    digest: bytes
    #: Seconds spent compiling and rendering it.
    seconds: float
    #: The paths whose bytes its pack carries (kept by serve: an edit to one makes the
    #: pack again).
    pack_paths: frozenset[str] = frozenset()

    def kept(self, excluded: tuple[str, ...]) -> "ContextRecord":
        """What a build keeps between builds: neither the files (written) nor the
        standings (the build's standing table holds them, by object); the excluded uris
        as received."""
        # interned: every context's paths arrive as separate strings from its worker, and
        # serve keeps 10,400 records of ~50 paths each on a large layer
        paths = frozenset(sys.intern(p) for p in self.pack_paths)
        return ContextRecord([], self.counts, None, excluded, self.reach, self.digest,
                             self.seconds, paths)


def json_digest(data: bytes, fingerprint: str) -> bytes:
    """A digest of an answer's JSON with every occurrence of the fingerprint left out (an
    edit moves the fingerprint of every answer, and most answers not otherwise). SHA-256,
    which the CPU computes (several times faster than BLAKE2 here), over the pieces between
    the fingerprints (no copy of a large layer's 250 KB answer)."""
    fp = fingerprint.encode("utf-8")
    digest, view, start = hashlib.sha256(), memoryview(data), 0
    while fp and (at := data.find(fp, start)) >= 0:
        digest.update(view[start:at])
        start = at + len(fp)
    digest.update(view[start:])
    return digest.digest()[:16]


def context_job(kit: PageKit, git: GitInfo, *, keep_json: bool) -> Callable[[ContextKey], ContextRecord]:
    """The job of the worker map: compile one context, render its files, and reduce the
    answer to its record (``keep_json``: with the answer's reach, its JSON's digest and the
    paths its pack carries, which a rebuild plans with and compares; a one-off build needs
    none of them)."""
    sender = StandingsSender()

    def job(key: ContextKey) -> ContextRecord:
        t0 = time.perf_counter()
        request = CompileInput(**{key.kind: key.identity})
        if keep_json:
            answer, reach = compile_with_reach(kit.index, request, git=git)
        else:  # a one-off build plans no rebuild: no reach to compute or send back
            answer, reach = compile_context(kit.index, request, git=git), None
        files = context_files(kit, key, answer) + pack_files(kit, key, answer)
        seconds = time.perf_counter() - t0
        json_bytes = files[0][1]
        return ContextRecord(
            files=files, counts=AnswerDigest.of(answer),
            standings=sender.send(standings_of(answer), excluded_uris(answer)),
            excluded=(), reach=reach,
            digest=json_digest(json_bytes, answer.fingerprint) if keep_json else b"",
            seconds=seconds, pack_paths=pack_paths(answer) if keep_json else frozenset())

    return job
