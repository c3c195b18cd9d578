"""One context compiled and rendered — the job a build runs for every context it
compiles, in forked worker processes when there are many (:func:`generator.workers.ordered_map`)
— and the record a build keeps of it: everything but the answer itself (holding every
answer of a large layer does not fit in memory)."""

from __future__ import annotations

import hashlib
import pickle
import sys
import time
import zlib
from dataclasses import dataclass
from typing import Callable

from ..engine.compile import GitInfo, compile_context, compile_with_reach
from ..engine.models import CompiledContext, CompileInput, said
from ..engine.reach import Reach
from .contexts import AnswerDigest, ContextKey, ObjectStanding, excluded_uris, standings_of
from .pages.context import context_files, pack_files, pack_paths
from .pages.kit import PageKit

__all__ = ["ContextRecord", "context_job", "answer_of", "json_digest"]


@dataclass(frozen=True)
class ContextRecord:
    """What a build keeps of one compiled context."""

    #: The context's files (its JSON first), made with the answer; dropped once written.
    files: list[tuple[str, bytes]]
    #: The answer's budget and entry counts, all the overview reads of it.
    counts: AnswerDigest
    #: uri -> its standings in this context.
    standings: dict[str, tuple[ObjectStanding, ...]]
    #: What it adds to the dashboard's "most excluded" count.
    excluded: tuple[str, ...]
    #: What the answer depended on, as the engine declared it (kept by serve only).
    reach: Reach | None
    #: Digest of the answer's JSON without its fingerprint: "did the answer change".
    digest: bytes
    #: The answer's JSON, compressed (read back to render its page again); kept by serve.
    blob: bytes | None
    #: Seconds spent compiling and rendering it.
    seconds: float
    #: The paths whose bytes its pack carries (kept by serve: an edit to one makes the
    #: pack again).
    pack_paths: frozenset[str] = frozenset()
    #: The answer's sentences as phrases (not in its JSON), compressed: a page made again
    #: from the JSON says them in its reader's language; kept by serve.
    phrases: bytes | None = None

    def kept(self) -> "ContextRecord":
        """What a build keeps between builds: neither the files (written) nor the
        standings (the build's standing table holds them, by object)."""
        # interned: every context's paths arrive as separate strings from its worker, and
        # serve keeps 10,400 records of ~50 paths each on a large layer
        paths = frozenset(sys.intern(p) for p in self.pack_paths)
        return ContextRecord([], self.counts, {}, self.excluded, self.reach, self.digest,
                             self.blob, self.seconds, paths, self.phrases)


def json_digest(data: bytes, fingerprint: str) -> bytes:
    return hashlib.blake2b(data.replace(fingerprint.encode("utf-8"), b""), digest_size=16).digest()


def answer_of(record: ContextRecord, fingerprint: str) -> CompiledContext:
    """The answer a record was made from, under the current fingerprint (its other values
    are unchanged: the context was not affected since)."""
    assert record.blob is not None and record.phrases is not None, "the record keeps no JSON"
    answer = CompiledContext.model_validate_json(zlib.decompress(record.blob))
    _attach(answer, pickle.loads(zlib.decompress(record.phrases)))
    if answer.fingerprint != fingerprint:
        answer = answer.model_copy(update={"fingerprint": fingerprint})
    return answer


def phrases_of(answer: CompiledContext) -> tuple:
    """Every phrase an answer's rows carry, in the answer's order (what its JSON lacks)."""
    return (tuple(x.phrase for x in answer.excluded),
            tuple(d.phrase for d in answer.deduplicated),
            tuple(c.phrase for c in answer.conflicts),
            tuple(tuple(d.phrase for d in e.discovered_by) for e in answer.selected),
            tuple(d.phrase for d in answer.diagnostics))


def _attach(answer: CompiledContext, phrases: tuple) -> None:
    """Give the rows of an answer read back from JSON the phrases :func:`phrases_of` kept."""
    excluded, dedup, conflicts, discoveries, diagnostics = phrases
    for rows, said_rows in ((answer.excluded, excluded), (answer.deduplicated, dedup),
                            (answer.conflicts, conflicts)):
        for row, phrase in zip(rows, said_rows, strict=True):
            if phrase is not None:
                said(row, phrase)
    for entry, said_paths in zip(answer.selected, discoveries, strict=True):
        for d, phrase in zip(entry.discovered_by, said_paths, strict=True):
            if phrase is not None:
                said(d, phrase)
    for d, phrase in zip(answer.diagnostics, diagnostics, strict=True):
        if phrase is not None:
            d._phrase = phrase  # the Diagnostic's own private attribute (diagnostics.py)


def context_job(kit: PageKit, git: GitInfo, *, keep_json: bool) -> Callable[[ContextKey], ContextRecord]:
    """The job of the worker map: compile one context, render its files, and reduce the
    answer to its record (``keep_json``: with the answer's reach, the JSON's digest and the
    JSON compressed, which a rebuild plans with, compares and reads back; a one-off build
    needs none of them)."""

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
            standings={uri: tuple(rows) for uri, rows in standings_of({key: answer}).items()},
            excluded=tuple(excluded_uris(answer)), reach=reach,
            digest=json_digest(json_bytes, answer.fingerprint) if keep_json else b"",
            blob=zlib.compress(json_bytes, 1) if keep_json else None, seconds=seconds,
            pack_paths=pack_paths(answer) if keep_json else frozenset(),
            phrases=zlib.compress(pickle.dumps(phrases_of(answer), pickle.HIGHEST_PROTOCOL), 1)
            if keep_json else None)

    return job
