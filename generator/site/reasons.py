"""The sentences a context page says once per group of exclusions — what one reason means
for every row under it — and what each row then says: only what is particular to its
entry, taken from the parameters of the engine's detail phrase (the JSON keeps the whole
detail sentence).

Whole sentences with named placeholders, marked for the catalogue (``N_``) and translated
when a page is rendered, so a translation can reorder them.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Iterable, Mapping

from markupsafe import Markup, escape

from ..engine import refits
from ..engine.budget import AT_FINAL_SUM
from ..engine.models import Budget, CompileRequest, Excluded, ExclusionReason
from ..phrases import Phrase
from .i18n import N_, _, format_count, format_number, ngettext, speak, speak_or
from .templating import inline_code

__all__ = ["REASON_SENTENCES", "ROW_SENTENCES", "reason_sentence", "group_heading",
           "Particular", "params_of", "usual_spent"]

#: reason -> what every row excluded for it has in common (budget: the sums most of the
#: group's rows were refused at, said once; the depth that brings the group in).
REASON_SENTENCES: dict[ExclusionReason, str] = {
    ExclusionReason.budget: N_(
        "The budget of {limit} tokens is spent in tier order, first fit, with the required "
        "entries reserved first: each of these did not fit in what the entries before it had "
        "left, {used} of the {limit} being spent or reserved when it was refused unless its "
        "row says otherwise. A row says a budget that brings it in: the least, unless the row "
        "also names a bound below which none can; then the least lies between the two, because "
        "earlier entries that then fit take the room first. The least is searched for in an "
        "answer's first {allowance} refusals only: a row past them names the budget that fits "
        "everything before it and then it, with the bound."),
    ExclusionReason.relevance: N_(
        "Reached at a relevance below the request's floor of {floor}: each row says how it "
        "was reached and the floor that brings it in."),
    # said through ngettext, in the form the language gives the hops (reason_sentence)
    ExclusionReason.depth: (
        "Reached {hops} hops from a seed, one beyond the request's max_depth of {max_depth}: "
        "each row says how; a max_depth of {hops} brings it in."),
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

#: What a row says, by the shape of its detail phrase: the parameters it carries that its
#: group's sentence does not. ``spent`` forms are for a row refused at other sums than
#: the group's usual ones. A depth row says only how it was reached (its ``how``), a
#: budget row whose budget is the least only that budget (a number).
ROW_SENTENCES: dict[str, str] = {
    "budget bound": N_("{n}; none below {low}"),
    "budget spent": N_("{used} spent or reserved when refused; a budget of {n} brings it in"),
    "budget bound spent": N_("{used} spent or reserved when refused; a budget of {n} brings it "
                             "in, none below {low}"),
    "relevance": N_("{how}; a floor of {to_include} brings it in"),
    "relevance shown": N_("{how}, at relevance {relevance}; a floor of {to_include} brings it "
                          "in"),
    "stale": N_("it declares status `{status}`"),
    "superseded": N_("`{later}` supersedes it"),
}

#: The parameter names of each detail phrase the engine makes (generator/engine/budget.py:
#: ``budget_detail``, ``request_bound``, ``stale``, ``supersedes``) -> its row's shape.
_SHAPES: dict[tuple[ExclusionReason, frozenset[str]], str] = {
    (ExclusionReason.budget, frozenset({"n", "used", "limit"})): "budget",
    (ExclusionReason.budget, frozenset({"n", "used", "limit", "low"})): "budget bound",
    (ExclusionReason.depth, frozenset({"n", "how", "max_depth"})): "depth",
    (ExclusionReason.relevance,
     frozenset({"how", "relevance", "floor", "to_include"})): "relevance",
    (ExclusionReason.stale, frozenset({"status"})): "stale",
    (ExclusionReason.superseded, frozenset({"later", "earlier"})): "superseded",
}

#: :data:`_SHAPES` by reason: a row's parameter names compared with each of its reason's
#: (no set made for each of a page's ~900 rows)
_SHAPES_OF: dict[ExclusionReason, tuple[tuple[frozenset[str], str], ...]] = {}
for (_reason, _names), _shape in _SHAPES.items():
    _SHAPES_OF[_reason] = _SHAPES_OF.get(_reason, ()) + ((_names, _shape),)


def reason_sentence(reason: ExclusionReason, request: CompileRequest,
                    used: int | None = None) -> str:
    """The group's shared sentence, translated, with the request's limits filled in
    (``used``: what most of a budget group's rows were refused at, :func:`usual_spent`)."""
    hops = request.max_depth + 1
    if reason is ExclusionReason.depth:  # the form the language's rule picks for the hops
        template = ngettext(
            "Reached {hops} hop from a seed, one beyond the request's max_depth of {max_depth}: "
            "each row says how; a max_depth of {hops} brings it in.",
            "Reached {hops} hops from a seed, one beyond the request's max_depth of "
            "{max_depth}: each row says how; a max_depth of {hops} brings it in.", hops)
    else:
        template = _(REASON_SENTENCES[reason])
    return template.format(
        allowance=format_count(refits.MAX_REFIT_SEARCHES), floor=format_number(request.floor),
        max_depth=format_count(request.max_depth), hops=format_count(hops),
        limit=format_count(request.budget_tokens),
        used=format_count(used) if used is not None else "")


def group_heading(count: int, tokens: int) -> str:
    """``702 entries worth 98,210 tokens`` (beside the group's tier and reason), the numbers
    written the page's language's way (Czech ``98 210``)."""
    return ngettext("{count} entry worth {tokens} tokens", "{count} entries worth {tokens} tokens",
                    count).format(count=format_count(count), tokens=format_count(tokens))


def usual_spent(params: Iterable[Mapping[str, object]]) -> int | None:
    """The sum most of a budget group's rows were refused at (the first such, on a tie),
    which the group says once; None when no row's detail says one. ``params``: each row's
    detail phrase's parameters (``{}`` for a row read back without its phrase)."""
    counted = Counter(p.get("used") for p in params)
    counted.pop(None, None)
    return counted.most_common(1)[0][0] if counted else None


def params_of(x: Excluded, budget: Budget | None = None) -> tuple[Phrase | None, dict]:
    """An exclusion's detail phrase and its parameters by name, read once per row; a
    refusal for budget at the answer's final sum, whose sentence leaves the sums to the
    answer, with ``budget``'s (``used``, ``limit``), as every budget row's shape has them."""
    phrase = x.phrase
    if phrase is None:
        return None, {}
    p = dict(phrase.params)
    if budget is not None and phrase.template in AT_FINAL_SUM:
        p["used"], p["limit"] = budget.used_tokens, budget.limit_tokens
    return phrase, p


class Particular:
    """Says, for one page, what each row of a group says beyond its group's sentence: the
    row sentences translated once, each row's values in them."""

    __slots__ = ("request", "_templates", "_markup", "_said", "_count", "_number")

    def __init__(self, request: CompileRequest, count: Callable[[int], str] = format_count,
                 number: Callable[[float], str] = format_number) -> None:
        self.request = request
        self._templates = {shape: _(t) for shape, t in ROW_SENTENCES.items()}
        # a budget row's sentence holds only numbers, which need no escaping: its template
        # escaped once is the row's markup once filled in (not where the translation quotes
        # a name in backticks, which inline_code makes code: said as any other row)
        self._markup = {shape: str(escape(t)) for shape, t in self._templates.items()
                        if shape.startswith("budget") and "`" not in t}
        self._said: dict[Phrase, str] = {}
        self._count = count
        self._number = number

    def shape(self, x: Excluded, phrase: Phrase | None, p: Mapping[str, object]) -> str | None:
        """The row's shape (``p``: its phrase's parameters), or None when its detail is not
        one this page knows (then the row says the whole detail, and nothing is lost)."""
        if phrase is None:
            return None
        names = p.keys()
        for known, shape in _SHAPES_OF.get(x.reason, ()):
            if names == known:
                break
        else:
            return None
        req = self.request
        if shape.startswith("budget"):
            return shape if p["limit"] == req.budget_tokens else None
        if shape == "depth":
            ok = p["max_depth"] == req.max_depth and p["n"] == req.max_depth + 1
            return shape if ok and isinstance(p["how"], Phrase) else None
        if shape == "relevance":
            if p["floor"] != req.floor or not isinstance(p["how"], Phrase):
                return None
            return shape if p["relevance"] == x.relevance else "relevance shown"
        if shape == "superseded":
            return shape if p["earlier"] == x.uri else None
        return shape

    def __call__(self, x: Excluded, phrase: Phrase | None, p: Mapping[str, object],
                 used: int | None) -> Markup:
        """What the row of ``x`` says, in the page's language (``phrase``, ``p``: its detail
        and the detail's parameters, :func:`params_of`): its particular part where the
        group's sentence (with ``used``, the group's usual sum) says the rest, else the
        engine's whole detail sentence."""
        return Markup(self.markup(x, phrase, p, used))

    def markup(self, x: Excluded, phrase: Phrase | None, p: Mapping[str, object],
               used: int | None) -> str:
        """:meth:`__call__`'s markup as text (a page joins ~900 rows' text)."""
        shape = self.shape(x, phrase, p)
        if shape is None:
            return inline_code(speak_or(phrase, x.detail))
        if shape == "depth":
            return inline_code(self._speak(p["how"]))
        count = self._count
        if shape.startswith("budget"):
            if p["used"] != used:
                shape += " spent"
            elif shape == "budget":
                return count(p["n"])
            values = {"n": count(p["n"]), "used": count(p["used"]),
                      "low": count(p["low"]) if "low" in p else ""}
            markup = self._markup.get(shape)
            if markup is not None:
                return markup.format_map(values)
        elif shape.startswith("relevance"):
            values = {"how": self._speak(p["how"]), "to_include": self._number(p["to_include"]),
                      "relevance": self._number(p["relevance"])}
        else:  # stale, superseded: names, said as they are
            values = p
        return inline_code(self._templates[shape].format_map(values))

    def refusals(self, rows: list[tuple[Excluded, Phrase | None, dict]],
                 used: int | None) -> list[str]:
        """:meth:`markup` of each row of a budget group (``used``: its usual sum), the shapes
        the budget gives (:data:`ROW_SENTENCES`) written in one loop: ~580 rows a ``large``
        page, each only a few numbers. Anything else is said by :meth:`markup` itself."""
        known = _SHAPES_OF[ExclusionReason.budget]
        limit = self.request.budget_tokens
        count, templates, general = self._count, self._markup, self.markup
        out = []
        for x, phrase, p in rows:
            shape = None
            if phrase is not None and x.reason is ExclusionReason.budget:
                names = p.keys()
                for candidate, shape in known:
                    if names == candidate:
                        break
                else:
                    shape = None
            if shape is None or p["limit"] != limit:
                out.append(general(x, phrase, p, used))
                continue
            if p["used"] == used:
                if shape == "budget":
                    out.append(count(p["n"]))
                    continue
            else:
                shape += " spent"
            template = templates.get(shape)
            if template is None:
                out.append(general(x, phrase, p, used))
                continue
            out.append(template.format(n=count(p["n"]), used=count(p["used"]),
                                       low=count(p["low"]) if "low" in p else ""))
        return out

    def budget_markup(self, shape: str) -> str | None:
        """A budget row's sentence of ``shape`` (:data:`ROW_SENTENCES`), translated and
        escaped, to fill in with its numbers; None where the translation quotes a name
        (then :meth:`markup` says the row)."""
        return self._markup.get(shape)

    def _speak(self, phrase: Phrase) -> str:
        """A nested phrase (how an entry was reached) said once a page; the identifier it
        came from without its scheme, as the page's links name objects."""
        said = self._said.get(phrase)
        if said is None:
            short = tuple((k, v.split("://", 1)[-1] if k == "uri" and isinstance(v, str) else v)
                          for k, v in phrase.params)
            said = self._said[phrase] = speak(Phrase(phrase.template, short, phrase.plural))
        return said
