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
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping

from markupsafe import Markup, escape

from ...engine.models import ContextEntry, Discovery
from ...engine.numbers import fmt_number
from ..i18n import DEFAULT_LANGUAGE, _, format_count, format_number, language
from ..templating import said_text

__all__ = ["RowWords", "selected_row", "excluded_row", "discovery_line", "esc", "short_uri",
           "structural_item", "joined"]


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

    __slots__ = ("via", "dw", "dwc", "required", "required_title", "placed", "count", "number")

    def __init__(self) -> None:
        english = language() == DEFAULT_LANGUAGE
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
    parts.append(f" — {said_text(d, 'reason')} <small>")
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
    return (f'<tr id="{anchor}"><td>{_label(uri, title, href, short_uri(uri))}'
            f"<td>{words.count(cost)}"
            f"<td>{words.number(relevance)}<td>{particular}\n")


def structural_item(uri: str, href: str | None, said: str, missing_title: str) -> str:
    """An entry reached by more than one path, and the sentence that says so (as the
    template's ``uri_link`` names an identifier: linked, else marked as not held)."""
    if href:
        link = f'<a href="{esc(href)}" class="uri">{esc(uri)}</a>'
    else:
        link = f'<span class="uri missing" title="{esc(missing_title)}">{esc(uri)}</span>'
    return f"<li>{link} — {said}</li>"


def joined(rows: Iterable[str]) -> Markup:
    """Rendered rows, as markup the template puts in as it is."""
    return Markup("".join(rows))
