"""``devcontext.compile``: the token-budgeted development context of one request (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from ..index import Index
from .budget import spend
from .models import CompileInput, CompiledContext, GitContext
from .request import resolve_request
from .select import select

__all__ = ["GitInfo", "compile_context"]


@dataclass(frozen=True)
class GitInfo:
    """The checkout's git state, read outside the pure core and passed in."""

    branch: str | None = None
    head: str | None = None
    working_tree: str = "unavailable: not a git checkout"


def compile_context(index: Index, data: CompileInput, *, git: GitInfo | None = None) -> CompiledContext:
    """Compile the context of one request. Raises RequestError / NotFoundError on bad input."""
    git = git or GitInfo()
    req = resolve_request(index, data)
    selection = select(index, req, branch=git.branch)
    spent = spend(index, req, selection)
    return CompiledContext(
        fingerprint=index.fingerprint,
        request=req.request,
        git=GitContext(branch=git.branch, head=git.head, working_tree=git.working_tree,
                       commits=spent.commits),
        seeds=req.seeds,
        selected=spent.selected,
        excluded=spent.excluded,
        deduplicated=spent.deduplicated,
        conflicts=spent.conflicts,
        budget=spent.budget,
        diagnostics=spent.diagnostics,
    )
