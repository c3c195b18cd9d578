"""The served output directory, kept equal to what a full build would write.

The first build writes the whole site atomically (:func:`generator.writer.write_site`);
later rebuilds write only the files whose bytes changed (each one atomically, through
:class:`generator.writer.SiteDir`), delete the files no build produces any more (only ever
files a build wrote: the ones this tree recorded), and patch the layer fingerprint in place
in the compiled-context JSON files that did not otherwise change (the one value in them
that every edit moves; it has a fixed length). The site's marker is rewritten whenever the
set of files changes, so it always equals the marker a full build would write.

A digest of every file is kept, so "did it change" is answered without reading the disk.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from ..errors import BuildError
from ..writer import SiteDir, check_rel, write_site

__all__ = ["OutputTree", "WriteStats", "digest"]


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


@dataclass
class WriteStats:
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    patched: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.written or self.deleted or self.patched)


class OutputTree:
    """The files of the site on disk and what is known about each."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        #: rel -> digest of the bytes on disk (None for fingerprint-patched files, whose
        #: bytes follow their answer rather than a digest).
        self.digests: dict[str, bytes | None] = {}
        #: rel -> offsets of the fingerprint in a compiled-context JSON file.
        self.fingerprint_at: dict[str, tuple[int, ...]] = {}
        #: rel -> the pages of that file that hold the fingerprint, as they are on disk
        #: (:func:`fingerprint_pages`): what a patch writes.
        self.fingerprint_pages: dict[str, Pages] = {}
        self.fingerprint: str | None = None
        self.site = SiteDir(self.out_dir)

    # -- the first build -------------------------------------------------------------

    def write_all(self, files: Iterable[tuple[str, bytes]], fingerprint: str,
                  fingerprinted: set[str] | None = None) -> WriteStats:
        """Replace the directory with ``files`` (atomically, as ``devcontext build``)."""
        digests: dict[str, bytes | None] = {}
        offsets: dict[str, tuple[int, ...]] = {}
        pages: dict[str, Pages] = {}
        fp = fingerprint.encode("utf-8")

        def recorded() -> Iterator[tuple[str, bytes]]:
            for rel, data in files:
                digests[rel] = digest(data)
                if fingerprinted is None or rel in fingerprinted:
                    found = _offsets(data, fp)
                    if found:
                        offsets[rel] = found
                        pages[rel] = fingerprint_pages(data, found, len(fp))
                yield rel, data

        stats = write_site(recorded(), self.out_dir)
        self.digests = digests
        self.fingerprint_at = offsets
        self.fingerprint_pages = pages
        self.fingerprint = fingerprint
        return WriteStats(written=sorted(digests), patched=0) if stats.files else WriteStats()

    # -- later builds ----------------------------------------------------------------

    def unchanged(self, rel: str, data: bytes) -> bool:
        return self.digests.get(rel) == digest(data) and rel in self.digests

    def update(self, files: dict[str, bytes], keep: set[str], fingerprint: str) -> WriteStats:
        """Write ``files`` where their bytes differ, delete every known file that is in
        neither ``files`` nor ``keep``, and move the fingerprint of every kept file to
        ``fingerprint``."""
        stats = WriteStats()
        fp_new = fingerprint.encode("utf-8")
        fp_old = (self.fingerprint or "").encode("utf-8")
        for rel in files:
            check_rel(rel)
        gone = sorted(rel for rel in self.digests if rel not in files and rel not in keep)
        added = sorted(rel for rel in files if rel not in self.digests)
        if added:
            # a file already at a new path is someone else's: refused before the marker
            # claims it; then listed before they appear, so the marker covers all we wrote
            self.site.refuse_foreign(added)
            self.site.write_marker([*self.digests, *added])
        for rel in sorted(files):
            data = files[rel]
            d = digest(data)
            if self.digests.get(rel) == d and rel in self.digests:
                continue
            self.site.replace(rel, data, new=rel not in self.digests)
            self.digests[rel] = d
            found = _offsets(data, fp_new)
            if found:
                self.fingerprint_at[rel] = found
                self.fingerprint_pages[rel] = fingerprint_pages(data, found, len(fp_new))
            else:
                self.fingerprint_at.pop(rel, None)
                self.fingerprint_pages.pop(rel, None)
            stats.written.append(rel)
        for rel in gone:
            self.site.delete(rel)
            del self.digests[rel]
            self.fingerprint_at.pop(rel, None)
            self.fingerprint_pages.pop(rel, None)
            stats.deleted.append(rel)
        if fp_new != fp_old and len(fp_new) == len(fp_old):
            # every kept file was checked when it was written; plain string paths (a
            # large layer patches over 10,000 files per edit)
            for rel, at in sorted(self.fingerprint_at.items()):
                if at and rel in keep and rel not in files:
                    pages = repatched(self.fingerprint_pages[rel], at, fp_new)
                    self.site.patch(rel, pages)
                    self.fingerprint_pages[rel] = pages
                    self.digests[rel] = None
                    stats.patched += 1
        elif fp_new != fp_old:
            raise BuildError("the layer fingerprint changed length; rebuild from scratch")
        self.fingerprint = fingerprint
        if stats.deleted:
            self.site.write_marker(self.digests)  # after they went: only what is there
        self.site.prune_dirs(stats.deleted)
        return stats


#: The pages a fingerprint patch writes whole: the page cache's. Writing part of a page
#: the kernel no longer holds makes it read the page from disk first, and these machines
#: hand cold pages back: patching the ~10,400 compiled contexts of a large layer after an
#: edit read one page each (0.6-2.7 ms a file, measured cold), where a whole page is
#: written without a read (~20 us).
PAGE = 4096

#: A file's fingerprint pages: ``(offset, bytes)`` blocks, page-aligned (the last may end
#: at the end of the file), each holding whole occurrences of the fingerprint.
Pages = tuple[tuple[int, bytes], ...]


def fingerprint_pages(data: bytes, offsets: tuple[int, ...], width: int) -> Pages:
    """The pages of ``data`` that hold the ``width`` bytes at each of ``offsets`` (sorted),
    as blocks of whole pages, an occurrence across a page boundary in one block."""
    spans: list[list[int]] = []
    for at in offsets:
        start = at - at % PAGE
        end = min(len(data), -(-(at + width) // PAGE) * PAGE)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return tuple((start, data[start:end]) for start, end in spans)


def repatched(pages: Pages, offsets: tuple[int, ...], value: bytes) -> Pages:
    """``pages`` with ``value`` written at each of ``offsets`` (offsets in the file)."""
    out = []
    for start, block in pages:
        patched = bytearray(block)
        for at in offsets:
            if start <= at < start + len(block):
                patched[at - start:at - start + len(value)] = value
        out.append((start, bytes(patched)))
    return tuple(out)


def _offsets(data: bytes, needle: bytes) -> tuple[int, ...]:
    if not needle:
        return ()
    found = []
    at = data.find(needle)
    while at != -1:
        found.append(at)
        at = data.find(needle, at + len(needle))
    return tuple(found)
