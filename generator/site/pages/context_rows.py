"""The rows of a context page, rendered here rather than by template macros: a ``large``
context has ~100 selected entries (each with its discovery paths) and ~900 exclusions, and
a macro call per row, or per cell, cost more than the rest of the page together.

One function per row kind, each writing its markup as plainly as a template would: every
value from the layer or the engine escaped where it enters (:func:`esc`; an anchor,
:func:`~generator.site.urls.anchor_for`, is made of characters that need none), the page's
own words translated once a page (:class:`RowWords`), numbers written the page's
language's way. Cells carry no classes: the stylesheet picks the columns of
``table.picked`` and ``table.left-out`` by position. The end tags HTML lets a row leave
out (``</td>``, ``</tr>``, ``</li>``) are left out: a quarter of an exclusion row's markup.

Contexts of one milestone repeat most of each other's rows, and every context page lives
at the same depth (``contexts/<kind>/<id>.html``), so a row's markup is the same on each:
:class:`ContextRows`, held by the page kit, keeps what was rendered for the next page
(:class:`PageRows`), keyed by every value the markup shows.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import islice
from operator import itemgetter
from typing import Callable, Hashable, Iterable, Mapping

from markupsafe import Markup, escape

from ...engine.models import Budget, CompileRequest, ContextEntry, Discovery, Excluded, Refusal
from ...engine.numbers import fmt_number
from ...index import Index
from ...phrases import Phrase, positional
from .. import urls
from ..i18n import DEFAULT_LANGUAGE, N_, _, format_count, format_number, language, speak_or
from ..reasons import Particular, params_of, usual_spent
from ..templating import inline_code

__all__ = ["RowWords", "selected_row", "excluded_row", "excluded_head", "excluded_tail",
           "discovery_line", "esc", "short_uri", "uri_link", "structural_item", "joined",
           "refusal_records", "usual_sum", "refusal_sentences", "Written",
           "ContextRows", "PageRows", "FACT_NAMES", "ROW_LIMIT"]

#: The facts the engine adds to an entry (the layer's own fields are shown as they are).
FACT_NAMES = {"state": N_("state")}


_SPECIAL = re.compile(r"[&<>\"']")


def esc(value: object) -> str:
    """``value`` escaped for HTML text or a quoted attribute, as markupsafe escapes it; most
    values (identifiers, paths, hrefs) hold nothing to escape and are returned as they are,
    without a Markup object made for each."""
    text = str(value)
    return text if _SPECIAL.search(text) is None else str(escape(value))


def short_uri(uri: str) -> str:
    """An identifier without its scheme (``issue/I0042``): how a link names an object whose
    href already says where it is, and how an untitled entry is labelled."""
    return uri.split("://", 1)[-1]


class RowWords:
    """The interface words of a context page's rows, translated once per page rather than
    once per row."""

    __slots__ = ("via", "dw", "dwc", "required", "required_title", "placed", "count", "number",
                 "english")

    def __init__(self) -> None:
        english = self.english = language() == DEFAULT_LANGUAGE
        #: a whole number and a number the page's language's way (English: as the wire
        #: writes them, without asking for the language at every cell)
        self.count: Callable[[int], str] = "{:,}".format if english else format_count
        self.number: Callable[[float], str] = fmt_number if english else format_number
        self.via = _("via {target}")
        self.dw = _("d{depth} · w{weight}")
        self.dwc = _("d{depth} · w{weight} · c{confidence}")
        self.required = _("required")
        self.required_title = _("never dropped for budget")
        self.placed = _("placed in {tier} by: {rule}")


def discovery_line(d: Discovery, via_href: str | None, words: RowWords) -> str:
    """One discovery path as one line: selector, edge, what it came via (a link where the
    layer holds it), why, and its depth and weight (confidence only where below 1)."""
    selector = d.selector.value
    # only the intent's matches are set apart by colour (as the stylesheet's .sel-intent_match)
    parts = [f'<li><b class="sel-{selector}">{selector}</b>' if selector == "intent_match"
             else f"<li><b>{selector}</b>"]
    if d.edge:
        parts.append(f" <code>{esc(d.edge)}</code>")
    if d.via:
        if via_href:
            target = f'<a href="{esc(via_href)}">{esc(short_uri(d.via))}</a>'
        else:
            target = f"<code>{esc(d.via)}</code>"
        parts.append(" " + words.via.format(target=target))
    parts.append(f" — {inline_code(speak_or(d.phrase, d.reason))} <small>")
    if d.confidence < 1:
        parts.append(words.dwc.format(depth=d.depth, weight=words.number(d.weight),
                                      confidence=words.number(d.confidence)))
    else:
        parts.append(words.dw.format(depth=d.depth, weight=words.number(d.weight)))
    parts.append("</small>")
    return "".join(parts)


def _facts(facts: Mapping[str, object], names: Mapping[str, str]) -> str:
    # the layer's own field names and values: kept from a browser's translation
    if not facts:
        return ""
    shown = "".join(f"<span><b>{esc(names.get(k, k))}</b> {esc(v)}</span>"
                    for k, v in sorted(facts.items()))
    return f'<div class="facts" translate="no">{shown}</div>'


def _label(uri: str, title: str | None, href: str | None, shown: str | None = None) -> str:
    """The entry's title linked to its page, then its identifier (``shown``: as the row
    names it; the whole one by default); an untitled entry is named by its identifier
    without the scheme, once."""
    name = esc(title) if title else esc(short_uri(uri))
    head = f'<a href="{esc(href)}">{name}</a>' if href else str(name)
    return f"{head} <span class=\"uri\">{esc(shown or uri)}</span>" if title else head


def selected_row(e: ContextEntry, anchor: str, href: str | None, rule: str | None,
                 via_href: Callable[[str], str | None], fact_names: Mapping[str, str],
                 words: RowWords) -> str:
    """A selected entry: title, required pill, identifier, facts; relevance, confidence,
    cost and depth; the rule that placed it where it differs from its tier's usual one
    (``rule``, else None); every path that reached it."""
    req = (f' <span class="pill req" title="{esc(words.required_title)}">'
           f"{esc(words.required)}</span>") if e.required else ""
    placed = (f'<div class="rule">{esc(words.placed.format(tier=e.tier.value, rule=rule))}'
              "</div>") if rule is not None else ""
    paths = "\n".join(discovery_line(d, via_href(d.via) if d.via else None, words)
                      for d in e.discovered_by)
    return (f'<tr id="{anchor}"><td>{_label(e.uri, e.title, href)}{req}'
            f"{_facts(e.facts, fact_names)}"
            f"<td>{words.number(e.relevance)}<td>{words.number(e.confidence)}"
            f"<td>{words.count(e.cost_tokens)}<td>{e.depth}"
            f"<td>{placed}<ul>{paths}</ul>\n")


def excluded_row(anchor: str, uri: str, title: str | None, href: str | None, cost: int,
                 relevance: float, particular: Markup, words: RowWords) -> str:
    """An excluded entry: its name, cost and relevance, and what is particular to it (its
    group's sentence says the rest). Its identifier without the scheme, as the paths' links
    name objects (a large context has ~900 of these rows)."""
    return (excluded_head(anchor, uri, title, href)
            + excluded_tail(words.count(cost), words.number(relevance), particular))


def excluded_head(anchor: str, uri: str, title: str | None, href: str | None) -> str:
    """An excluded row up to its name: the same on every context page for one object."""
    return f'<tr id="{anchor}"><td>{_label(uri, title, href, short_uri(uri))}'


def excluded_tail(cost: str, relevance: str, particular: str) -> str:
    """The rest of an excluded row: its cost, relevance and particular part, as written."""
    return f"<td>{cost}<td>{relevance}<td>{particular}\n"


def uri_link(uri: str, href: str | None, missing_title: str) -> str:
    """An identifier as the template's ``uri_link`` macro names it: a link to its page, or
    marked as not held by the layer (``missing_title``, the page's words for that)."""
    if href:
        return f'<a href="{esc(href)}" class="uri">{esc(uri)}</a>'
    return f'<span class="uri missing" title="{esc(missing_title)}">{esc(uri)}</span>'


def structural_item(uri: str, href: str | None, said: str, missing_title: str) -> str:
    """An entry reached by more than one path, and the sentence that says so."""
    return f"<li>{uri_link(uri, href, missing_title)} — {said}</li>"


def joined(rows: Iterable[str]) -> Markup:
    """Rendered rows, as markup the template puts in as it is."""
    return Markup("".join(rows))


def refusal_records(xs: list[Excluded]) -> list[Refusal] | None:
    """The records a group of refusals for budget was made from (the spend keeps each in
    its row's private state, :class:`~generator.engine.models.LazyPhrase`); None when a
    row has none (read back from JSON, made elsewhere): then its phrase says it."""
    records = []
    for x in xs:
        record = getattr(x.__pydantic_private__, "record", None)
        if type(record) is not Refusal:
            return None
        records.append(record)
    return records


def usual_sum(records: list[Refusal]) -> int | None:
    """:func:`~generator.site.reasons.usual_spent` of records: the sum most were refused
    at, the first such on a tie."""
    counted = Counter([r.used for r in records])
    return counted.most_common(1)[0][0] if counted else None


#: The values of an entry and of a discovery path its row shows, read from the model's
#: fields at once (comparing models, or their paths, field by field took longer than the
#: row's markup): an entry's facts, the rule said beside it and a path's phrase aside.
_entry_values = itemgetter("uri", "title", "required", "tier", "relevance", "confidence",
                           "cost_tokens", "depth")
_discovery_values = itemgetter("selector", "reason", "via", "edge", "depth", "confidence",
                               "weight")

#: Rows a page kit keeps for the next context pages (~700 bytes each, with their keys).
#: ``large``: a context shows ~1,000 rows, of which its milestone's earlier contexts
#: rendered most; its budget refusals (~580), whose sums differ, are not kept, only their
#: names (``heads``, one per object).
ROW_LIMIT = 20_000


class Written(dict):
    """The text ``write`` gives each value of type ``kind`` asked for, kept (a page writes
    ~3,000 numbers, costs and sums, most of them written on an earlier page): called,
    ``written(value)``, for any value (one of another type, ``5.0`` where ``5`` was written,
    is written anew); looked up, ``written[value]``, where the value is known to be of
    ``kind`` (a :class:`~generator.engine.models.Refusal`'s numbers), a dict's lookup and no
    call (``"{:,}".format`` itself cost ~250 ns a number). Bounded: past ``limit`` values,
    it starts again."""

    __slots__ = ("write", "kind", "limit")

    def __init__(self, write: Callable[[object], str], kind: type, limit: int) -> None:
        super().__init__()
        self.write = write
        self.kind = kind
        self.limit = limit

    def __call__(self, value: object) -> str:
        return self[value] if type(value) is self.kind else self.write(value)

    def __missing__(self, value: object) -> str:
        text = self.write(value)
        if len(self) >= self.limit:
            self.clear()
        self[value] = text
        return text


def refusal_sentences(particular: Particular
                      ) -> dict[tuple[bool, bool], Callable[[str, str, str], str] | None]:
    """``(sure, at another sum than the group's)`` -> a budget row's sentence in the
    page's language (:meth:`~..reasons.Particular.budget_markup`), filled in by position
    with its budget, its sum and its bound (:func:`~generator.phrases.positional`: a
    ``str.format`` by position takes half the time of one by name); None: the row is said
    from its phrase. A sure row at the group's sum says only its budget, none of these."""
    sentences = {}
    for sure in (True, False):
        for other in (True, False):
            shape = "budget" if sure else "budget bound"
            sentence = particular.budget_markup(shape + (" spent" if other else ""))
            sentences[sure, other] = (
                None if sentence is None else positional(sentence, ("n", "used", "low")).format)
    return sentences


class PageRows:
    """The rows of context pages of one location, language and request limits, rendered
    once: each kept under a key of every value its markup shows (the row's own values and
    the rule said beside it; the page's location, language, limits and index are the
    :class:`ContextRows` slot's). Bounded: past ``limit`` rows, the older half goes; the
    names, one per object, as many as the index holds."""

    __slots__ = ("key", "index", "up", "words", "count", "number", "particular",
                 "fact_names",
                 "limit", "hits", "misses", "_objects", "_heads", "_heads_limit", "_rows",
                 "_refusal_sentences")

    def __init__(self, key: tuple, index: Index, up: str, request: CompileRequest,
                 limit: int = ROW_LIMIT) -> None:
        self.key = key
        self.index = index
        #: the way from a context page up to the site's root (every link goes through it)
        self.up = up
        words = self.words = RowWords()
        #: counts and numbers written once per value (:class:`Written`)
        self.count = Written(words.count, int, limit)
        self.number = Written(words.number, float, limit)
        self.particular = Particular(request, self.count, self.number)
        self.fact_names = {k: _(v) for k, v in FACT_NAMES.items()}
        self.limit = limit
        self.hits = 0
        self.misses = 0
        self._objects = index.objects
        self._heads: dict[str, str] = {}
        # a name per object the layer holds: all of them kept (large: 30,670, ~7 MB), as a
        # build's worker meets most of them in the budget refusals of some context
        self._heads_limit = max(limit, len(index.objects))
        self._rows: dict[Hashable, str] = {}
        #: :func:`refusal_sentences`, made at the first budget group
        self._refusal_sentences: dict | None = None

    def href(self, uri: str) -> str | None:
        """The link to an object's page; None when the layer does not hold it."""
        return self.up + urls.object_page(uri) if uri in self._objects else None

    def head(self, uri: str) -> str:
        """An excluded row up to its name (:func:`excluded_head`), once per object."""
        made = self._heads.get(uri)
        if made is None:
            held = self._objects.get(uri)
            made = excluded_head(urls.anchor_for(uri), uri,
                                 held.title if held is not None else None, self.href(uri))
            self._keep(self._heads, uri, made, self._heads_limit)
        return made

    def excluded(self, x: Excluded, reason: str) -> str:
        """An exclusion's row whose particular part its group's sentence does not depend on
        (every reason but budget), kept under the values it shows (``reason``: the row's
        reason's word)."""
        phrase = x.phrase
        key = (x.uri, reason, x.cost_tokens, x.relevance, x.detail, phrase)
        row = self._rows.get(key)
        if row is None:
            self.misses += 1
            p = dict(phrase.params) if phrase is not None else {}
            row = self.refused(x, phrase, p, None)
            self._keep(self._rows, key, row)
        else:
            self.hits += 1
        return row

    def refused(self, x: Excluded, phrase: Phrase | None, p: Mapping[str, object],
                used: int | None) -> str:
        """An exclusion's row made, its name from :meth:`head` (``phrase``, ``p``: its
        detail and the detail's parameters; ``used``: its group's usual sum)."""
        return (self.head(x.uri) + excluded_tail(self.count(x.cost_tokens),
                                                  self.number(x.relevance),
                                                  self.particular.markup(x, phrase, p, used)))

    def refusals(self, xs: list[Excluded], budget: Budget | None = None
                 ) -> tuple[int | None, list[str]]:
        """A group of budget refusals: the sum most were refused at (:func:`usual_spent`)
        and their rows, made (the sums a refusal names are its own and seldom repeat: on
        ``large``, 2 % of them were on an earlier page), their names from :meth:`head`:
        from the records the rows carry (:meth:`refusal_rows`), else from their phrases
        (``budget``: the answer's, whose sums a row refused at them leaves to it)."""
        records = refusal_records(xs)
        if records is not None:
            return self.refusal_rows(xs, records)
        said = [(x, *params_of(x, budget)) for x in xs]
        used = usual_spent(p for _x, _ph, p in said)
        head, count, number = self.head, self.count, self.number
        particulars = self.particular.refusals(said, used)
        return used, [f"{head(x.uri)}<td>{count(x.cost_tokens)}<td>{number(x.relevance)}"
                      f"<td>{particular}\n" for (x, _ph, _p), particular in zip(said, particulars)]

    def refusal_rows(self, xs: list[Excluded], records: list[Refusal]
                     ) -> tuple[int | None, list[str]]:
        """:meth:`refusals` from the rows' records (:func:`refusal_records`), in one loop:
        each row's sentence known from its record (the least budget, or one with a bound;
        at the group's usual sum or another), its numbers written as they are
        (~600 rows a ``large`` page, each a name and a few numbers). The same rows as from
        the phrases (``tests/site/test_refusal_rows.py``)."""
        used = usual_sum(records)
        particular = self.particular
        limit = particular.request.budget_tokens
        sentences = self._refusal_sentences
        if sentences is None:
            sentences = self._refusal_sentences = refusal_sentences(particular)
        # the records' numbers are the engine's ints and floats: looked up, not called; the
        # budget that brings a row in and its bound (its pot plus its cost, and the pot is
        # the answer's) are its own, seldom on another page's row: written, not kept
        count, number, heads, head = self.count, self.number, self._heads, self.head
        write = count.write
        rows = []
        for x, (uri, _kind, _tier, cost, relevance, spent, needed, low, sure,
                at, _final) in zip(xs, records):
            if at == limit and sure and spent == used:
                said = write(needed)
            else:
                sentence = sentences[sure, spent != used] if at == limit else None
                if sentence is not None:
                    said = sentence(write(needed), count[spent], "" if sure else write(low))
                else:  # said from its phrase, the general way, with its sums
                    phrase = x.phrase
                    said = particular.markup(x, phrase, {"used": spent, "limit": at,
                                                         **dict(phrase.params)}, used)
            rows.append(f"{heads.get(uri) or head(uri)}<td>{count[cost]}<td>{number[relevance]}"
                        f"<td>{said}\n")
        return used, rows

    def selected(self, e: ContextEntry, rule: str | None) -> str:
        """A selected entry's row (:func:`selected_row`), kept under its values and the rule
        it says (None: its tier's usual one), and each of its discovery paths' values and
        the phrase its reason is said from."""
        facts = e.facts
        key = (_entry_values(e.__dict__), tuple(facts.items()) if facts else (), rule,
               *[(_discovery_values(d.__dict__), d.phrase) for d in e.discovered_by])
        row = self._rows.get(key)
        if row is None:
            self.misses += 1
            href = self.href
            row = selected_row(e, urls.anchor_for(e.uri), href(e.uri), rule, href,
                               self.fact_names, self.words)
            self._keep(self._rows, key, row)
        else:
            self.hits += 1
        return row

    def __len__(self) -> int:
        """How many rows are kept (not counting the names, one per object at most)."""
        return len(self._rows)

    def _keep(self, table: dict, key: Hashable, value: str, limit: int | None = None) -> None:
        if len(table) >= (limit or self.limit):  # the older half goes (dicts keep their order)
            for old in list(islice(table, len(table) // 2)):
                del table[old]
        table[key] = value


class ContextRows:
    """The rendered rows a page kit keeps between its context pages (:class:`PageRows`):
    one slot, for the location, language, request limits and index of the last page; a page
    of any other gets a new one. It dies with its kit (a serve rebuild makes a new kit)."""

    __slots__ = ("limit", "_page")

    def __init__(self, limit: int = ROW_LIMIT) -> None:
        self.limit = limit
        self._page: PageRows | None = None

    def for_page(self, index: Index, up: str, request: CompileRequest) -> PageRows:
        """The slot for a page ``up`` from the root, in the active language, of an answer
        to ``request`` from ``index``."""
        floor = request.floor
        key = (language(), up, request.budget_tokens, request.max_depth, type(floor), floor,
               str(floor))
        made = self._page
        if made is None or made.index is not index or made.key != key:
            made = self._page = PageRows(key, index, up, request, self.limit)
        return made

    @property
    def page(self) -> PageRows | None:
        """The current slot (its ``hits`` and ``misses`` say how much was reused)."""
        return self._page
