"""``devcontext.explain``: one identifier's standing under one request (pure)."""

from __future__ import annotations

from ..identifiers import nearest
from ..index import Index
from .compile import GitInfo, compile_context
from .models import CompiledContext, ExplainInput, Explanation, Standing
from .numbers import fmt_number, fmt_tokens
from ..errors import RequestError

__all__ = ["explain", "explain_in"]


def explain_in(index: Index, compiled: CompiledContext, uri: str) -> Explanation:
    """Decide the standing of ``uri`` from an already compiled answer."""
    uri = uri.strip()
    if not uri:
        raise RequestError("the identifier to explain is empty; give a canonical identifier "
                           "such as majordomus://issue/I0001", field="uri")
    budget = compiled.budget
    for entry in compiled.selected:
        if entry.uri == uri:
            paths = "; ".join(
                f"{d.selector.value}: {d.reason}" + (f" (via {d.via})" if d.via else "")
                for d in entry.discovered_by)
            n = len(entry.discovered_by)
            detail = (f"selected in the {entry.tier.value} tier at relevance "
                      f"{fmt_number(entry.relevance)} and confidence {fmt_number(entry.confidence)}, "
                      f"costing {fmt_tokens(entry.cost_tokens)}"
                      + (", and required (never dropped for budget)" if entry.required else "")
                      + f"; reached by {n} path{'s' if n != 1 else ''} — {paths}")
            return Explanation(uri=uri, standing=Standing.selected, detail=detail, entry=entry,
                               budget=budget)
    for row in compiled.excluded:
        if row.uri == uri:
            return Explanation(uri=uri, standing=Standing.excluded,
                               detail=f"reached and not given: {row.reason.value} — {row.detail}",
                               excluded=row, budget=budget)
    for record in compiled.deduplicated:
        if uri in record.dropped:
            return Explanation(uri=uri, standing=Standing.deduplicated,
                               detail=f"folded into `{record.kept}` by {record.key}: {record.detail}",
                               deduplicated=record, budget=budget)
    if index.get(uri) is not None:
        depth = compiled.request.max_depth
        return Explanation(
            uri=uri, standing=Standing.not_reached, budget=budget,
            detail=(f"the index holds it and no selector of this request reached it: no seed "
                    f"names it, no followed edge leads to it within {depth} hop"
                    f"{'s' if depth != 1 else ''}, no declared path contains it, and it is not "
                    "governance; seed it with `uris`, raise `max_depth`, or add a path that holds it"))
    close = nearest(index, uri)
    hint = (f"; the nearest identifiers it holds: {', '.join(f'`{u}`' for u in close)}"
            if close else "")
    return Explanation(
        uri=uri, standing=Standing.unknown, budget=budget,
        detail=(f"the index holds nothing under `{uri}`: the request is not the problem — check "
                f"the identifier (`devcontext list` shows every one){hint}"))


def explain(index: Index, data: ExplainInput, *, git: GitInfo | None = None,
            compiled: CompiledContext | None = None) -> Explanation:
    """Compile the request (or reuse ``compiled``) and explain ``data.uri`` under it."""
    if not data.uri.strip():
        raise RequestError("the identifier to explain is empty; give a canonical identifier "
                           "such as majordomus://issue/I0001", field="uri")
    if compiled is None:
        request = data.model_dump(exclude={"uri"})
        from .models import CompileInput

        compiled = compile_context(index, CompileInput(**request), git=git)
    return explain_in(index, compiled, data.uri)
