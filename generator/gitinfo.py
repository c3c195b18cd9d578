"""Read the checkout's git state (I/O, outside the pure core)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .engine.compile import GitInfo

__all__ = ["read_git", "SITE_WORKING_TREE", "NOT_A_CHECKOUT", "STATUS_FAILED",
           "WORKING_TREE_STATES", "working_tree_words"]


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue (``make messages``); a page translates it."""
    return message


#: Builds never read the working tree: a site must not change because a file is unsaved.
SITE_WORKING_TREE = N_("unrecorded: site builds do not read the working tree")
NOT_A_CHECKOUT = N_("unavailable: not a git checkout")
STATUS_FAILED = N_("unavailable: git status failed")
#: Every ``working_tree`` an answer can carry: the wire's English, which a page says in its
#: reader's language.
WORKING_TREE_STATES = frozenset({SITE_WORKING_TREE, NOT_A_CHECKOUT, STATUS_FAILED,
                                 N_("clean"), N_("dirty")})


def working_tree_words(state: str) -> str:
    """An answer's ``working_tree`` in the page's language (the site's catalogue)."""
    from .site.i18n import _

    # a state not listed here is shown as the wire says it (and the leak test finds it)
    return _(state) if state in WORKING_TREE_STATES else state


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
        return GitInfo(working_tree=NOT_A_CHECKOUT)
    head = _git(root, "rev-parse", "HEAD")
    branch = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    if branch == "HEAD":
        branch = None
    if not working_tree:
        state = SITE_WORKING_TREE
    else:
        status = _git(root, "status", "--porcelain")
        state = STATUS_FAILED if status is None else ("dirty" if status else "clean")
    return GitInfo(branch=branch, head=head, working_tree=state)
