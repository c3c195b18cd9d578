"""The sentences a context page says once per group of exclusions: what one reason means
for every row under it, so each row carries only what is particular to its entry.

Whole sentences with named placeholders, marked for the catalogue (``N_``) and translated
when a page is rendered (:func:`reason_sentence`), so a translation can reorder them.
"""

from __future__ import annotations

from ..engine.models import CompileRequest, ExclusionReason
from ..engine import refits
from .i18n import N_, _, format_count, format_number, ngettext

__all__ = ["REASON_SENTENCES", "reason_sentence", "group_heading"]

#: reason -> what every row excluded for it has in common.
REASON_SENTENCES: dict[ExclusionReason, str] = {
    ExclusionReason.budget: N_(
        "The budget is spent in tier order, first fit, with the required entries reserved "
        "first: each of these did not fit in what the entries before it had left. A row says "
        "what was spent or reserved when it was refused and a budget that brings it in; "
        "where it also names a bound, the least budget lies between the two, because earlier "
        "entries that then fit take the room first (the least is searched for in an "
        "answer's first {allowance} refusals)."),
    ExclusionReason.relevance: N_(
        "Reached at a relevance below the request's floor of {floor}: each row says how it "
        "was reached and the floor that brings it in."),
    ExclusionReason.depth: N_(
        "Reached one hop beyond the request's max_depth of {max_depth}: each row says how, "
        "and the max_depth that brings it in."),
    ExclusionReason.stale: N_(
        "The layer itself says these are not the current thing (their status is deprecated "
        "or superseded); a seed naming one would keep it."),
    ExclusionReason.superseded: N_(
        "A later object that declares it supersedes each of these is in the answer, and the "
        "later one holds."),
    ExclusionReason.unresolved: N_(
        "Named by a reached object and not held by the layer: a dangling reference somebody "
        "should fix."),
}


def reason_sentence(reason: ExclusionReason, request: CompileRequest) -> str:
    """The group's shared sentence, translated, with the request's limits filled in."""
    return _(REASON_SENTENCES[reason]).format(
        allowance=format_count(refits.MAX_REFIT_SEARCHES), floor=format_number(request.floor),
        max_depth=format_count(request.max_depth))


def group_heading(count: int, tokens: int) -> str:
    """``702 entries worth 98,210 tokens`` (beside the group's tier and reason), the numbers
    written the page's language's way (Czech ``98 210``)."""
    return ngettext("{count} entry worth {tokens} tokens", "{count} entries worth {tokens} tokens",
                    count).format(count=format_count(count), tokens=format_count(tokens))
