"""A compiled context's files: its answer as JSON (exactly the engine's wire form), its
explain page (budget picture, selected entries by tier, exclusions, deduplications), and
its pack — the context handed over (:mod:`generator.pack`), with a "Copy context" button
on the page.

The pack's text is on disk once, in ``<id>.pack.md``: exactly what ``devcontext pack
--format markdown`` prints at the default request; the page links it for download, a
program fetches it, and over http(s) the button fetches it into the clipboard. From
``file://`` no script may read a local file — Chromium refuses ``fetch()``, XHR and a
framed or embedded file's document (each file is its own origin; Firefox too, since 68) — so ``<id>.pack.js`` carries the same bytes
deflated and in base64 as a script, which ``copy.js`` loads only then, on the click,
inflates (``DecompressionStream``) into the clipboard and a selectable text area. A
second plain copy, in a script or in the page, would double the pack (``large``'s I0001:
118 KB of Markdown, 126 KB as a JSON string; the page read over http would carry it on
every view); compressed, the script is 19 KB there, 44 KB of the real layer's 87 KB
I0902, built in the time the JSON string took.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections import Counter
from itertools import groupby
from operator import attrgetter
from typing import Callable, NamedTuple

from markupsafe import Markup

from ...engine.models import TIER_ORDER, CompiledContext, ContextEntry, Excluded, ExclusionReason
from ...engine.policy import Placement, placement, task_plan
from ...errors import BuildError
from ...gitinfo import working_tree_words
from ...jsonio import canonical_json
from ...pack import pack_text
from ...phrases import Phrase
from .. import urls
from ..contexts import ContextKey
from ..i18n import _, format_count, speak
from ..reasons import group_heading, reason_sentence
from ..templating import inline_code, said_text
from ..svg import budget_bar
from .context_rows import PageRows, esc, joined, structural_item
from .kit import PageKit

__all__ = ["context_view", "context_files", "pack_files", "pack_paths", "ExclusionGroup",
           "SelectedGroup", "PagePlacements", "exclusion_groups", "page_placements",
           "selected_groups"]


def context_view(kit: PageKit, key: ContextKey, answer: CompiledContext, page: str) -> dict:
    """What the context page shows, with every link made relative to ``page``; the rows of
    the selected and excluded tables rendered (:mod:`.context_rows`), those an earlier page
    of the kit rendered the same taken from it (:class:`.context_rows.ContextRows`)."""
    # a context page (contexts/<kind>/<id>.html) shares no directory with the object
    # pages (objects/...): every link to one goes up to the root and down again
    up = urls.relative(page, "index.html")[: -len("index.html")]
    made = kit.context_rows.for_page(kit.index, up, answer.request)
    href = made.href
    placed = PagePlacements(answer, kit.index)
    missing = _("not held by the layer")
    rules = _RuleWords()
    required_by_tier: Counter[str] = Counter()
    for e in answer.selected:
        if e.required:
            required_by_tier[e.tier.value] += e.cost_tokens
    tiers = selected_groups(answer, placed, rules, made)
    excluded, unresolved = exclusion_groups(kit, page, answer, placed, rules, made)
    dedup = [{"d": d, "kept_href": href(d.kept),
              "anchor": urls.anchor_for(d.dropped[0]) if d.dropped else None,
              "dropped": [(u, href(u), urls.anchor_for(u)) for u in d.dropped]}
             for d in answer.deduplicated]
    return {
        "key": key,
        "obj": kit.index.objects[key.uri],
        "a": answer,
        "state": kit.index.issue_states.get(key.uri),
        "object_href": urls.relative(page, urls.object_page(key.uri)),
        "json_href": urls.relative(page, urls.context_json(key.kind, key.identity)),
        "pack_href": urls.relative(page, urls.context_pack(key.kind, key.identity)),
        "pack_script_href": urls.relative(page, urls.context_pack_script(key.kind, key.identity)),
        "pack_name": urls.context_pack(key.kind, key.identity),
        "budget_svg": budget_bar(answer.budget, dict(required_by_tier)),
        "tiers": tiers,
        "excluded": excluded,
        "excluded_count": sum(g.count for g in excluded),
        "unresolved": unresolved,
        "dedup_semantic": [d for d in dedup if d["d"].dropped],
        "dedup_structural": [d for d in dedup if not d["d"].dropped],
        "dedup_structural_items": joined(
            structural_item(d["d"].kept, d["kept_href"], said_text(d["d"]), missing)
            for d in dedup if not d["d"].dropped),
        "working_tree": working_tree_words(answer.git.working_tree),
        "excluded_tokens": sum(map(_COST, answer.excluded)),
    }


class PagePlacements:
    """Where a page's rows were placed (their tier, and the rule that says so), as the
    engine's :func:`~generator.engine.policy.placements_of` places them: a row of the
    request's task plan, or one the answer also selects, by its identifier; any other by
    its kind alone, made once per kind (a large context has ~1,000 rows and a dozen kinds;
    tests/site/test_context_rows.py checks the two agree on every row)."""

    __slots__ = ("_plan", "_by_uri", "_by_kind")

    def __init__(self, answer: CompiledContext, index) -> None:
        self._plan = task_plan(index, (s.uri for s in answer.seeds
                                       if s.kind not in ("path", "intent")))
        self._by_kind: dict[str | None, Placement] = {}
        #: the rows placed by their identifier: the task plan's, and the selected entries
        #: (the first row of an identifier places it, as in placements_of)
        self._by_uri: dict[str, Placement | None] = dict.fromkeys(
            self._plan.seeds | self._plan.follows.keys())
        for e in answer.selected:
            if self._by_uri.get(e.uri) is None:
                self._by_uri[e.uri] = (placement(e.uri, e.kind, self._plan)
                                       if e.uri in self._by_uri else self.of_kind(e.kind))

    def of(self, uri: str, kind: str | None) -> Placement:
        """The placement of the selected entry or exclusion ``uri`` of ``kind`` (an
        exclusion without one: the kind its identifier names)."""
        made = self._by_uri.get(uri)
        if made is not None:
            return made
        kind = kind or _kind_of_uri(uri)
        if uri in self._by_uri:  # in the task plan
            made = self._by_uri[uri] = placement(uri, kind, self._plan)
            return made
        return self.of_kind(kind)

    def of_kind(self, kind: str | None) -> Placement:
        """The placement of a row of ``kind`` outside the task plan."""
        made = self._by_kind.get(kind)
        if made is None:
            made = self._by_kind[kind] = placement("", kind, self._plan)
        return made

    def rules_of(self, rows: list[Excluded], said: Callable[[Phrase], str]) -> Counter[str]:
        """How many of ``rows`` each rule placed, said by ``said``, the first said first
        (the rows' order): counted by their kinds, at once, where no row is placed by its
        identifier or lacks a kind (a large page's ~1,000 rows, a lookup each made them
        cost as much as the rest of their group); else row by row."""
        counted: Counter[str] = Counter()
        # a row without a kind is placed by the one its identifier names
        kinds = Counter(map(_KIND, rows))
        if (None in kinds or "" in kinds
                or not self._by_uri.keys().isdisjoint(map(_URI, rows))):
            for x in rows:
                counted[said(self.of(x.uri, x.kind).phrase)] += 1
            return counted
        for kind, n in kinds.items():  # first seen first
            counted[said(self.of_kind(kind).phrase)] += n
        return counted


_KIND = attrgetter("kind")
_URI = attrgetter("uri")


def page_placements(answer: CompiledContext, index) -> dict[str, Placement]:
    """uri -> its placement, for every selected and excluded row (:class:`PagePlacements`),
    as :func:`~generator.engine.policy.placements_of` gives it."""
    placements = PagePlacements(answer, index)
    out: dict[str, Placement] = {}
    for e in answer.selected:
        out.setdefault(e.uri, placements.of(e.uri, e.kind))
    for x in answer.excluded:
        out.setdefault(x.uri, placements.of(x.uri, x.kind))
    return out


def _kind_of_uri(uri: str) -> str | None:
    # an unresolved row has no kind: the identifier it would have had names one (as the
    # engine's placements_of reads it)
    head, sep, rest = uri.partition("://")
    return rest.split("/", 1)[0] if sep and "/" in rest else None


def selected_groups(answer: CompiledContext, placements: PagePlacements,
                    rules: Callable[[Phrase], str], made: PageRows) -> list[tuple]:
    """``(tier spend, SelectedGroup or None)`` per tier in spend order: a tier's selected
    entries under the rule most of them were placed by, said once (a row says its own
    where it differs), their rows rendered."""
    by_tier: dict[str, list[ContextEntry]] = {t.value: [] for t in TIER_ORDER}
    for e in answer.selected:
        by_tier[e.tier.value].append(e)
    tiers = []
    for t in answer.budget.tiers:
        entries = by_tier[t.tier.value]
        if not entries:
            tiers.append((t, None))
            continue
        said = [rules(placements.of(e.uri, e.kind).phrase) for e in entries]
        usual = Counter(said).most_common(1)[0][0]
        line = (_("Placed in the tier by: {rules}.") if said.count(usual) == len(said) else
                _("Placed in the tier by: {rule}, unless a row says otherwise.")).format(
                    rules=usual, rule=usual)
        row = made.selected
        rows = joined([row(e, None if rule == usual else rule) for e, rule in zip(entries, said)])
        heading = _("{n} · {tokens} tokens").format(n=format_count(len(entries)),
                                                     tokens=format_count(t.tokens))
        tiers.append((t, SelectedGroup(heading, line, rows)))
    return tiers


class _RuleWords:
    """A placement rule said in the page's language, once per rule a page (the engine makes
    a phrase per entry; most entries of a tier share one)."""

    __slots__ = ("_said", "_by_id")

    def __init__(self) -> None:
        self._said: dict[Phrase, str] = {}
        # the same phrase object comes back for most rows (page_placements makes one per
        # kind): found by identity first, without hashing its parameters; the entry keeps
        # the phrase alive, so its id is not reused while the page is made
        self._by_id: dict[int, tuple[Phrase, str]] = {}

    def __call__(self, phrase: Phrase) -> str:
        known = self._by_id.get(id(phrase))
        if known is not None:
            return known[1]
        said = self._said.get(phrase)
        if said is None:
            said = self._said[phrase] = speak(phrase)
        self._by_id[id(phrase)] = (phrase, said)
        return said


class SelectedGroup(NamedTuple):
    """One tier's selected entries: their heading (how many, their tokens), the rule that
    placed them (said once; a row says its own where it differs), and their rendered rows."""

    heading: str
    rule_line: str
    rows: Markup


class ExclusionGroup:
    """One tier's exclusions of one reason: the sentence they share, said once, and a
    compact row per entry saying what is particular to it."""

    __slots__ = ("tier", "reason", "heading", "sentence", "rules", "count", "rows")

    @property
    def why(self) -> Markup:
        """The group's sentence, its `quoted` names as code, and the rules that placed its
        rows in the tier."""
        placed = _("Placed in the tier by: {rules}.").format(rules=self.rules_text)
        return Markup(f"{inline_code(self.sentence)} {esc(placed)}")

    @property
    def rules_text(self) -> str:
        """``by kind: test → source`` alone, else each rule with its count, most first
        (said in the page's language)."""
        if len(self.rules) == 1:
            return self.rules[0][0]
        return "; ".join(_("{rule} ({n})").format(rule=rule, n=format_count(n))
                         for rule, n in self.rules)

    def __init__(self, tier: str, reason: str, heading: str, sentence: str,
                 rules: list[tuple[str, int]], count: int, rows: Markup) -> None:
        self.tier = tier
        self.reason = reason
        self.heading = heading
        self.sentence = sentence
        #: the rules that placed the rows in the tier (said), with how many each (most first)
        self.rules = rules
        self.count = count
        #: the rendered rows (:func:`.context_rows.excluded_row`)
        self.rows = rows


def exclusion_groups(kit: PageKit, page: str, answer: CompiledContext,
                     placements: PagePlacements,
                     said_rule: Callable[[Phrase], str] | None = None,
                     made: PageRows | None = None) -> tuple[list[ExclusionGroup], list[tuple]]:
    """The exclusions grouped by tier and reason in the answer's own order (tier first,
    then reason), each row saying what is particular to it (:class:`~..reasons.Particular`),
    and the unresolved references apart: ``(anchor, uri, tier, detail)``. ``made``: the
    kit's rows for this page (:meth:`.context_rows.ContextRows.for_page`)."""
    if made is None:
        up = urls.relative(page, "index.html")[: -len("index.html")]
        made = kit.context_rows.for_page(kit.index, up, answer.request)
    said_rule = said_rule or _RuleWords()
    groups: list[ExclusionGroup] = []
    unresolved: list[tuple] = []
    runs: list[tuple[tuple, list[Excluded]]] = []
    unresolved_reason = ExclusionReason.unresolved
    # the runs of one tier and reason, found at once (the answer's rows are ~1,000; each
    # attribute a Python loop reads of a row costs ~50 ns), the unresolved ones apart: a
    # run of those between two of one tier and reason does not part them
    for key, run in groupby(answer.excluded, key=_TIER_AND_REASON):
        if key[1] is unresolved_reason:
            unresolved += [(urls.anchor_for(x.uri), x.uri, str(x.tier), said_text(x))
                           for x in run]
        elif runs and runs[-1][0] == key:
            runs[-1][1].extend(run)
        else:
            runs.append((key, list(run)))
    for (tier, reason), xs in runs:
        if reason is ExclusionReason.budget:
            used, rows = made.refusals(xs, answer.budget)
        else:
            used = None
            word = str(reason)
            excluded = made.excluded
            rows = [excluded(x, word) for x in xs]
        groups.append(ExclusionGroup(
            str(tier), str(reason), group_heading(len(xs), sum(map(_COST, xs))),
            reason_sentence(reason, answer.request, used),
            placements.rules_of(xs, said_rule).most_common(), len(xs), joined(rows)))
    return groups, unresolved


_TIER_AND_REASON = attrgetter("tier", "reason")
_COST = attrgetter("cost_tokens")


def context_files(kit: PageKit, key: ContextKey, answer: CompiledContext) -> list[tuple[str, bytes]]:
    """``[(json path, bytes), (page path, bytes)]``: the JSON first (rebuilds rely on it)."""
    page = urls.context_page(key.kind, key.identity)
    title = kit.index.objects[key.uri].title or key.identity
    return [(urls.context_json(key.kind, key.identity), canonical_json(answer)),
            (page, kit.render("context.html", page,
                              title=_("Context of {identity}: {title}").format(
                                  identity=key.identity, title=title),
                              **context_view(kit, key, answer, page)))]


def pack_paths(answer: CompiledContext) -> frozenset[str]:
    """The repository paths whose bytes a context's pack carries (a rebuild makes the pack
    again when one of them changes, even where the answer did not)."""
    return frozenset(e.provenance.path for e in answer.selected)


#: zlib's fastest level: on ``large``'s I0001 it keeps 16 % of the pack's bytes (level 6: 13 %)
#: in the time plain JSON escaping took; on the real layer's I0902, 51 % (42 %) in 1.8 ms
#: (5.9 ms). Levels trade a few per cent of a file loaded only from file:// for build time.
PACK_SCRIPT_LEVEL = 1


def pack_script(pack_rel: str, data: bytes) -> bytes:
    """The pack as a script, for ``copy.js`` from ``file://`` (which asked for it): the
    pack's bytes deflated (zlib) and in base64, which ``copy.js`` inflates with the
    browser's ``DecompressionStream`` and decodes as UTF-8.

    Compressed, because the text itself is on disk once, in the ``.md``: the script is
    only the form a page may read from ``file://`` (where no script can read the ``.md``),
    a sixth of the pack on ``large``. Base64 is all ASCII: no byte of a pack (``</script>``,
    a quote, a backtick, ``${``, U+2028, NUL) can end or change the script, in any page
    encoding, inlined or not."""
    packed = base64.b64encode(zlib.compress(data, PACK_SCRIPT_LEVEL)).decode("ascii")
    return (f"/* The pack {pack_rel.rsplit('/', 1)[-1]}, deflated and in base64, for the "
            "page's copy button from file:// (static/copy.js). */\n"
            f"window.devcontextPack && window.devcontextPack({json.dumps(pack_rel)}, \"{packed}\");\n"
            ).encode("ascii")


def pack_files(kit: PageKit, key: ContextKey, answer: CompiledContext) -> list[tuple[str, bytes]]:
    """``[(pack path, bytes), (pack script path, bytes)]``: the context's pack in Markdown
    (the bytes ``devcontext pack --issue|--milestone <id>`` prints) and, compressed, as a
    script (:func:`pack_script`)."""
    if kit.files is None:
        raise BuildError(
            f"the pack of {key.kind} {key.identity} needs the source tree's bytes, and the "
            "build was given none; pass the tree the index was built from (SiteInputs.files "
            "or PageKit.files = Workspace.tree.files)")
    data = pack_text(answer, kit.files, "markdown")
    rel = urls.context_pack(key.kind, key.identity)
    return [(rel, data), (urls.context_pack_script(key.kind, key.identity), pack_script(rel, data))]
