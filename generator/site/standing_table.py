"""Every object's standing in every context, inverted from the answers and kept between
builds: uri -> context -> that object's standings there. A rebuild replaces the rows of
the answers that changed and says which objects' standings moved.

Compact, because a large layer's table holds five million standings: a context's rows of
one object are plain tuples (:data:`~.contexts.StandingRow`), and equal rows are kept once
(interned as they arrive: most of an object's standings differ only in the context).

Each object's contexts are kept in context order (:class:`~.contexts.ContextKey`'s), so a
page reads them as they are, without sorting (a large layer's pages read five million).

An answer's standings cross from its worker as numbers (:class:`SentStandings`): each
process numbers the uris and the distinct rows it sends, and sends each one's value only
the first time. A large layer's 10,400 answers hold five million standings but fewer than
100,000 distinct rows, so the build's main process (which receives every answer, and
shares two cores with the workers) neither unpickles nor hashes them again and again."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .contexts import ContextKey, ObjectStanding, StandingFact, StandingRow

__all__ = ["StandingTable", "Rows", "StandingsView", "SentStandings", "StandingsSender",
           "StandingsReceiver"]

ContextRows = tuple[StandingRow, ...]
PerContext = dict[ContextKey, ContextRows]


class Rows(Sequence):
    """One object's standings in every context, in context order (the table keeps them so);
    made into standings only when first read (its length is known without them)."""

    def __init__(self, per: PerContext, n: int | None = None) -> None:
        self.per = per
        self.n = n
        self._rows: list[ObjectStanding] | None = None

    def _all(self) -> list[ObjectStanding]:
        if self._rows is None:
            self._rows = [ObjectStanding(key, fact, relevance)
                          for key, rows in self.per.items() for fact, relevance in rows]
        return self._rows

    def __len__(self) -> int:
        if self.n is None:
            self.n = count(self.per)
        return self.n

    def __getitem__(self, i):
        return self._all()[i]

    def __iter__(self):
        return iter(self._all())


def _in_context_order(per: PerContext) -> PerContext:
    return dict(sorted(per.items(), key=lambda item: item[0]))


def count(per: PerContext) -> int:
    return sum(len(rows) for rows in per.values())


class StandingsView(Mapping):
    """uri -> its rows sorted by context (what the pages read), made on demand."""

    def __init__(self, by_uri: dict[str, PerContext], counts: dict[str, int]) -> None:
        self.by_uri = by_uri
        self.counts = counts

    def __getitem__(self, uri: str) -> Rows:
        return Rows(self.by_uri[uri], self.counts.get(uri))

    def __iter__(self):
        return iter(self.by_uri)

    def __len__(self) -> int:
        return len(self.by_uri)


class _Interned(dict):
    """Each distinct row tuple once, its facts as the :class:`StandingFact` kept once: a
    context's rows of one object arrive from its worker as new tuples of plain facts, equal
    to those of most other contexts. Looked up by the rows as they arrive (equal to, and
    hashing as, the rows kept), so a row already kept costs one lookup."""

    def __init__(self, facts: "_Facts") -> None:
        super().__init__()
        self.facts = facts

    def __missing__(self, rows: ContextRows) -> ContextRows:
        facts = self.facts
        kept = tuple([(facts[fact], relevance) for fact, relevance in rows])
        self[kept] = kept
        return kept


class _Facts(dict):
    """Each distinct fact once, as the :class:`StandingFact` (it arrives as a plain tuple
    of its fields, equal to it)."""

    def __missing__(self, fields):
        fact = self[fields] = StandingFact(*fields)
        return fact


class StandingTable:
    """The inverted answers, with each object's row count and the dashboard's count of
    how many contexts exclude each identifier. Immutable once built: :meth:`updated`
    returns a new table sharing what did not change."""

    def __init__(self, by_uri: dict[str, PerContext] | None = None,
                 counts: dict[str, int] | None = None, excluded: Counter | None = None,
                 interned: tuple[_Facts, _Interned] | None = None) -> None:
        self.by_uri = by_uri if by_uri is not None else {}
        self.counts = counts if counts is not None else {}
        self.excluded = excluded if excluded is not None else Counter()
        if interned is None:
            facts = _Facts()
            interned = (facts, _Interned(facts))
        self._interned = interned
        #: The last context :meth:`add` was given, and whether every one came after the one
        #: before (a first build adds them in context order; else :meth:`finish` sorts).
        self._last_added: ContextKey | None = None
        self._added_in_order = True

    def _kept(self, rows: ContextRows) -> ContextRows:
        return self._interned[1][rows]

    def add(self, key: ContextKey, standings: Mapping[str, ContextRows], excluded: Iterable[str]) -> None:
        """One more context's rows (a first build, in context order)."""
        kept = self._interned[1]
        self.add_kept(key, [(uri, kept[rows]) for uri, rows in standings.items()], excluded)

    def add_kept(self, key: ContextKey, standings: Iterable[tuple[str, ContextRows]],
                 excluded: Iterable[str]) -> None:
        """:meth:`add` with each object's rows as this table keeps them (a
        :class:`StandingsReceiver`'s)."""
        if self._last_added is not None and not self._last_added < key:
            self._added_in_order = False
        self._last_added = key
        by_uri = self.by_uri
        for uri, rows in standings:
            per = by_uri.get(uri)
            if per is None:
                per = by_uri[uri] = {}
            per[key] = rows
        self.excluded.update(excluded)

    def finish(self) -> "StandingTable":
        if not self._added_in_order:
            self.by_uri = {uri: _in_context_order(per) for uri, per in self.by_uri.items()}
            self._added_in_order = True
        self.counts = {uri: count(per) for uri, per in self.by_uri.items()}
        return self

    def view(self) -> StandingsView:
        return StandingsView(self.by_uri, self.counts)

    def updated(self, changes: Iterable[tuple[ContextKey, Iterable[str], Iterable[str],
                                              Mapping[str, ContextRows],
                                              Iterable[str]]]) -> tuple["StandingTable", set[str]]:
        """The table after each ``(context, uris it named before, its excluded before,
        its standings now, its excluded now)`` (empty for a context that went), and the
        objects whose standings changed."""
        by_uri = dict(self.by_uri)
        excluded = Counter(self.excluded)
        moved: set[str] = set()
        for key, named_before, excluded_before, after, excluded_after in changes:
            before = {}
            for uri in named_before:
                rows = self.by_uri.get(uri, {}).get(key)
                if rows is not None:
                    before[uri] = rows
            excluded.subtract(excluded_before)
            excluded.update(excluded_after)
            for uri in before.keys() | after.keys():
                if before.get(uri) == after.get(uri):
                    continue
                moved.add(uri)
                per = dict(by_uri.get(uri, {}))
                if uri in after:
                    ahead = key not in per and per and not next(reversed(per)) < key
                    per[key] = self._kept(after[uri])
                    if ahead:  # a context before the last one this object stands in
                        per = _in_context_order(per)
                else:
                    per.pop(key, None)
                if per:
                    by_uri[uri] = per
                else:
                    by_uri.pop(uri, None)
        for uri in [u for u, n in excluded.items() if n <= 0]:
            del excluded[uri]
        counts = dict(self.counts)
        for uri in moved:
            if uri in by_uri:
                counts[uri] = count(by_uri[uri])
            else:
                counts.pop(uri, None)
        return StandingTable(by_uri, counts, excluded, self._interned), moved


@dataclass(frozen=True, slots=True)
class SentStandings:
    """One answer's standings (:func:`~.contexts.standings_of`) and excluded uris as the
    process that compiled it sends them: by the numbers that process gave each uri and each
    distinct rows tuple, with the values of those it had not sent before."""

    #: The sending process (its pid): each process numbers from 0.
    sender: int
    #: The uris and rows first sent here, numbered on from the last ones it sent.
    new_uris: tuple[str, ...]
    new_rows: tuple[ContextRows, ...]
    #: Each object's number and its rows' number, in step (the answer's object order).
    uris: list[int]
    rows: list[int]
    excluded: list[int]


class _Numbering(dict):
    """Each key's number, from 0 in the order keys are first asked for; ``new`` holds the
    keys first asked for since it was last emptied. A key numbered before (most of them:
    an answer's objects and rows are mostly another's) is found by a plain subscript, in
    C; only a new one calls :meth:`__missing__`."""

    def __init__(self) -> None:
        super().__init__()
        self.new: list = []

    def __missing__(self, key):
        n = self[key] = len(self)
        self.new.append(key)
        return n


class StandingsSender:
    """Numbers what one build's answers send, in the process that compiles them. A worker
    forked from the process that made it (which may have compiled a few answers itself)
    numbers anew: its numbers are its own, known by its pid."""

    def __init__(self) -> None:
        self._pid: int | None = None
        self._uris = _Numbering()
        self._rows = _Numbering()

    def send(self, standings: Mapping[str, ContextRows], excluded: Iterable[str]) -> SentStandings:
        pid = os.getpid()
        if pid != self._pid:
            self._pid, self._uris, self._rows = pid, _Numbering(), _Numbering()
        uris, rows = self._uris, self._rows
        uris.new, rows.new = [], []
        # the uris numbered in the answer's object order, then the excluded ones; the rows
        # on their own, in the same order (a receiver numbers the new ones as they come)
        uri_numbers = [uris[uri] for uri in standings]
        row_numbers = [rows[made] for made in standings.values()]
        excluded_numbers = [uris[uri] for uri in excluded]
        return SentStandings(pid, tuple(uris.new), tuple(rows.new), uri_numbers, row_numbers,
                             excluded_numbers)


class StandingsReceiver:
    """The receiving end of a build's :class:`StandingsSender`: each sender's uris and rows
    by number, the rows as ``table`` keeps them (interned once each). A sender's answers
    must arrive in the order it sent them (the worker map's results do: a worker runs its
    items in order, and they come back in order)."""

    def __init__(self, table: StandingTable) -> None:
        self._kept = table._interned[1]
        self._uris: dict[int, list[str]] = {}
        self._rows: dict[int, list[ContextRows]] = {}

    def receive(self, sent: SentStandings) -> tuple[list[tuple[str, ContextRows]], list[str]]:
        """``([(uri, its rows as kept), ...], the excluded uris)``."""
        uris = self._uris.setdefault(sent.sender, [])
        rows = self._rows.setdefault(sent.sender, [])
        uris.extend(sent.new_uris)
        kept = self._kept
        rows.extend([kept[made] for made in sent.new_rows])
        return ([(uris[u], rows[r]) for u, r in zip(sent.uris, sent.rows)],
                [uris[u] for u in sent.excluded])
