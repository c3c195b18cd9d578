"""``devcontext.explain``: one identifier's standing under one request (pure)."""

from __future__ import annotations

from ..identifiers import nearest
from ..index import Index
from .compile import GitInfo, compile_context
from .models import CompiledContext, Discovery, ExplainInput, Explanation, Said, Standing, said
from ..errors import RequestError
from ..phrases import Phrase, say, say_n

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
            n = len(entry.discovered_by)
            values = dict(tier=entry.tier.value, relevance=float(entry.relevance),
                          confidence=float(entry.confidence), tokens=_tokens(entry.cost_tokens),
                          paths=_paths(entry.discovered_by))
            if entry.required:
                detail = say_n("selected in the {tier} tier at relevance {relevance} and confidence "
                               "{confidence}, costing {tokens}, and required (never dropped for "
                               "budget); reached by {n} path — {paths}",
                               "selected in the {tier} tier at relevance {relevance} and confidence "
                               "{confidence}, costing {tokens}, and required (never dropped for "
                               "budget); reached by {n} paths — {paths}", n=n, **values)
            else:
                detail = say_n("selected in the {tier} tier at relevance {relevance} and confidence "
                               "{confidence}, costing {tokens}; reached by {n} path — {paths}",
                               "selected in the {tier} tier at relevance {relevance} and confidence "
                               "{confidence}, costing {tokens}; reached by {n} paths — {paths}",
                               n=n, **values)
            return _explained(Explanation(uri=uri, standing=Standing.selected, detail=str(detail),
                                          entry=entry, budget=budget), detail)
    for row in compiled.excluded:
        if row.uri == uri:
            detail = say("reached and not given: {reason} — {detail}", reason=row.reason.value,
                         detail=_sentence(row))
            return _explained(Explanation(uri=uri, standing=Standing.excluded, detail=str(detail),
                                          excluded=row, budget=budget), detail)
    for record in compiled.deduplicated:
        if uri in record.dropped:
            detail = say("folded into `{kept}` by {key}: {detail}", kept=record.kept,
                         key=record.key, detail=_sentence(record))
            return _explained(Explanation(uri=uri, standing=Standing.deduplicated,
                                          detail=str(detail), deduplicated=record, budget=budget),
                              detail)
    if index.get(uri) is not None:
        detail = say_n("the index holds it and no selector of this request reached it: no seed "
                       "names it, no followed edge leads to it within {n} hop, no declared path "
                       "contains it, and it is not governance; seed it with `uris`, raise "
                       "`max_depth`, or add a path that holds it",
                       "the index holds it and no selector of this request reached it: no seed "
                       "names it, no followed edge leads to it within {n} hops, no declared path "
                       "contains it, and it is not governance; seed it with `uris`, raise "
                       "`max_depth`, or add a path that holds it", n=compiled.request.max_depth)
        return _explained(Explanation(uri=uri, standing=Standing.not_reached, budget=budget,
                                      detail=str(detail)), detail)
    close = nearest(index, uri)
    if close:
        detail = say("the index holds nothing under `{uri}`: the request is not the problem — "
                     "check the identifier (`devcontext list` shows every one); the nearest "
                     "identifiers it holds: {nearest}", uri=uri,
                     nearest=", ".join(f"`{u}`" for u in close))
    else:
        detail = say("the index holds nothing under `{uri}`: the request is not the problem — "
                     "check the identifier (`devcontext list` shows every one)", uri=uri)
    return _explained(Explanation(uri=uri, standing=Standing.unknown, budget=budget,
                                  detail=str(detail)), detail)


def _explained(explanation: Explanation, detail: Phrase) -> Explanation:
    return said(explanation, detail)


def _sentence(row: Said) -> Phrase | str:
    """A row's detail inside the explanation's sentence: its phrase, or (a row read back
    from JSON) its English text, which the wire says the same either way."""
    return row.phrase if row.phrase is not None else row.detail  # type: ignore[attr-defined]


def _tokens(n: int) -> Phrase:
    return say_n("{n} token", "{n} tokens", n=n)


def _paths(discoveries: tuple[Discovery, ...]) -> Phrase | str:
    """``seed: named in the request; relation: … (via …)``: the paths as one nested phrase."""
    said_paths: list[Phrase] = []
    for d in discoveries:
        reason = d.phrase if d.phrase is not None else d.reason
        if d.via:
            said_paths.append(say("{selector}: {reason} (via {via})", selector=d.selector.value,
                                  reason=reason, via=d.via))
        else:
            said_paths.append(say("{selector}: {reason}", selector=d.selector.value,
                                  reason=reason))
    joined: Phrase | str = said_paths[-1] if said_paths else ""
    for earlier in reversed(said_paths[:-1]):
        joined = say("{first}; {rest}", first=earlier, rest=joined)
    return joined


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
