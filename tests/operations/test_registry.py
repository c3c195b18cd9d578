"""The operation registry: declarations complete and consistent, the CLI checked against
it, handlers equal to the engine's own entry points, messages equal to the HTTP API's."""

from __future__ import annotations

import pytest

from generator.cli import COMMANDS, build_parser, main
from generator.engine import EngineCache, compile_context, explain
from generator.engine.cache import COMPILE_CACHE_SIZE, EXPLAIN_CACHE_SIZE
from generator.engine.models import TIER_ORDER, CompileInput, ExplainInput, Standing
from generator.engine.policy import EDGE_RULES, FIXED_RELEVANCE, KIND_TIERS
from generator.errors import DevContextError, NotFoundError, RequestError
from generator.jsonio import canonical_json_text, to_jsonable
from generator.operations import (
    NON_OPERATION_COMMANDS,
    OPERATIONS,
    TRANSPORTS,
    Runner,
    error_of,
    operation,
)
from generator.operations.arguments import fields_from_pairs
from generator.query import explain_query, run_query
from generator.workspace import Workspace


@pytest.fixture(scope="module")
def workspace():
    return Workspace.open()


@pytest.fixture(scope="module")
def index(workspace):
    return workspace.index


def test_the_operations_are_declared_once_each():
    ids = [op.id for op in OPERATIONS]
    assert ids == ["devcontext.compile", "devcontext.explain", "devcontext.policy",
                   "query.explain", "objects.get", "devcontext.pack"]
    for attr in ("mcp_tool", "http_route", "operation_id", "cli_command"):
        values = [getattr(op.exposure, attr) for op in OPERATIONS]
        values = [v for v in values if v is not None]
        assert len(set(values)) == len(values), attr
    for op in OPERATIONS:
        assert (op.exposure.operation_id is None) == (op.exposure.http_route is None)
        if op.exposure.operation_id is not None:
            assert op.exposure.operation_id == op.id
        assert op.kind == "query" and op.module and op.tags
        assert op.exposure.transports[0] == "direct"
        assert set(op.exposure.transports) <= set(TRANSPORTS)


def test_cache_policies_are_the_engines_caches():
    assert operation("devcontext.compile").policies.cache.entries == COMPILE_CACHE_SIZE == 16
    assert operation("devcontext.explain").policies.cache.entries == EXPLAIN_CACHE_SIZE == 8
    cache = EngineCache()
    assert cache.compiled.max_entries == 16 and cache.explained.max_entries == 8
    for op in OPERATIONS:
        if op.policies.cache is not None:
            assert op.policies.cache.scope == "process"
            assert "fingerprint" in op.policies.cache.key


def test_cli_verbs_are_exactly_the_registry_and_the_declared_non_operations():
    """A verb added without a declaration, or a declared verb gone, fails here."""
    declared = {op.exposure.cli_command for op in OPERATIONS if op.exposure.cli_command}
    assert set(COMMANDS) == declared | set(NON_OPERATION_COMMANDS)
    assert not declared & set(NON_OPERATION_COMMANDS)
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert declared <= set(sub.choices)


def test_every_operation_that_requires_a_benchmark_has_cases(workspace, index):
    for op in OPERATIONS:
        if op.policies.benchmark_required:
            assert op.benchmark_cases, op.id
        names = [c.name for c in op.benchmark_cases]
        assert len(set(names)) == len(names)
        for case in op.benchmark_cases:  # every case answers on the demo layer
            op.run(index, case.arguments(index), files=workspace.tree.files)


def test_the_pack_is_the_packs_own_answer(capsys, workspace, index):
    from generator.pack import PackInput, pack

    op = operation("devcontext.pack")
    answer = op.run(index, {"issue": "I0201", "format": "xml"}, files=workspace.tree.files)
    assert answer == pack(index, workspace.tree.files, PackInput(issue="I0201", format="xml"))
    assert main(["pack", "--issue", "I0201", "--format", "xml"]) == 0
    assert capsys.readouterr().out == answer.text
    assert _message(lambda: op.run(index, {"format": "pdf"}, files={})) == (
        RequestError, "`format` must be markdown, xml or json; found 'pdf'")
    assert _message(lambda: op.run(index, {"isue": "I0201"}, files={}))[1] == (
        "unknown field `isue`; the request accepts all_blocking_rules, budget_tokens, floor, "
        "format, intent, issue, max_depth, milestone, paths, uris")
    assert op.exposure.http_route is None and op.exposure.transports == ("direct", "mcp")


def test_explain_cases_are_an_object_in_the_answer_and_one_the_index_does_not_hold(index):
    op = operation("devcontext.explain")
    cases = {c.name: c for c in op.benchmark_cases}
    assert op.run(index, cases["policy"].arguments(index)).standing is Standing.selected
    absent = op.run(index, cases["absent"].arguments(index))
    assert absent.standing is Standing.unknown and absent.entry is None


def test_handlers_answer_what_the_engine_answers(index):
    request = {"issue": "I0201", "paths": ["lib/cache.py"], "budget_tokens": 9000}
    assert operation("devcontext.compile").run(index, request) == \
        compile_context(index, CompileInput(**request))
    uri = "majordomus://adr/adr-0003"
    assert operation("devcontext.explain").run(index, {"uri": uri, "issue": "I0201"}) == \
        explain(index, ExplainInput(uri=uri, issue="I0201"))
    for params in ({"kind": "text", "value": "stale cache", "limit": "3"},
                   {"kind": "cross_ref", "start": "I0201", "depth": "9"}):
        answer = operation("query.explain").run(index, params, text=True)
        assert to_jsonable(answer) == explain_query(index, params)
    obj = operation("objects.get").run(index, {"uri": uri})
    assert obj == index.get(uri) and obj.body


def test_the_policy_is_the_compilers_data(index):
    policy = operation("devcontext.policy").run(index, {})
    assert [t.tier for t in policy.tiers] == list(TIER_ORDER)
    assert {t.tier: t.kinds for t in policy.tiers if t.kinds} == KIND_TIERS
    assert {e.edge: (e.forward, e.reverse) for e in policy.edges} == \
        {r.edge: (r.forward, r.reverse) for r in EDGE_RULES.values()}
    assert {s.selector: s.relevance for s in policy.selectors} == FIXED_RELEVANCE
    assert policy.defaults.budget_tokens == 24000 and policy.defaults.floor == 0.25
    assert all(t.meaning for t in policy.tiers)
    with pytest.raises(RequestError, match=r"^unknown parameter `x`; devcontext.policy takes "
                       "no parameters$"):
        operation("devcontext.policy").run(index, {"x": "1"})


def _message(call) -> tuple[type, str]:
    with pytest.raises(DevContextError) as info:
        call()
    return type(info.value), info.value.message


@pytest.mark.parametrize("params", [
    {},
    {"kind": "graph"},
    {"kind": "text", "value": "x", "depht": "2"},
    {"kind": "text", "value": "x", "limit": "ten"},
    {"kind": "text", "value": "x", "limit": "0"},
    {"kind": "cross_ref", "start": "I0201", "depth": "1.5"},
    {"kind": "cross_ref", "start": "nothing-here"},
    {"kind": "text", "value": "   "},
], ids=["no-kind", "bad-kind", "unknown", "limit-text", "limit-zero", "depth-float",
        "start-absent", "blank-value"])
def test_query_messages_are_the_query_engines(index, params):
    """JSON arguments (an MCP call) fail with the message the query string would."""
    expected = _message(lambda: run_query(index, params))
    as_json = {k: (int(v) if v.isdigit() and k in ("depth", "limit") else v)
               for k, v in params.items()}
    assert _message(lambda: operation("query.explain").run(index, as_json)) == expected
    assert _message(lambda: operation("query.explain").run(index, params, text=True)) == expected


def test_object_errors(index):
    op = operation("objects.get")
    assert _message(lambda: op.run(index, {})) == (RequestError, "field `uri` is required")
    assert _message(lambda: op.run(index, {"uri": "majordomus://adr/nope"})) == (
        NotFoundError, ("the index holds nothing under `majordomus://adr/nope`; list "
                        "identifiers with `devcontext list`"))
    assert _message(lambda: op.run(index, {"uri": "x", "kind": "adr"})) == (
        RequestError, "unknown field `kind`; the request accepts uri")
    status, body = error_of(NotFoundError("gone", field="uri"))
    assert status == 404 and body.wire() == {"error": {"code": "not_found", "message": "gone",
                                                       "parameter": "uri"}}


def test_query_parameters_read_as_the_live_api_reads_them(index):
    runner = Runner()
    op = operation("devcontext.compile")
    pairs = [("issue", "I0201"), ("paths", "lib/cache.py,lib/fetch.py"), ("budget_tokens", "9000")]
    assert runner.answer_pairs(op, index, pairs) == compile_context(index, CompileInput(
        issue="I0201", paths=("lib/cache.py", "lib/fetch.py"), budget_tokens=9000))
    with pytest.raises(RequestError, match="parameter `issue` is given more than once"):
        fields_from_pairs([("issue", "a"), ("issue", "b")])
    with pytest.raises(RequestError, match="parameter `paths` has an empty item"):
        fields_from_pairs([("paths", "a,,b")], ["paths"])


def test_the_runner_caches_compile_and_explain_only(index):
    runner = Runner()
    for _ in range(2):
        runner.answer(operation("devcontext.explain"), index, {"uri": "majordomus://adr/adr-0003"})
    assert runner.cache.explained.hits == 1 and runner.cache.explained.misses == 1
    runner.answer(operation("devcontext.policy"), index, {})
    assert len(runner.cache.compiled) == 1


@pytest.mark.parametrize("argv,op_id,arguments", [
    (["compile", "--issue", "I0201", "--json"], "devcontext.compile", {"issue": "I0201"}),
    (["explain", "majordomus://adr/adr-0003", "--issue", "I0201", "--json"],
     "devcontext.explain", {"uri": "majordomus://adr/adr-0003", "issue": "I0201"}),
])
def test_the_cli_answers_what_the_registry_answers(capsys, index, argv, op_id, arguments):
    assert main(argv) == 0
    assert capsys.readouterr().out == canonical_json_text(
        operation(op_id).run(index, arguments), indent=2)


def test_the_cli_query_prints_the_registry_trace(capsys, index):
    assert main(["query", "text", "stale cache", "--json"]) == 0
    answer = operation("query.explain").run(index, {"kind": "text", "value": "stale cache"})
    assert capsys.readouterr().out == canonical_json_text(answer.explain, indent=2)
