"""Read the checkout's git state (I/O, outside the pure core)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .engine.compile import GitInfo

__all__ = ["read_git", "SITE_WORKING_TREE"]

#: Builds never read the working tree: a site must not change because a file is unsaved.
SITE_WORKING_TREE = "unrecorded: site builds do not read the working tree"


def _git(root: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def read_git(root: Path, *, working_tree: bool = True) -> GitInfo:
    """Branch, head and (unless told not to) clean/dirty; "unavailable" outside a checkout.

    Only a repository whose own root holds ``.git`` counts, so a layer bundled inside
    another repository (the demo) does not borrow that repository's branch.
    """
    if not (Path(root) / ".git").exists():
        return GitInfo(working_tree="unavailable: not a git checkout")
    head = _git(root, "rev-parse", "HEAD")
    branch = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    if branch == "HEAD":
        branch = None
    if not working_tree:
        state = SITE_WORKING_TREE
    else:
        status = _git(root, "status", "--porcelain")
        state = "unavailable: git status failed" if status is None else ("dirty" if status else "clean")
    return GitInfo(branch=branch, head=head, working_tree=state)
