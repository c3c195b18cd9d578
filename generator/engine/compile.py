"""``devcontext.compile``: the token-budgeted development context of one request (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from ..index import Index
from .budget import spend
from .models import CompileInput, CompiledContext, GitContext
from .reach import Reach, reach_of
from .request import ResolvedRequest, resolve_request
from .select import Selection, select

__all__ = ["GitInfo", "compile_context", "compile_with_reach"]


@dataclass(frozen=True)
class GitInfo:
    """The checkout's git state, read outside the pure core and passed in."""

    branch: str | None = None
    head: str | None = None
    working_tree: str = "unavailable: not a git checkout"


def compile_context(index: Index, data: CompileInput, *, git: GitInfo | None = None) -> CompiledContext:
    """Compile the context of one request. Raises RequestError / NotFoundError on bad input."""
    return _compile(index, data, git or GitInfo())[0]


def compile_with_reach(index: Index, data: CompileInput, *, git: GitInfo | None = None
                       ) -> tuple[CompiledContext, Reach]:
    """The answer, and what it depended on (:mod:`.reach`): an edit outside the reach
    leaves the answer as it is, its fingerprint aside."""
    git = git or GitInfo()
    answer, req, selection = _compile(index, data, git)
    return answer, reach_of(req, selection, answer, git.branch)


def _compile(index: Index, data: CompileInput, git: GitInfo
             ) -> tuple[CompiledContext, ResolvedRequest, Selection]:
    req = resolve_request(index, data)
    selection = select(index, req, branch=git.branch)
    spent = spend(index, req, selection)
    answer = CompiledContext(
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
    return answer, req, selection
