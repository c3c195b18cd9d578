"""Helpers shared by the engine tests: fixture layers on disk, and the invariants every
compiled answer must satisfy (each one stated by a description in the JSON Schemas or by
Part A of spec/devcontext-semantics.md)."""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from generator.engine import (
    CompiledContext,
    CompileInput,
    ExclusionReason,
    GitInfo,
    Standing,
    compile_context,
    explain_in,
    parse_input,
    tokens_for,
)
from generator.engine.models import SELECTOR_ORDER, TIER_ORDER
from generator.engine.order import natural_key
from generator.index import Index
from generator.workspace import Workspace

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LAYERS = FIXTURES / "layers"
SCHEME = "majordomus://"


def expand(uri: str) -> str:
    """``issue/I0001`` → ``majordomus://issue/I0001``; a full identifier, or a name without
    a ``/`` (a raw unresolved name, ``command:x``), stays as it is."""
    return uri if "://" in uri or "/" not in uri else SCHEME + uri


def base_files(name: str = "planned") -> dict[str, str]:
    data = yaml.safe_load((LAYERS / f"{name}.yaml").read_text(encoding="utf-8"))
    return dict(data["files"])


def merge_files(base: dict[str, str], *overrides: dict[str, str | None] | None) -> dict[str, str]:
    """Overrides add or replace files; a value of None deletes the file."""
    files = dict(base)
    for over in overrides:
        for path, content in (over or {}).items():
            if content is None:
                files.pop(path, None)
            else:
                files[path] = content
    return files


def write_files(root: Path, files: dict[str, str]) -> Path:
    if root.exists():
        shutil.rmtree(root)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


class LayerCache:
    """Indexes of file sets, written once under ``root`` and keyed by their content."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._indexes: dict[str, Index] = {}

    def index(self, files: dict[str, str]) -> Index:
        key = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
        if key not in self._indexes:
            where = write_files(self.root / key, files)
            self._indexes[key] = Workspace.open(where).index
        return self._indexes[key]


# ---------------------------------------------------------------------------------------
# Details that name the value bringing an entry back
# ---------------------------------------------------------------------------------------

_BRING_BACK = {
    ExclusionReason.relevance: (re.compile(r"a floor of ([0-9.]+) brings it in"), "floor", float),
    ExclusionReason.depth: (re.compile(r"a max_depth of (\d+) brings it in"), "max_depth", int),
    # prose prints whole numbers thousands-separated ("a budget of 24,329 tokens")
    ExclusionReason.budget: (re.compile(r"a budget of ([\d,]+) tokens brings it in"),
                             "budget_tokens", lambda text: int(text.replace(",", ""))),
}


def bring_back_request(request: dict[str, Any], row) -> dict[str, Any] | None:
    """The request again, with the limit the exclusion's detail names; None when the detail
    names no exact value (a budget stated as a lower bound)."""
    pattern, field, convert = _BRING_BACK[row.reason]
    match = pattern.search(row.detail)
    if match is None:
        return None
    again = dict(request)
    again[field] = convert(match.group(1))
    return again


# ---------------------------------------------------------------------------------------
# Invariants
# ---------------------------------------------------------------------------------------


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-9


def check_invariants(compiled: CompiledContext, index: Index | None = None) -> None:
    """Every invariant the schema descriptions state about one compiled answer."""
    selected = compiled.selected
    budget = compiled.budget
    uris = [e.uri for e in selected]
    assert len(uris) == len(set(uris)), "a URI is selected twice"
    excluded_uris = [x.uri for x in compiled.excluded]
    assert len(excluded_uris) == len(set(excluded_uris)), "a URI is excluded twice"
    assert not set(uris) & set(excluded_uris), "a URI is both selected and excluded"
    dropped = [u for d in compiled.deduplicated for u in d.dropped]
    assert not set(dropped) & set(uris), "a dropped URI is selected"
    assert not set(dropped) & set(excluded_uris), "a dropped URI is an exclusion"

    if index is not None:
        # Tiers by meaning (spec Part A, 11): the rule the explain page shows places every
        # row in the tier the compiler gave it, and the task tier holds only the seeds, what
        # follows from them (a seed issue's milestone and blockers, a seed milestone's
        # issues) and the project
        from generator.engine.policy import PLAN_KINDS, placements_of

        placements = placements_of(compiled, index)
        seeds = {s.uri for s in compiled.seeds}
        for row in (*selected, *compiled.excluded):
            assert placements[row.uri].tier is row.tier, (row.uri, row.tier, placements[row.uri])
            if row.tier.value == "task" and row.uri not in seeds:
                assert row.kind in (*PLAN_KINDS, "project", None), (row.uri, row.kind)

    uri_rows = {d.kept: d for d in compiled.deduplicated if d.key == "uri"}
    for e in selected:
        assert e.discovered_by, f"{e.uri}: no discovery"
        assert e.confidence == max(d.confidence for d in e.discovered_by), e.uri
        assert e.depth == min(d.depth for d in e.discovered_by), e.uri
        assert 0.0 <= e.confidence <= 1.0 and 0.0 <= e.relevance <= 1.0, e.uri
        assert e.cost_bytes == e.provenance.bytes, e.uri
        assert e.cost_tokens == max(1, math.ceil(e.cost_bytes / 4)) == tokens_for(e.cost_bytes)
        assert e.cost_tokens >= 1
        assert e.provenance.path, e.uri
        # a discovered_by longer than one is the evidence that deduplication happened
        assert (len(e.discovered_by) > 1) == (e.uri in uri_rows), e.uri
        if e.uri in uri_rows:
            assert uri_rows[e.uri].paths == len(e.discovered_by)
            assert uri_rows[e.uri].dropped == ()
        for d in e.discovered_by:
            assert (d.selector.value == "intent_match") == (d.confidence < 1.0), (e.uri, d)
            assert (d.edge is not None) == (d.selector.value == "relation"), (e.uri, d)
            if d.selector.value == "seed":
                assert d.via is None and d.depth == 0
        order = [(-d.confidence, d.depth, SELECTOR_ORDER.index(d.selector), d.reason)
                 for d in e.discovered_by]
        assert order == sorted(order), f"{e.uri}: discovered_by is not best first"
        assert rounded3(e.relevance) and rounded3(e.confidence), e.uri

    # budget arithmetic
    assert budget.used_tokens == sum(e.cost_tokens for e in selected)
    assert budget.remaining_tokens == max(0, budget.limit_tokens - budget.used_tokens)
    assert budget.required_tokens == sum(e.cost_tokens for e in selected if e.required)
    assert budget.over_budget == (budget.required_tokens > budget.limit_tokens)
    assert budget.over_budget == (budget.used_tokens > budget.limit_tokens)
    assert budget.bytes_per_token == 4
    assert [t.tier for t in budget.tiers] == list(TIER_ORDER), "tiers not in spend order"
    for spend in budget.tiers:
        mine = [e for e in selected if e.tier == spend.tier]
        assert spend.selected == len(mine)
        assert spend.tokens == sum(e.cost_tokens for e in mine)
        assert spend.required == sum(1 for e in mine if e.required)
        assert spend.required <= spend.selected
        assert spend.excluded == sum(1 for x in compiled.excluded
                                     if x.tier == spend.tier and x.reason is ExclusionReason.budget)
        assert spend.meaning
    assert sum(t.tokens for t in budget.tiers) == budget.used_tokens
    assert sum(t.selected for t in budget.tiers) == len(selected)

    # canonical orders
    sel_key = [(e.tier.rank, -e.relevance) for e in selected]
    assert sel_key == sorted(sel_key), "selected is not in tier / relevance order"
    exc_key = [(x.tier.rank, natural_key(x.reason.value), natural_key(x.uri))
               for x in compiled.excluded]
    assert exc_key == sorted(exc_key), "excluded is not in canonical order"
    ded_key = [(natural_key(d.key), natural_key(d.kept)) for d in compiled.deduplicated]
    assert ded_key == sorted(ded_key), "deduplicated is not in canonical order"
    con_key = [(c.kind, c.current, c.against) for c in compiled.conflicts]
    assert con_key == sorted(con_key), "conflicts are not in canonical order"

    # exclusions
    floor = compiled.request.floor
    for x in compiled.excluded:
        assert x.detail
        if x.reason is ExclusionReason.unresolved:
            assert x.kind is None and x.cost_tokens == 0, x
        else:
            assert x.kind is not None and x.cost_tokens >= 1, x
        if x.reason is ExclusionReason.budget:
            # refused the moment it would not fit, and the pot only shrinks afterwards
            assert x.cost_tokens > budget.remaining_tokens, x
            # its pot said where it is not the answer's final sum (stated in ``budget``)
            spent = re.match(r"([\d,]+) of ([\d,]+) spent or reserved when refused; ",
                             x.detail)
            pot = int(spent.group(1).replace(",", "")) if spent else budget.used_tokens
            assert not spent or (pot != budget.used_tokens
                                 and int(spent.group(2).replace(",", "")) == budget.limit_tokens)
            assert x.detail.startswith("a budget of ") or spent, x
            assert pot + x.cost_tokens > budget.limit_tokens, x
        if x.reason is ExclusionReason.relevance:
            assert x.relevance <= floor + 1e-9, x
        if x.reason is ExclusionReason.depth:
            assert f"max_depth {compiled.request.max_depth}" in x.detail, x
    for d in compiled.deduplicated:
        assert d.key in ("uri", "path", "identity")
        assert (d.key == "uri") == (d.dropped == ()), d
        assert d.kept not in d.dropped

    if index is not None:
        seeds = {s.uri for s in compiled.seeds if s.kind not in ("path", "intent")}
        for x in compiled.excluded:
            if x.reason is ExclusionReason.budget:
                obj = index.get(x.uri)
                assert x.uri not in seeds, f"seed {x.uri} dropped for budget"
                assert obj is not None and obj.kind not in ("policy", "scope"), x.uri
                assert not (obj.kind == "rule" and obj.facts.get("class") == "blocking"), x.uri
            if x.reason in (ExclusionReason.relevance, ExclusionReason.depth,
                            ExclusionReason.stale):
                assert x.uri not in seeds, f"seed {x.uri} excluded for {x.reason.value}"
        for e in selected:
            obj = index.get(e.uri)
            assert obj is not None and obj.kind == e.kind
            must = (e.uri in seeds or obj.kind in ("policy", "scope")
                    or (obj.kind == "rule" and obj.facts.get("class") == "blocking"))
            assert e.required == must, f"{e.uri}: required={e.required}, expected {must}"
        for seed in seeds:
            assert seed in uris or seed in dropped, f"seed {seed} is not in the answer"
        for obj in index.by_kind.get("policy", []) + index.by_kind.get("scope", []):
            assert obj.uri in uris or obj.uri in dropped, f"{obj.uri} missing"


def rounded3(value: float) -> bool:
    """Reported numbers carry at most 3 decimals."""
    return abs(value * 1000 - round(value * 1000)) < 1e-6


def check_explain(index: Index, compiled: CompiledContext, uri: str) -> Standing:
    """Explain ``uri`` from the compiled answer and check the evidence agrees with the
    standing; returns the standing."""
    e = explain_in(index, compiled, uri)
    assert e.uri == uri.strip()
    assert e.detail
    assert e.budget == compiled.budget
    filled = [name for name in ("entry", "excluded", "deduplicated") if getattr(e, name) is not None]
    expected = {Standing.selected: ["entry"], Standing.excluded: ["excluded"],
                Standing.deduplicated: ["deduplicated"], Standing.not_reached: [],
                Standing.unknown: []}[e.standing]
    assert filled == expected, (uri, e.standing, filled)
    selected = {x.uri: x for x in compiled.selected}
    excluded = {x.uri: x for x in compiled.excluded}
    dropped = {u: d for d in compiled.deduplicated for u in d.dropped}
    if uri in selected:
        assert e.standing is Standing.selected and e.entry == selected[uri]
    elif uri in excluded:
        assert e.standing is Standing.excluded and e.excluded == excluded[uri]
    elif uri in dropped:
        assert e.standing is Standing.deduplicated and e.deduplicated == dropped[uri]
    elif index.get(uri) is not None:
        assert e.standing is Standing.not_reached
    else:
        assert e.standing is Standing.unknown
    return e.standing


def standings_agree(index: Index, compiled: CompiledContext, extra: Iterable[str] = ()) -> None:
    """Every URI the answer mentions, plus ``extra``, explains consistently."""
    uris = [e.uri for e in compiled.selected] + [x.uri for x in compiled.excluded]
    uris += [u for d in compiled.deduplicated for u in d.dropped]
    for uri in [*uris, *extra]:
        check_explain(index, compiled, uri)


def compile_dict(index: Index, request: dict[str, Any], branch: str | None = None,
                 ) -> CompiledContext:
    data: CompileInput = parse_input(request)
    return compile_context(index, data, git=GitInfo(branch=branch) if branch else None)
