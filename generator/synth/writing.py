"""Putting a synthetic layer on disk, without ever overwriting a real repository."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from generator.errors import BuildError, InputError

from .shapes import MANIFEST_MARKER


def write_layer(files: Mapping[str, bytes], out_dir: Path) -> int:
    """Write ``files`` under ``out_dir`` (creating directories); return how many were written.

    ``out_dir`` may be missing, empty, or an earlier synth output (its ``.ai/manifest.yaml``
    carries the synth marker); anything else that is a non-empty directory is refused with a
    :class:`~generator.errors.BuildError`, so a real repository is never overwritten. Files of
    an earlier synth output that ``files`` no longer has are removed (only under ``.ai/``
    except ``.ai/local/``, ``src/``, ``tests/`` and the root ``README.md``), and directories
    left empty by that are pruned.
    """
    out = Path(out_dir)
    targets = [(_checked_rel_path(rel), rel) for rel in sorted(files)]
    for rel in sorted(files):
        if not isinstance(files[rel], (bytes, bytearray)):
            found = type(files[rel]).__name__
            raise InputError(f"file {rel!r}: content must be bytes, found {found}", path=rel)
    stale: list[Path] = []
    if out.exists() or out.is_symlink():
        if not out.is_dir():
            raise BuildError(
                f"cannot write a synthetic layer to {out}: it exists and is not a directory; "
                "choose a new or empty directory"
            )
        if any(out.iterdir()):
            manifest = out / ".ai" / "manifest.yaml"
            if not _is_synth_manifest(manifest):
                found = "no .ai/manifest.yaml" if not manifest.is_file() else (
                    ".ai/manifest.yaml was not written by generator.synth"
                )
                raise BuildError(
                    f"refusing to write a synthetic layer to {out}: the directory is not empty "
                    f"and does not look like an earlier synth output ({found}); "
                    "choose a new or empty directory"
                )
            stale = _stale_files(out, set(files))
    try:
        # Stale files go first, so that a new directory may take the place of an old file.
        for path in stale:
            path.unlink()
        _prune_empty_dirs(out, stale)
        made: set[Path] = set()
        for parts, rel in targets:
            target = out.joinpath(*parts)
            parent = target.parent
            if parent not in made:
                parent.mkdir(parents=True, exist_ok=True)
                made.add(parent)
            target.write_bytes(bytes(files[rel]))
    except OSError as exc:
        raise BuildError(f"could not write the synthetic layer to {out}: {exc}") from exc
    return len(targets)


_OWNED_ROOTS = (".ai", "src", "tests")


def _checked_rel_path(rel: str) -> tuple[str, ...]:
    if not isinstance(rel, str) or not rel or "\\" in rel or rel.startswith("/"):
        raise InputError(f"file path {rel!r} must be a relative path with forward slashes",
                         path=str(rel))
    parts = tuple(rel.split("/"))
    if any(p in ("", ".", "..") for p in parts) or ":" in parts[0]:
        raise InputError(f"file path {rel!r} must stay inside the output directory "
                         "(no empty, '.' or '..' segments)", path=rel)
    return parts


def _is_synth_manifest(manifest: Path) -> bool:
    try:
        with manifest.open("rb") as handle:
            head = handle.read(512)
    except OSError:
        return False
    return MANIFEST_MARKER.encode() in head


def _stale_files(out: Path, keep: set[str]) -> list[Path]:
    """Files of an earlier synth output that the new one no longer has."""
    stale: list[Path] = []
    candidates = [out / "README.md"] if (out / "README.md").is_file() else []
    for root in _OWNED_ROOTS:
        base = out / root
        if not base.is_dir() or base.is_symlink():
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            rel_dir = Path(dirpath).relative_to(out).as_posix()
            dirnames[:] = sorted(d for d in dirnames
                                 if not (rel_dir == ".ai" and d == "local"))
            candidates.extend(Path(dirpath) / f for f in sorted(filenames))
    for path in candidates:
        if path.relative_to(out).as_posix() not in keep:
            stale.append(path)
    return stale


def _prune_empty_dirs(out: Path, removed: list[Path]) -> None:
    parents = sorted({p.parent for p in removed}, key=lambda p: len(p.parts), reverse=True)
    for directory in parents:
        while directory != out and out in directory.parents:
            try:
                directory.rmdir()
            except OSError:
                break
            directory = directory.parent

