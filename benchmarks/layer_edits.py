"""The layer edits serve's benchmarks make (``bench_serve.py``, ``open_first.py``): a
copy of a layer that may be written, a few files of each kind spread over it, and one edit
of a file, and the pages open while it is edited. Imports ``generator`` only inside
:func:`open_pages`, so a script timing another checkout (through ``PYTHONPATH``) can use
it too."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

__all__ = ["copy_layer", "edit_targets", "edit_file", "open_pages"]


def copy_layer(src: Path, dst: Path) -> Path:
    """``src`` copied to ``dst``, every file writable by its owner (the real layer in
    ../shared is read-only and never edited)."""
    shutil.copytree(src, dst, copy_function=shutil.copyfile)
    for dirpath, dirnames, filenames in os.walk(dst):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), stat.S_IRUSR | stat.S_IWUSR | stat.S_IRGRP)
    return dst


def _pick(root: Path, pattern: str, n: int) -> list[Path]:
    found = sorted(p for p in root.glob(pattern) if p.is_file())
    if len(found) <= n:
        return found
    step = len(found) / n
    return [found[int(i * step)] for i in range(n)]


def edit_targets(root: Path, n: int) -> dict[str, list[Path]]:
    """``n`` files of each kind to edit, spread over the layer."""
    kinds = {
        "issue": _pick(root, ".ai/repo/project/issues/*.yaml", n),
        "adr": _pick(root, ".ai/repo/adrs/*.md", n + 1)[1:],  # skip README
        "rule": _pick(root, ".ai/repo/rules/**/*.md", n + 1)[1:],
        "source": (_pick(root, "src/**/*.py", n) or _pick(root, "lib/**/*", n)
                   or _pick(root, "tests/**/*.py", n)),
    }
    return {k: v for k, v in kinds.items() if v}


def edit_file(path: Path, i: int) -> None:
    """The ``i``-th edit of ``path``: its title changed where it has one, else a line added."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".yaml", ".yml") and "\ntitle: " in "\n" + text:
        text = text.replace("title: ", f"title: (edit {i}) ", 1)
    elif path.suffix == ".md" and "\ntitle: " in text:
        text = text.replace("\ntitle: ", f"\ntitle: (edit {i}) ", 1)
    else:
        text += f"\n# edit {i}\n"
    path.write_text(text, encoding="utf-8")


def open_pages(index, rel: str) -> set[str]:
    """The pages a person editing ``rel`` has open (``index``: the layer's before the
    edit): its objects' own pages, and an issue's or milestone's context page."""
    from generator.site import urls

    pages = set()
    for obj in index.at_path(rel):
        pages.add(urls.object_page(obj.uri))
        if obj.kind in ("issue", "milestone"):
            pages.add(urls.context_page(obj.kind, obj.identity))
    return pages
