"""An object's files: its JSON record (values, edges both ways, standing in every context)
and its page (rendered Markdown, fields, edges, standings, the cross-reference walk)."""

from __future__ import annotations

import posixpath
from collections import Counter
from typing import Iterable, Sequence

from markupsafe import Markup, escape

from ...diagnostics import Diagnostic
from ...jsonio import canonical_wire_json
from ...model import LayerObject
from ...query.crossref import CROSS_REF_ORDER, Walk, cross_ref_walk
from .. import urls
from ..contexts import ContextKey, ObjectStanding, StandingFact
from ..fieldtext import field_rows
from ..i18n import N_, _, active, format_count, format_number, ngettext, speak
from ..standing_table import Rows
from .diagnostics import said
from ..templating import inline_code
from .context_rows import esc
from .kit import PageKit, path_resolver
from .object_json import object_record, object_wire
from .object_rows import (EdgeRow, edges_in, edges_out, hit_items, in_items, out_items,
                          walk_rows)

__all__ = ["object_record", "object_files", "standing_groups", "shown_counts",
           "MAX_STANDINGS_SHOWN", "STANDING_NAMES", "standing_counts", "walk_intro"]

#: Object pages list at most this many contexts, every distinct standing first (up to this
#: many); the JSON lists all of them. A listed context is a link to the object's row on its
#: page (~100 bytes): 100 of them keep a large layer's 30,000 object pages near 15 KB each.
MAX_STANDINGS_SHOWN = 100

#: The standings' contract words as a page names them (translated when shown).
STANDING_NAMES = {"selected": N_("selected"), "excluded": N_("excluded"),
                  "deduplicated": N_("deduplicated")}


def _standing_count(standing: str, n: int) -> str:
    """"15 selected": a count of one standing, as a whole phrase (a language inflects)."""
    if standing == "selected":
        text = ngettext("{n} selected", "{n} selected", n)
    elif standing == "excluded":
        text = ngettext("{n} excluded", "{n} excluded", n)
    elif standing == "deduplicated":
        text = ngettext("{n} deduplicated", "{n} deduplicated", n)
    else:  # a standing this page does not know: its contract word, as the wire says it
        return f"{format_count(n)} {standing}"
    return text.format(n=format_count(n))


def standing_counts(counts: Counter) -> str:
    """The standings' summary line: each standing's count, then what the others are."""
    parts = ", ".join(_standing_count(s, n) for s, n in sorted(counts.items()))
    return _("{counts}; every other context did not reach it.").format(counts=parts)


def _standing_detail(fact: StandingFact) -> str:
    """A standing's detail in the page's language: the sentence it was made from spoken,
    or the page's word for a selected entry ("required", or nothing). A detail without its
    phrase can only be shown in English (the leak test finds it)."""
    if fact.phrase is not None:
        return speak(fact.phrase)
    if fact.standing == "selected":
        return _("required") if fact.detail == "required" else ""
    return fact.detail


#: The walk's ordering rules as one sentence, per catalogue (language) it was said in.
_WALK_ORDER: dict[object, str] = {}


def walk_intro(walk: Walk) -> Markup:
    """"Query as executed: <query> — N objects reached, the first M shown; ordered by …":
    one sentence, its query as code."""
    order = _WALK_ORDER.get(active())
    if order is None:  # the same on every page of a language: said once
        order = speak(CROSS_REF_ORDER[0])
        for rule in CROSS_REF_ORDER[1:]:
            order = _("{earlier}, then {next}").format(earlier=order, next=speak(rule))
        _WALK_ORDER[active()] = order
    n, shown = len(walk.hits), min(len(walk.hits), walk.cap)
    if n > shown:
        template = ngettext("Query as executed: {query} — {n} object reached, the first {shown} "
                            "shown; ordered by {order}.",
                            "Query as executed: {query} — {n} objects reached, the first {shown} "
                            "shown; ordered by {order}.", n)
    else:
        template = ngettext("Query as executed: {query} — {n} object reached; ordered by {order}.",
                            "Query as executed: {query} — {n} objects reached; ordered by "
                            "{order}.", n)
    return escape(template).format(query=Markup("<code>{}</code>").format(walk.query),
                                   n=format_count(n), shown=format_count(shown), order=order)


Group = tuple[str, StandingFact, list[tuple[ContextKey, "float | None"]]]


def standing_groups(standings: Iterable[ObjectStanding]) -> list[Group]:
    """``(context kind, fact, [(context, relevance), ...])``: the standings of one object
    that differ only in the context and the relevance there, said once (a policy stands
    the same way in every context). In the order of each group's first context; every
    standing in exactly one group."""
    groups: dict[tuple[str, StandingFact], list] = {}
    if isinstance(standings, Rows):  # a build's table: its rows, without a standing each
        # in context order as the table keeps them; most contexts hold the very same
        # (interned) rows of an object, so each distinct rows tuple of a kind is looked up
        # in the groups once, by identity, and its facts hashed only then
        targets: dict[tuple[str, int], list[tuple[list, float | None]]] = {}
        for key, rows in standings.per.items():
            kind = key.kind
            target = targets.get((kind, id(rows)))
            if target is None:
                target = targets[(kind, id(rows))] = []
                for fact, relevance in rows:
                    members = groups.get((kind, fact))
                    if members is None:
                        members = groups[(kind, fact)] = []
                    target.append((members, relevance))
            for members, relevance in target:
                members.append((key, relevance))
    else:
        for s in standings:
            key = (s.context.kind, s.fact)
            members = groups.get(key)
            if members is None:
                members = groups[key] = []
            members.append((s.context, s.relevance))
    return [(kind, fact, members) for (kind, fact), members in groups.items()]


def shown_counts(sizes: Sequence[int], most: int = MAX_STANDINGS_SHOWN) -> list[int]:
    """How many contexts of each group a page lists: at most ``most`` in all, one for each
    group first (every distinct standing is shown, up to ``most`` of them), then the rest
    in group order."""
    shown = [1] * min(len(sizes), most)
    left = most - len(shown)
    for i, size in enumerate(sizes[:len(shown)]):
        extra = min(left, size - 1)
        shown[i] += extra
        left -= extra
    return shown


def _group_rows(kit: PageKit, page: str, anchor: str, groups: Sequence[Group]) -> list[tuple]:
    """What the page's table shows of each group it shows: ``(fact, its standing's name,
    its detail in the page's language, context kind, its listed contexts as markup, how
    many of them are listed, how many of its contexts are not)``."""
    out = []
    for (kind, fact, members), n in zip(groups, shown_counts([len(g[2]) for g in groups])):
        out.append((fact, _(STANDING_NAMES.get(fact.standing, fact.standing)),
                    _standing_detail(fact), kind,
                    _context_links(kit, page, anchor, members[:n]), n, len(members) - n))
    return out


def _group_items(rows: Sequence[tuple]) -> Markup:
    """The table's rows (:func:`_group_rows`), one ``<tr>`` a group, written here rather
    than by the template cell by cell (a macro, three filters and five escapes a row, on
    each of a large layer's 30,000 pages); values escaped where they enter."""
    out = []
    for fact, standing, detail, kind, links, _listed, more in rows:
        word = esc(fact.word)
        how = (f'<span class="tier tier-{word}">{word}</span>' if fact.standing == "selected"
               else f'<span class="reason reason-{word}">{word}</span>')
        cost = "" if fact.cost_tokens is None else esc(format_count(fact.cost_tokens))
        # the words of the template's {% trans %}: translated, then the count put in
        rest = "" if not more else " " + Markup(ngettext(
            "… and %(num)s more", "… and %(num)s more", more)) % {"num": format_count(more)}
        out.append(f'<tr><td><span class="standing standing-{esc(fact.standing)}">'
                   f'{esc(standing)}</span></td>\n<td>{how}</td>\n<td class="num">{cost}</td>\n'
                   f'<td class="detail">{inline_code(detail)}</td>\n<td class="contexts">'
                   f'<span class="kind">{esc(kind)}</span> {links}{rest}</td></tr>\n')
    return Markup("".join(out))


_CONTEXTS = "contexts/"


def _context_links(kit: PageKit, page: str, anchor: str,
                   members: Sequence[tuple[ContextKey, "float | None"]]) -> Markup:
    """A group's listed contexts: each a link to the object's row on the context's page,
    with its relevance there — ``<a href="…">I0001</a> (0.85), …``. Made here in one join
    rather than by the template link by link: a large layer's object pages list three
    million of them. Every context page is under ``contexts/``: from a page outside it the
    link is the way up to that directory, then the context's part of the path, which
    (escaped, with the link's text) the kit keeps for every page that lists the context."""
    here = posixpath.dirname(page)
    if here + "/" == _CONTEXTS or here.startswith(_CONTEXTS):  # no object page is there
        raise ValueError(f"{page}: an object page is never under {_CONTEXTS}")
    up = escape(urls.relative_from(here, _CONTEXTS.rstrip("/")) + "/")
    end = f'#{escape(anchor)}">'
    pieces = kit.context_links
    numbers: dict[float, str] = {}  # a handful of distinct relevances, each said once
    parts = []
    for key, relevance in members:
        piece = pieces.get(key)
        if piece is None:
            path = urls.context_page(key.kind, key.identity)[len(_CONTEXTS):]
            piece = pieces[key] = (str(escape(path)), f"{escape(key.identity)}</a>")
        link = f'<a href="{up}{piece[0]}{end}{piece[1]}'
        if relevance is not None:
            said = numbers.get(relevance)
            if said is None:
                said = numbers[relevance] = f" ({escape(format_number(relevance))})"
            link += said
        parts.append(link)
    return Markup(", ".join(parts))


def _counts(groups: Sequence[Group]) -> Counter:
    """How many standings of each kind (``selected``, ...) the groups hold."""
    counts: Counter = Counter()
    for _kind, fact, members in groups:
        counts[fact.standing] += len(members)
    return counts


def object_files(kit: PageKit, obj: LayerObject, standings: Sequence[ObjectStanding],
                 own_context: ContextKey | None, diagnostics: Sequence[Diagnostic],
                 provisional: int = 0) -> tuple[list[tuple[str, bytes]], list[str]]:
    """``([(json path, bytes), (page path, bytes)], repository paths its Markdown linked)``.

    ``provisional`` (serve, while an edit's contexts recompile): the page is made from the
    standings as they were, and says so — how many contexts are being recompiled — until
    the final page replaces it; 0 for the page a build writes."""
    groups = standing_groups(standings)
    record = object_wire(kit, obj, groups)
    page = record["page"]
    linked: list[str] = []
    body_html = None
    if obj.body and obj.body.strip():
        body_html = kit.md.render(obj.body, obj.provenance.directory, path_resolver(kit.index, page, linked))
    rel = lambda target: urls.relative(page, target) if target else None  # noqa: E731
    out_rows = edges_out(kit, page, kit.index.out_edges.get(obj.uri, ()))
    in_rows = edges_in(kit, page, kit.index.in_edges.get(obj.uri, ()))
    external = [EdgeRow(x.kind, x.field, x.node, None)
                for x in kit.index.externals_by_source.get(obj.uri, ())]
    walk = cross_ref_walk(kit.index, obj.uri)
    xref_hits, xref_unresolved = walk_rows(kit, page, walk)
    state = kit.index.issue_states.get(obj.uri)
    shown = _group_rows(kit, page, record["context_anchor"], groups)
    html = kit.render(
        "object.html", page,
        title=f"{obj.kind} {obj.identity}",
        obj=obj,
        state=state.state if state else None,
        body_html=body_html,
        fields=field_rows(obj.fields),
        edges_out=out_rows,
        edges_in=in_rows,
        external=external,
        out_items=out_items(out_rows, external),
        in_items=in_items(in_rows),
        groups=shown,
        group_items=_group_items(shown),
        standings_hidden=sum(len(g[2]) for g in groups) - sum(r[5] for r in shown),
        standing_counts=standing_counts(_counts(groups)),
        state_reasons="; ".join(speak(p) for p in state.said) if state else "",
        unresolved=[(u, speak(u.said)) for u in kit.index.unresolved_by_source.get(obj.uri, [])],
        own_context=kit.context_href(page, own_context) if own_context else None,
        json_href=rel(urls.object_json(obj.uri)),
        diagnostics=[(d, said(d)) for d in diagnostics],
        xref_reached=len(walk.hits),
        xref_intro=walk_intro(walk),
        xref_hits=xref_hits,
        xref_items=hit_items(xref_hits),
        xref_unresolved=xref_unresolved,
        provisional=provisional,
    )
    return [(urls.object_json(obj.uri), canonical_wire_json(record)), (page, html)], linked
