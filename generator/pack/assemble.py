"""From a compiled answer and the source tree it was compiled from to a :class:`Pack`
(pure): each selected entry's own text — the very bytes its cost was measured on — in
spend order, headed by what the answer says of it."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import Mapping

from ..engine.models import CompiledContext, ContextEntry, ExclusionReason
from ..errors import InputError
from .memo import Memo
from .models import Pack, PackBudget, PackEntry, PackSize, made_pack_entry

__all__ = ["assemble", "decode_text", "best_reason", "explain_page_of", "short_uri"]


def short_uri(uri: str) -> str:
    return uri.split("://", 1)[-1]


#: How many files' text a process keeps (:func:`decode_text`): a build's packs give the
#: same files again and again (50 consecutive packs of a large layer, ~600 files).
TEXT_MEMO_SIZE = 5000
_TEXTS: Memo[bytes, tuple[str, int]] = Memo(TEXT_MEMO_SIZE)


def decode_text(data: bytes) -> tuple[str, int]:
    """The bytes as text, and how many were not UTF-8 (each carried as U+FFFD). The same
    text for the same bytes, kept: a file given again costs neither its decoding nor (the
    same ``str``, its hash kept) the render's look-up of its entry."""
    found = _TEXTS.get(data)
    if found is None:
        found = _TEXTS[data] = _decoded(data)
    return found


def _decoded(data: bytes) -> tuple[str, int]:
    try:
        return data.decode("utf-8"), 0
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
        bad = sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
        return "".join("\ufffd" if "\udc80" <= ch <= "\udcff" else ch for ch in text), bad


def best_reason(entry: ContextEntry) -> str:
    """The first (best) discovery of an entry, in words."""
    # fields read from the models' __dict__ (here and in _entry): pydantic's __getattr__
    # keeps Python from specialising a model's attribute reads, ~50 ns each, and a build
    # reads ~10 of each selected entry of every context it packs
    d = entry.__dict__["discovered_by"][0].__dict__
    words = str(d["selector"])  # a StrEnum: its value (.value is a Python-level property)
    edge, via = d["edge"], d["via"]
    if edge:
        words += f" `{edge}`"
    if via:
        words += f" from {short_uri(via) if '://' in via else via}"
    return f"{words}: {d['reason']}"


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
    fields = entry.__dict__  # see best_reason
    uri, path, cost_bytes = fields["uri"], fields["provenance"].path, fields["cost_bytes"]
    data = files.get(path)
    if data is None:
        raise InputError(
            f"the answer selects `{uri}` from `{path}`, and the source tree given holds no "
            "such file; pack an answer with the tree it was compiled from", path=path)
    if len(data) != cost_bytes:
        raise InputError(
            f"the answer measured `{path}` at {cost_bytes} bytes and the source tree given "
            f"holds {len(data)}; the file changed since the answer was compiled — compile again "
            "and pack that answer", path=path)
    text, replaced = decode_text(data)
    # every value is the answer's own, already typed: made without validation, once per
    # selected entry of every context a build packs (tests/pack: equal to the validated form)
    return made_pack_entry(position, uri, fields["kind"], fields["title"], fields["tier"],
                           fields["required"], best_reason(entry), path,
                           fields["cost_tokens"], cost_bytes, replaced, text)


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
