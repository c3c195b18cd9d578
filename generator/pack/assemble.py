"""From a compiled answer and the source tree it was compiled from to a :class:`Pack`
(pure): each selected entry's own text — the very bytes its cost was measured on — in
spend order, headed by what the answer says of it."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import Mapping

from ..engine.models import CompiledContext, ContextEntry, ExclusionReason, made
from ..errors import InputError
from .models import Pack, PackBudget, PackEntry, PackSize

__all__ = ["assemble", "decode_text", "best_reason", "explain_page_of", "short_uri"]


def short_uri(uri: str) -> str:
    return uri.split("://", 1)[-1]


def decode_text(data: bytes) -> tuple[str, int]:
    """The bytes as text, and how many were not UTF-8 (each carried as U+FFFD)."""
    try:
        return data.decode("utf-8"), 0
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
        bad = sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
        return "".join("\ufffd" if "\udc80" <= ch <= "\udcff" else ch for ch in text), bad


def best_reason(entry: ContextEntry) -> str:
    """The first (best) discovery of an entry, in words."""
    d = entry.discovered_by[0]
    words = str(d.selector)  # a StrEnum: its value (.value is a Python-level property)
    if d.edge:
        words += f" `{d.edge}`"
    if d.via:
        words += f" from {short_uri(d.via) if '://' in d.via else d.via}"
    return f"{words}: {d.reason}"


def explain_page_of(answer: CompiledContext) -> str | None:
    """``contexts/<kind>/<id>.html`` when the request is one the site has a page for: a
    single issue or milestone and nothing else (the site compiles each at the default
    request; a pack of other options still has that page to read)."""
    from ..site.urls import context_page

    seeds = answer.seeds
    if len(seeds) != 1 or seeds[0].from_ not in ("issue", "milestone"):
        return None
    prefix = f"majordomus://{seeds[0].kind}/"
    if not seeds[0].uri.startswith(prefix):
        return None
    return context_page(seeds[0].kind, seeds[0].uri[len(prefix):])


def _entry(position: int, entry: ContextEntry, files: Mapping[str, bytes]) -> PackEntry:
    path = entry.provenance.path
    data = files.get(path)
    if data is None:
        raise InputError(
            f"the answer selects `{entry.uri}` from `{path}`, and the source tree given holds no "
            "such file; pack an answer with the tree it was compiled from", path=path)
    if len(data) != entry.cost_bytes:
        raise InputError(
            f"the answer measured `{path}` at {entry.cost_bytes} bytes and the source tree given "
            f"holds {len(data)}; the file changed since the answer was compiled — compile again "
            "and pack that answer", path=path)
    text, replaced = decode_text(data)
    # every value is the answer's own, already typed: made without validation, once per
    # selected entry of every context a build packs (tests/pack: equal to the validated form)
    return made(PackEntry, position=position, uri=entry.uri, kind=entry.kind, title=entry.title,
                tier=entry.tier, required=entry.required, reason=best_reason(entry),
                path=path, cost_tokens=entry.cost_tokens, cost_bytes=entry.cost_bytes,
                replaced_bytes=replaced, text=text)


_REASON = attrgetter("reason")


def assemble(answer: CompiledContext, files: Mapping[str, bytes]) -> Pack:
    """The pack of ``answer``; ``files`` is the source tree it was compiled from
    (repo-relative path -> bytes). Its ``size`` is left at zero: it depends on the format,
    and :func:`generator.pack.render.render` measures it."""
    entries = tuple(_entry(i, e, files) for i, e in enumerate(answer.selected, start=1))
    # counted at once: a large answer's ~1,000 rows, each attribute a Python loop reads of
    # one ~50 ns
    left = Counter(map(_REASON, answer.excluded))
    b = answer.budget
    return Pack(
        fingerprint=answer.fingerprint, request=answer.request, seeds=answer.seeds,
        budget=PackBudget(limit_tokens=b.limit_tokens, used_tokens=b.used_tokens,
                          required_tokens=b.required_tokens, over_budget=b.over_budget),
        left_out={r: left[r] for r in ExclusionReason if r in left},
        explain_page=explain_page_of(answer),
        size=PackSize(bytes=0, tokens=0, text_bytes=0, overhead_bytes=0),
        entries=entries)
