"""A compiled context's files: its answer as JSON (exactly the engine's wire form), its
explain page (budget picture, selected entries by tier, exclusions, deduplications), and
its pack — the context handed over (:mod:`generator.pack`), with a "Copy context" button
on the page.

The pack is two files. ``<id>.pack.md`` is the pack itself: exactly what ``devcontext pack
--format markdown`` prints at the default request; the page links it for download and the
button fetches it over http(s). ``<id>.pack.js`` carries the same text as a script, for
``file://``, where ``fetch()`` of a local file fails and a framed file cannot be read by
script: ``copy.js`` loads it only then, on the click, to fill a selectable text area.
Embedding the text in the page instead would double every context page (a pack is about
as large as its page: 74 KB against 68 KB for the demo's I0201) and a large layer has
10,400 of them; a script file costs the same on disk but nothing over http, where pages are
read.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Mapping

from ...engine.models import TIER_ORDER, CompiledContext, ExclusionReason
from ...engine.policy import Placement, placements_of
from ...errors import BuildError
from ...gitinfo import working_tree_words
from ...jsonio import canonical_json
from ...pack import pack_text
from ...phrases import Phrase
from .. import urls
from ..contexts import ContextKey
from ..i18n import N_, _, format_count, format_number, speak
from ..reasons import group_heading, reason_sentence
from ..templating import said_text
from ..svg import budget_bar
from .kit import PageKit

__all__ = ["context_view", "context_files", "pack_files", "pack_paths", "ExclusionGroup",
           "exclusion_groups"]


def context_view(kit: PageKit, key: ContextKey, answer: CompiledContext, page: str) -> dict:
    """What the context page shows, with every link made relative to ``page``."""
    href = kit.object_href
    by_tier: dict[str, list] = {t.value: [] for t in TIER_ORDER}
    required_by_tier: Counter[str] = Counter()
    for e in answer.selected:
        if e.required:
            required_by_tier[e.tier.value] += e.cost_tokens
        by_tier[e.tier.value].append({
            "e": e,
            "anchor": urls.anchor_for(e.uri),
            "href": href(page, e.uri),
            "paths": [{"d": d, "via_href": href(page, d.via) if d.via else None}
                      for d in e.discovered_by],
        })
    placed = placements_of(answer, kit.index)
    excluded, unresolved = exclusion_groups(kit, page, answer, placed)
    dedup = [{"d": d, "kept_href": href(page, d.kept),
              "anchor": urls.anchor_for(d.dropped[0]) if d.dropped else None,
              "dropped": [(u, href(page, u), urls.anchor_for(u)) for u in d.dropped]}
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
        "tiers": [(t, by_tier[t.tier.value]) for t in answer.budget.tiers],
        "excluded": excluded,
        "excluded_count": sum(len(g.rows) for g in excluded),
        "unresolved": unresolved,
        "dedup_semantic": [d for d in dedup if d["d"].dropped],
        "dedup_structural": [d for d in dedup if not d["d"].dropped],
        "reason_counts": Counter(x.reason.value for x in answer.excluded),
        "tier_rules": {uri: speak(p.phrase) for uri, p in placed.items()},
        "fact_names": {k: _(v) for k, v in FACT_NAMES.items()},
        "working_tree": working_tree_words(answer.git.working_tree),
        "excluded_tokens": sum(x.cost_tokens for x in answer.excluded),
    }


#: The facts the engine adds to an entry (the layer's own fields are shown as they are).
FACT_NAMES = {"state": N_("state")}


class ExclusionGroup:
    """One tier's exclusions of one reason: the sentence they share, said once, and a
    compact row per entry."""

    __slots__ = ("tier", "reason", "heading", "sentence", "rules", "rows")

    @property
    def rules_text(self) -> str:
        """``by kind: test → source`` alone, else each rule with its count, most first
        (said in the page's language)."""
        if len(self.rules) == 1:
            return speak(self.rules[0][0])
        return "; ".join(_("{rule} ({n})").format(rule=speak(rule), n=format_count(n))
                         for rule, n in self.rules)

    def __init__(self, tier: str, reason: str, heading: str, sentence: str,
                 rules: list[tuple[Phrase, int]], rows: list[tuple]) -> None:
        self.tier = tier
        self.reason = reason
        self.heading = heading
        self.sentence = sentence
        #: the rules that placed the rows in the tier, with how many each (most first)
        self.rules = rules
        #: ``(anchor, href, label, uri or None, cost, relevance, detail)`` per entry: the
        #: uri only where the label is a title (else it is the label)
        self.rows = rows


def exclusion_groups(kit: PageKit, page: str, answer: CompiledContext,
                     rules: Mapping[str, Placement]) -> tuple[list[ExclusionGroup], list[tuple]]:
    """The exclusions grouped by tier and reason in the answer's own order (tier first,
    then reason), and the unresolved references apart: ``(anchor, uri, tier, detail)``."""
    objects = kit.index.objects
    groups: list[ExclusionGroup] = []
    unresolved: list[tuple] = []
    current: tuple | None = None
    rows: list[tuple] = []
    counted: Counter[Phrase] = Counter()
    tokens = 0

    def close() -> None:
        if current is not None:
            tier, reason = current
            groups.append(ExclusionGroup(
                str(tier), str(reason), group_heading(len(rows), tokens),
                reason_sentence(reason, answer.request),
                counted.most_common(), rows))

    unresolved_reason = ExclusionReason.unresolved
    for x in answer.excluded:
        detail = said_text(x)
        if x.reason is unresolved_reason:
            unresolved.append((urls.anchor_for(x.uri), x.uri, str(x.tier), detail))
            continue
        key = (x.tier, x.reason)
        if key != current:
            close()
            current, rows, counted, tokens = key, [], Counter(), 0
        held = objects.get(x.uri)
        title = held.title if held is not None else None
        href = urls.relative(page, urls.object_page(x.uri)) if held is not None else None
        # untitled: the identifier without its scheme, as a path's "via" link shows it
        label = title or x.uri.split("://", 1)[-1]
        rows.append((urls.anchor_for(x.uri), href, label, x.uri if title else None,
                     format_count(x.cost_tokens), format_number(x.relevance), detail))
        counted[rules[x.uri].phrase] += 1
        tokens += x.cost_tokens
    close()
    return groups, unresolved


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


def pack_script(pack_rel: str, text: str) -> bytes:
    """The pack as a script: hands its text to ``copy.js`` (which asked for it).

    The text is a JSON string, all ASCII, so the script reads the same in any page
    encoding and no byte of a file (a quote, a carriage return, NUL) can end or change it;
    ``<`` is escaped too, so not even ``</script>`` appears should the script be inlined."""
    data = json.dumps(text, ensure_ascii=True).replace("<", "\\u003c")
    return (f"/* The pack {pack_rel.rsplit('/', 1)[-1]} as a script, for the page's copy "
            "button from file:// (static/copy.js). */\n"
            f"window.devcontextPack && window.devcontextPack({json.dumps(pack_rel)}, {data});\n"
            ).encode("ascii")


def pack_files(kit: PageKit, key: ContextKey, answer: CompiledContext) -> list[tuple[str, bytes]]:
    """``[(pack path, bytes), (pack script path, bytes)]``: the context's pack in Markdown
    (the bytes ``devcontext pack --issue|--milestone <id>`` prints) and as a script."""
    if kit.files is None:
        raise BuildError(
            f"the pack of {key.kind} {key.identity} needs the source tree's bytes, and the "
            "build was given none; pass the tree the index was built from (SiteInputs.files "
            "or PageKit.files = Workspace.tree.files)")
    data = pack_text(answer, kit.files, "markdown")
    rel = urls.context_pack(key.kind, key.identity)
    return [(rel, data), (urls.context_pack_script(key.kind, key.identity),
                          pack_script(rel, data.decode("utf-8")))]
