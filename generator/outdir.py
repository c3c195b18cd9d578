"""Where a site may be written: the output guard, and the marker that says "a site lives here".

A full build replaces its output directory, so a wrong ``--out`` would destroy whatever was
there. :func:`check_out_dir` is asked before anything is written (by ``build``, ``serve``
and, as a last line of defence, by :func:`generator.writer.write_site` itself). It refuses,
with one line that names the path, what is wrong and the fix, an output directory that

- is ``/``, the home directory, or holds the home directory;
- is the repository, or holds it;
- lies inside the AI layer (``.ai/``: every section the manifest names lies inside it);
- is a file, or lies under a file or a directory that cannot be written (missing parent
  directories are created);
- is a non-empty directory that is not a site this tool wrote.

Symlinks, ``..``, ``~`` and ``.`` are resolved before comparing, so every spelling of a path
gets the same answer. A site is recognised by its **marker** (:data:`MARKER`), a small
deterministic file listing the files the build wrote: the next build replaces exactly those
and keeps every other file. A directory holding only ``.gitkeep`` counts as empty.

Temporary directories sit beside the output with fixed prefixes (:func:`temp_prefixes`) so
that the next build recognises, and removes, the ones a killed build left behind.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .errors import BuildError

__all__ = [
    "MARKER",
    "IN_SITE_TEMP",
    "Marker",
    "check_out_dir",
    "home_dir",
    "is_empty_dir",
    "marker_bytes",
    "read_marker",
    "temp_prefixes",
]

#: The file every site carries at its top, listing the files the build wrote there.
MARKER = ".devcontext-site"
#: Prefix of the temporary file a per-file write makes beside its target (inside the site).
IN_SITE_TEMP = ".devcontext-tmp-"
#: Files that do not make a directory non-empty (the repository's own ``site/`` has one).
IGNORED_WHEN_EMPTY = frozenset({".gitkeep"})

_HEADER = "devcontext-site 1"
_BUILDING = "devcontext-site 1 building"
_COMMENT = ("# Written by devcontext. The files listed below are the site's: the next build "
            "replaces them and keeps every other file in this directory.")
_COMMENT_BUILDING = ("# A site devcontext is writing; the next build removes it if it was "
                     "left behind.")


@dataclass(frozen=True)
class Marker:
    """What a site's marker says: the files the build wrote, or that it is still being written."""

    files: frozenset[str]
    building: bool = False


def marker_bytes(rels: Iterable[str], *, building: bool = False) -> bytes:
    """The marker of a site made of ``rels`` (sorted: the same files give the same bytes)."""
    if building:
        return f"{_BUILDING}\n{_COMMENT_BUILDING}\n".encode("utf-8")
    lines = [_HEADER, _COMMENT, *sorted(rels)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def read_marker(directory: str | os.PathLike) -> Marker | None:
    """The marker of ``directory``, or None when it has none (or the file is not ours)."""
    path = os.path.join(directory, MARKER)
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = text.split("\n")
    if lines[0] == _BUILDING:
        return Marker(frozenset(), building=True)
    if lines[0] != _HEADER:
        return None
    return Marker(frozenset(line for line in lines[1:] if line and not line.startswith("#")))


def is_empty_dir(directory: str | os.PathLike) -> bool:
    """True when ``directory`` holds nothing but (perhaps) a ``.gitkeep``."""
    with os.scandir(directory) as entries:
        return all(entry.name in IGNORED_WHEN_EMPTY and entry.is_file(follow_symlinks=False)
                   for entry in entries)


def temp_prefixes(target: str | os.PathLike) -> tuple[str, str]:
    """The name prefixes of the temporary directories beside ``target``: the site being
    built, and the previous site moved aside (only when the swap cannot be one rename)."""
    name = os.path.basename(os.fspath(target))
    return f".{name}.building-", f".{name}.old-"


def home_dir() -> Path | None:
    """The user's home directory, or None when it cannot be told (no ``$HOME``, no entry)."""
    try:
        return Path.home()
    except (RuntimeError, KeyError, OSError):
        return None


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _real(path: str | os.PathLike) -> str:
    return os.path.realpath(os.path.abspath(os.path.expanduser(os.fspath(path))))


def check_out_dir(
    out: str | os.PathLike,
    *,
    repo: str | os.PathLike | None = None,
    layer: str | os.PathLike | None = None,
    home: str | os.PathLike | None = None,
) -> Path:
    """The real path to write the site to, or :class:`BuildError` saying why not.

    ``repo`` is the repository root and ``layer`` its AI layer (default ``repo/.ai``);
    ``home`` the user's home directory. Each is skipped when None.
    """
    given = os.fspath(out)
    if not given.strip():
        raise BuildError(f"refusing --out {given!r}: the path is empty. Choose an empty or new "
                         "directory, such as site")
    target = _real(given)
    shown = given if given == target else f"{given} ({target})"
    repo_real = _real(repo) if repo is not None else None
    layer_real = (_real(layer) if layer is not None
                  else os.path.join(repo_real, ".ai") if repo_real is not None else None)
    home_real = _real(home) if home is not None else None
    suggest = os.path.join(repo_real or home_real or os.path.dirname(target), "site")

    def refuse(why: str, fix: str | None = None) -> BuildError:
        return BuildError(f"refusing --out {shown}: {why}. "
                          + (fix or f"Choose an empty or new directory, such as {suggest}"))

    if target == os.sep:
        raise refuse("it is the filesystem root; the site would replace everything on it")
    if home_real is not None and target == home_real:
        raise refuse("it is your home directory; the site would replace your files")
    if home_real is not None and _inside(home_real, target):
        raise refuse(f"it holds your home directory {home_real}; the site would replace your files")
    if repo_real is not None and target == repo_real:
        raise refuse("it is the repository itself; the site would replace your files")
    if repo_real is not None and _inside(repo_real, target):
        raise refuse(f"it holds the repository {repo_real}; the site would replace your files")
    if layer_real is not None and _inside(target, layer_real):
        raise refuse(f"it lies inside the AI layer {layer_real}; the site's files would be "
                     "mixed into the layer")
    parent = os.path.dirname(target)
    if os.path.lexists(target) and not os.path.isdir(target):
        raise refuse("it is a file, not a directory; the site would replace it")
    existing = parent  # missing parents are created: the nearest existing one decides
    while not os.path.lexists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise refuse(f"{existing} is not a directory",
                     "Choose a directory whose parent is a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        where = (f"its parent directory {parent}" if existing == parent
                 else f"{existing}, where its parent directories would be created,")
        raise refuse(f"{where} is not writable (the site is written beside the output, then "
                     "swapped in)", "Choose a directory whose parent you can write to")
    if os.path.isdir(target):
        try:
            empty = is_empty_dir(target)
        except OSError as exc:
            raise refuse(f"it cannot be listed ({exc.strerror})",
                         "Fix its permissions or choose another directory") from None
        if not empty and read_marker(target) is None:
            raise refuse(f"it is a non-empty directory devcontext did not write (it has no "
                         f"{MARKER}); the site would mix with its files",
                         "Empty it, or choose an empty or new directory")
    return Path(target)
