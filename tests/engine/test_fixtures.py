"""The fixture-file suite: every case in ``fixtures/*.yaml`` compiled and checked.

A fixture file holds ``cases`` (and optionally ``layer``, ``files`` and ``branch`` shared by
its cases). Each case names a readable ``id``, optional ``files`` overriding the base layer
(``fixtures/layers/<layer>.yaml``; a null value deletes a file), an optional git ``branch``,
a ``request`` (plain data, parsed by ``parse_input``) and ``expect``:

``error``            {type, field, message: [substrings]} — compiling must fail so
``seeds``            the echoed seeds, exactly
``selected``         {uri: {attribute: value}} — each entry present, with these attributes
                     (besides the entry's own fields: ``first``/``last``/``discovered_by``/
                     ``labels`` as ``selector(edge)`` labels, ``discoveries`` matchers,
                     ``reason`` substring, provenance fields, a ``facts`` subset)
``selected_exactly`` the selected URIs, in order
``not_selected``     URIs that must not be selected
``excluded``         {uri: {reason, tier, kind, cost_tokens, relevance, detail: [substrings]}}
``excluded_exactly`` the excluded URIs, in order
``not_excluded``     URIs that must not be excluded
``dedup``            [{key, kept, dropped, paths, detail}] — each present (subset match)
``dedup_exactly``    [[key, kept], ...] in order
``conflicts``        [{kind, current, against, detail}] — each present
``conflicts_exactly``[[kind, current, against], ...] in order
``budget``           {field: value}; ``tiers``: {tier: {selected, excluded, tokens, required}}
``diagnostics``      codes that must occur; ``no_diagnostics``: codes that must not
``commits``          git.commits, exactly
``explain``          {uri: standing | {standing, detail}}; ``explain_first_selected``: standing
``tier_rules``       {uri: rule} — the rule that placed a selected or excluded row in its
                     tier (policy.tier_rules, what the context page shows)
``bring_back``       URIs excluded for budget/relevance/depth that compiling again with the
                     value the detail names must select

URIs may be written without the ``majordomus://`` prefix. Every case that compiles is also
checked against every invariant of the schema descriptions (``enginekit.check_invariants``),
every URI it mentions must explain consistently, and every request-bound exclusion must
stop being one when the request is compiled again with the value its detail names.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from enginekit import (
    FIXTURES,
    LayerCache,
    base_files,
    bring_back_request,
    check_invariants,
    compile_dict,
    expand,
    merge_files,
    standings_agree,
)

from generator import errors
from generator.engine import ExplainInput, GitInfo, explain
from generator.engine.policy import EDGE_RULES, placements_of
from generator.relations import RELATIONS


def _load_cases() -> list[Any]:
    params = []
    for path in sorted(FIXTURES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            params.append(pytest.param(data, case, id=case["id"]))
    return params


CASES = _load_cases()


@pytest.fixture(scope="module")
def layers(tmp_path_factory) -> LayerCache:
    return LayerCache(tmp_path_factory.mktemp("fixture-layers"))


def _label(d) -> str:
    return d.selector.value if d.edge is None else f"{d.selector.value}({d.edge})"


def _texts(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _check_discovery(uri: str, found, want: dict[str, Any]) -> None:
    """``want`` matches some discovery of the entry. ``from`` is ``via`` as an identifier
    (prefix optional), ``via`` is compared literally (a scope path), ``reason`` is a
    substring, and ``direction`` ties the weight and reason to the edge's rule in policy.py."""
    want = dict(want)
    direction = want.pop("direction", None)
    reason = want.pop("reason", None)
    if "from" in want:
        want["via"] = expand(want.pop("from"))
    matching = []
    for d in found:
        wire = d.model_dump(mode="json")
        if any(wire.get(k) != v for k, v in want.items()):
            continue
        if reason is not None and reason not in d.reason:
            continue
        if direction is not None:
            rule = EDGE_RULES[d.edge]
            weight = rule.forward if direction == "forward" else rule.reverse
            words = rule.forward_reason if direction == "forward" else rule.reverse_reason
            if d.weight != weight or d.reason != words:
                continue
        matching.append(d)
    assert matching, (f"{uri}: no discovery matches {want} (direction={direction}, "
                      f"reason={reason}); found {[d.model_dump(mode='json') for d in found]}")


def _check_entry(entry, want: dict[str, Any]) -> None:
    for key, value in (want or {}).items():
        if key == "first":
            assert _label(entry.discovered_by[0]) == value, (entry.uri, entry.discovered_by)
        elif key == "last":
            assert _label(entry.discovered_by[-1]) == value, (entry.uri, entry.discovered_by)
        elif key == "discovered_by":
            assert [_label(d) for d in entry.discovered_by] == value, entry.uri
        elif key == "labels":
            assert sorted(_label(d) for d in entry.discovered_by) == sorted(value), entry.uri
        elif key == "discoveries":
            for item in value:
                _check_discovery(entry.uri, entry.discovered_by, item)
        elif key in ("source_class", "section", "path", "directory"):
            assert getattr(entry.provenance, key) == value, (entry.uri, key)
        elif key == "facts":
            for fact, text in value.items():
                assert entry.facts.get(fact) == text, (entry.uri, fact, entry.facts)
        elif key == "reason":
            assert any(value in d.reason for d in entry.discovered_by), (entry.uri, value)
        else:
            got = getattr(entry, key)
            got = got.value if hasattr(got, "value") else got
            assert got == value, f"{entry.uri}: {key} is {got!r}, expected {value!r}"


def _check_row(row, want: dict[str, Any]) -> None:
    for key, value in (want or {}).items():
        if key == "detail":
            for text in _texts(value):
                assert text in row.detail, f"{row.uri}: {text!r} not in {row.detail!r}"
        else:
            got = getattr(row, key)
            got = got.value if hasattr(got, "value") else got
            assert got == value, f"{row.uri}: {key} is {got!r}, expected {value!r}"


def _check_dedup(found, want: dict[str, Any]) -> None:
    def matches(d) -> bool:
        for key, value in want.items():
            if key == "kept" and d.kept != expand(value):
                return False
            if key == "dropped" and list(d.dropped) != [expand(u) for u in value]:
                return False
            if key in ("key", "paths") and getattr(d, key) != value:
                return False
            if key == "detail" and not all(t in d.detail for t in _texts(value)):
                return False
        return True

    assert any(matches(d) for d in found), f"no dedup row matches {want}: {found}"


def _check_conflict(found, want: dict[str, Any]) -> None:
    def matches(c) -> bool:
        return (all(getattr(c, k) == (expand(v) if k in ("current", "against") else v)
                    for k, v in want.items() if k != "detail")
                and all(t in c.detail for t in _texts(want.get("detail", []))))

    assert any(matches(c) for c in found), f"no conflict matches {want}: {found}"


def _bring_back(index, request, branch, compiled, must_select: set[str]) -> None:
    for row in compiled.excluded:
        if not row.reason.request_bound:
            continue
        again = bring_back_request(request, row)
        if again is None:
            assert row.uri not in must_select, f"{row.uri}: no exact value in {row.detail!r}"
            continue
        recompiled = compile_dict(index, again, branch)
        still = {x.uri: x for x in recompiled.excluded}
        assert still.get(row.uri) is None or still[row.uri].reason is not row.reason, (
            f"{row.uri}: compiled again with {again} and still excluded for "
            f"{row.reason.value}: {still[row.uri].detail}")
        if row.uri in must_select:
            assert row.uri in {e.uri for e in recompiled.selected}, (
                f"{row.uri}: compiled again with {again} and not selected")
    missing = must_select - {x.uri for x in compiled.excluded if x.reason.request_bound}
    assert not missing, f"bring_back names URIs that are not request-bound exclusions: {missing}"


CASE_KEYS = {"id", "doc", "files", "branch", "request", "expect"}
EXPECT_KEYS = {
    "error", "seeds", "selected", "selected_exactly", "not_selected", "excluded",
    "excluded_exactly", "not_excluded", "dedup", "dedup_exactly", "conflicts",
    "conflicts_exactly", "budget", "tiers", "diagnostics", "no_diagnostics", "commits",
    "explain", "explain_first_selected", "bring_back", "tier_rules",
}
ENTRY_KEYS = {
    "first", "last", "discovered_by", "labels", "discoveries", "source_class", "section",
    "path", "directory", "facts", "reason", "tier", "relevance", "confidence", "depth",
    "required", "kind", "title", "status", "version", "cost_tokens", "cost_bytes",
}
ROW_KEYS = {"reason", "tier", "kind", "cost_tokens", "relevance", "detail"}
DISCOVERY_KEYS = {"selector", "edge", "direction", "from", "via", "depth", "weight",
                  "confidence", "reason"}


def _check_keys(case: dict) -> None:
    """A misspelt key would silently check nothing, so every key must be a known one."""
    assert set(case) <= CASE_KEYS, set(case) - CASE_KEYS
    expect = case.get("expect") or {}
    assert set(expect) <= EXPECT_KEYS, set(expect) - EXPECT_KEYS
    for want in (expect.get("selected") or {}).values():
        assert set(want or {}) <= ENTRY_KEYS, set(want) - ENTRY_KEYS
        for item in (want or {}).get("discoveries", []):
            assert set(item) <= DISCOVERY_KEYS, set(item) - DISCOVERY_KEYS
    for want in (expect.get("excluded") or {}).values():
        assert set(want or {}) <= ROW_KEYS, set(want) - ROW_KEYS


@pytest.mark.parametrize("data,case", CASES)
def test_fixture(layers: LayerCache, data: dict, case: dict) -> None:
    _check_keys(case)
    files = merge_files(base_files(data.get("layer", "planned")), data.get("files"),
                        case.get("files"))
    index = layers.index(files)
    request = case.get("request") or {}
    branch = case.get("branch", data.get("branch"))
    expect = case.get("expect") or {}

    if "error" in expect:
        want = expect["error"]
        with pytest.raises(errors.DevContextError) as info:
            compile_dict(index, request, branch)
        err = info.value
        assert type(err).__name__ == want["type"], f"{type(err).__name__}: {err}"
        if "field" in want:
            assert getattr(err, "field", None) == want["field"], err
        for text in _texts(want.get("message", [])):
            assert text in str(err), f"{text!r} not in {str(err)!r}"
        return

    compiled = compile_dict(index, request, branch)
    check_invariants(compiled, index)
    standings_agree(index, compiled, extra=["majordomus://adr/9999"])
    selected = {e.uri: e for e in compiled.selected}
    excluded = {x.uri: x for x in compiled.excluded}
    placements = placements_of(compiled, index)  # check_invariants checks their tiers
    for uri, rule in (expect.get("tier_rules") or {}).items():
        assert placements[expand(uri)].rule == rule, (uri, placements[expand(uri)])

    if "seeds" in expect:
        got = [s.model_dump(mode="json", by_alias=True, exclude_none=True) for s in compiled.seeds]
        want = [dict(s, uri=expand(s["uri"]) if s.get("kind") not in ("path", "intent") else s["uri"])
                for s in expect["seeds"]]
        assert got == want
    for uri, want in (expect.get("selected") or {}).items():
        uri = expand(uri)
        assert uri in selected, f"{uri} not selected; excluded: {excluded.get(uri)}"
        _check_entry(selected[uri], want)
    if "selected_exactly" in expect:
        assert [e.uri for e in compiled.selected] == [expand(u) for u in expect["selected_exactly"]]
    for uri in expect.get("not_selected", []):
        assert expand(uri) not in selected, f"{uri} is selected"
    for uri, want in (expect.get("excluded") or {}).items():
        uri = expand(uri)
        assert uri in excluded, f"{uri} not excluded; selected: {uri in selected}"
        _check_row(excluded[uri], want)
    if "excluded_exactly" in expect:
        assert [x.uri for x in compiled.excluded] == [expand(u) for u in expect["excluded_exactly"]]
    for uri in expect.get("not_excluded", []):
        assert expand(uri) not in excluded, f"{uri} is excluded: {excluded[expand(uri)].detail}"
    for want in expect.get("dedup", []):
        _check_dedup(compiled.deduplicated, want)
    if "dedup_exactly" in expect:
        assert [[d.key, d.kept] for d in compiled.deduplicated] == [
            [k, expand(u)] for k, u in expect["dedup_exactly"]]
    for want in expect.get("conflicts", []):
        _check_conflict(compiled.conflicts, want)
    if "conflicts_exactly" in expect:
        assert [[c.kind, c.current, c.against] for c in compiled.conflicts] == [
            [k, expand(a), expand(b)] for k, a, b in expect["conflicts_exactly"]]
    for key, value in (expect.get("budget") or {}).items():
        assert getattr(compiled.budget, key) == value, f"budget.{key}"
    for tier, want in (expect.get("tiers") or {}).items():
        (spend,) = [t for t in compiled.budget.tiers if t.tier.value == tier]
        for key, value in want.items():
            assert getattr(spend, key) == value, f"tiers.{tier}.{key}"
    codes = {d.code for d in compiled.diagnostics}
    for code in expect.get("diagnostics", []):
        assert code in codes, f"no {code} diagnostic in {compiled.diagnostics}"
    for code in expect.get("no_diagnostics", []):
        assert code not in codes, f"unexpected {code} diagnostic"
    if "commits" in expect:
        got = [c.model_dump(mode="json", exclude_none=True) for c in compiled.git.commits]
        assert got == [dict(c, named_by=expand(c["named_by"])) for c in expect["commits"]]

    git = GitInfo(branch=branch) if branch else None
    explains = dict(expect.get("explain") or {})
    if "explain_first_selected" in expect:
        explains[compiled.selected[0].uri] = expect["explain_first_selected"]
    for uri, want in explains.items():
        want = want if isinstance(want, dict) else {"standing": want}
        e = explain(index, ExplainInput(uri=expand(uri), **request), git=git)
        assert e.standing.value == want["standing"], f"{uri}: {e.standing.value}: {e.detail}"
        assert e.budget == compiled.budget, "explain judged under another budget"
        assert e.budget.limit_tokens == compiled.budget.limit_tokens
        for text in _texts(want.get("detail", [])):
            assert text in e.detail, f"{text!r} not in {e.detail!r}"

    _bring_back(index, request, branch, compiled, {expand(u) for u in expect.get("bring_back", [])})


def test_case_ids_are_unique() -> None:
    ids = [p.id for p in CASES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert len(ids) >= 100


def test_every_followable_edge_direction_has_a_case() -> None:
    """Each edge rule of policy.py is exercised forward and reverse by some fixture case,
    except edges whose relation only ever ends in an external node (never walked)."""
    covered: set[tuple[str, str]] = set()
    for param in CASES:
        case = param.values[1]
        for want in ((case.get("expect") or {}).get("selected") or {}).values():
            for item in (want or {}).get("discoveries", []):
                if "direction" in item:
                    covered.add((item["edge"], item["direction"]))
    external_only = {r.edge for r in RELATIONS if r.target.startswith("external:")} - {
        r.edge for r in RELATIONS if not r.target.startswith("external:")}
    wanted = {(edge, d) for edge in EDGE_RULES if edge not in external_only
              for d in ("forward", "reverse")}
    assert wanted - covered == set()
    assert external_only == {"runs"}
