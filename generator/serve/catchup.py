"""An edit's catch-up while serving: the files the site is about to hold that are not on
disk yet, so a page requested meanwhile is made on demand — or waited for — rather than
served stale.

While a rebuild runs, :meth:`Catchup.page` answers for one site-relative file:

- made already by the rebuild (an open page made first, or the stream's output so far):
  those bytes;
- a file of a context the edit reaches (its page, JSON, pack): compiled and rendered now,
  on the requesting thread, with a page kit of its own — the same bytes the rebuild makes,
  since a context's files are made from its answer alone;
- the JSON of a context the edit does not reach: the file on disk with the new layer
  fingerprint put in place (the one value in it an edit moves);
- the page of such a context, or a static asset, when no template changed: None, the file
  on disk is current;
- the page of an object the edit changed, or of one near it (its page shows the edited
  object or its cross-reference walk), until the rebuild has made it: a *provisional* page,
  made now from the new object with its standings as they were before the edit and marked
  so ("recompiling N contexts: standings as before this edit"). It is not stale — it shows
  the edit and says which part is not yet current — and the page's live reload brings the
  final one, which the rebuild announces again once its standings are done (an open page
  is made so first, before any context is compiled);
- anything else (another object's page, the overview pages): what the rebuild makes, once
  it has made it; the request waits for that (at most until the rebuild ends).

None means "read the disk". Once the rebuild has written its files, or failed, or given
way to a newer edit, :meth:`finish` wakes every waiter and the catch-up is over.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..site import urls
from ..site.contexts import ContextKey

__all__ = ["Catchup", "context_file_key"]

_CONTEXT_FILE = re.compile(r"^(?:contexts/(issue|milestone)/([^/]+)\.(?:html|pack\.md|pack\.js)"
                           r"|api/v1/devcontext/compile/(issue|milestone)/([^/]+)\.json)$")

#: Seconds a request waits for a page the rebuild has not made yet before it is served
#: from disk (a rebuild that takes longer is one the page's live reload follows anyway).
WAIT_SECONDS = 30.0


def context_file_key(rel: str) -> tuple[str, str] | None:
    """``(kind, encoded name)`` of a context's page, pack, pack script or JSON, else None."""
    found = _CONTEXT_FILE.match(rel)
    if found is None:
        return None
    kind, name = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
    return kind, name


def context_files_of(key: ContextKey) -> tuple[str, ...]:
    return (urls.context_json(key.kind, key.identity), urls.context_page(key.kind, key.identity),
            urls.context_pack(key.kind, key.identity), urls.context_pack_script(key.kind, key.identity))


@dataclass
class Catchup:
    """One rebuild's pending files; shared between the rebuild's thread and the handlers'."""

    #: The contexts the edit reaches, by each of their files.
    reached: dict[str, ContextKey]
    #: Compile and render one context: its files (JSON first), as the rebuild makes them.
    make_context: Callable[[ContextKey], list[tuple[str, bytes]]]
    out_dir: Path
    #: rel -> offsets of the layer fingerprint in the file on disk (context JSONs).
    fingerprint_at: dict[str, tuple[int, ...]]
    fingerprint: bytes
    #: A template or static asset changed: every page and asset is pending.
    templates_changed: bool
    #: Repository paths whose bytes changed (another context's pack may carry one).
    paths_changed: bool
    #: The files of contexts that are gone (the rebuild deletes them).
    gone: frozenset[str] = frozenset()
    #: The object pages the edit remakes from the object itself (it changed, or is near
    #: one that did), while contexts are being compiled; and how to make one of them
    #: provisionally (its standings as before the edit).
    provisional_pages: frozenset[str] = frozenset()
    make_provisional: Callable[[str], bytes] = lambda rel: b""
    made: dict[str, bytes] = field(default_factory=dict)
    #: The pages in ``made`` that are provisional (until the rebuild makes the final one).
    provisional: set[str] = field(default_factory=set)
    _done: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _making: dict[ContextKey, threading.Event] = field(default_factory=dict)
    #: One context made on demand at a time: the on-demand page kit is not shared.
    _make_lock: threading.Lock = field(default_factory=threading.Lock)

    # -- the rebuild's side ----------------------------------------------------------

    def add(self, rel: str, data: bytes) -> None:
        with self._lock:
            self.made[rel] = data
            self.provisional.discard(rel)

    def make_first(self, key: ContextKey) -> list[str]:
        """Make one reached context's files now (an open page); their names."""
        return [rel for rel, _ in self._context(key)]

    def make_provisional_first(self, rel: str) -> bool:
        """Make an open object page's provisional version now; whether ``rel`` has one."""
        return self._provisional(rel) is not None

    def finish(self, ok: bool) -> None:
        """The rebuild wrote its files (``ok``), or failed or gave way: what it made is
        then dropped, and every waiter reads the disk (the last good site)."""
        if not ok:
            self.made.clear()
        self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    # -- the handlers' side ----------------------------------------------------------

    def page(self, rel: str) -> bytes | None:
        """The bytes ``rel`` is about to hold, or None when the disk is current."""
        if self._done.is_set():
            return None
        data = self.made.get(rel)
        if data is not None:
            return data
        key = self.reached.get(rel)
        if key is not None:
            return dict(self._context(key)).get(rel)
        data = self._provisional(rel)
        if data is not None:
            return data
        if not self.templates_changed and rel not in self.gone:
            if rel.startswith("static/"):
                return None
            found = context_file_key(rel)
            if found is not None:
                if rel.endswith(".json"):
                    return self._refingerprinted(rel)
                if rel.endswith(".html") or not self.paths_changed:
                    return None  # its answer did not change, nor did its template
        self._done.wait(WAIT_SECONDS)
        return self.made.get(rel)

    def _context(self, key: ContextKey) -> list[tuple[str, bytes]]:
        """A reached context's files, made once (another thread asking meanwhile waits)."""
        names = context_files_of(key)
        with self._lock:
            if all(n in self.made for n in names[:2]):
                return [(n, self.made[n]) for n in names if n in self.made]
            making = self._making.get(key)
            mine = making is None
            if mine:
                making = self._making[key] = threading.Event()
        if not mine:
            making.wait(WAIT_SECONDS)
            return [(n, self.made[n]) for n in names if n in self.made]
        try:
            with self._make_lock:
                files = self.make_context(key)
            with self._lock:
                for rel, data in files:
                    self.made.setdefault(rel, data)
            return files
        finally:
            making.set()

    def _provisional(self, rel: str) -> bytes | None:
        """The page made so far at ``rel`` (final or provisional), else its provisional
        page made now (None when it has none)."""
        if rel not in self.provisional_pages:
            return None
        with self._make_lock:  # the on-demand page kit is not shared
            data = self.made.get(rel)
            if data is not None:
                return data
            data = self.make_provisional(rel)
            with self._lock:
                if rel in self.made:  # the rebuild made the final page meanwhile
                    return self.made[rel]
                self.made[rel] = data
                self.provisional.add(rel)
            return data

    def _refingerprinted(self, rel: str) -> bytes | None:
        at = self.fingerprint_at.get(rel)
        if not at:
            return None
        try:
            data = bytearray((self.out_dir / rel).read_bytes())
        except OSError:
            return None
        for offset in at:
            data[offset:offset + len(self.fingerprint)] = self.fingerprint
        return bytes(data)
