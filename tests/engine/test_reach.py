"""The engine declares what each answer depended on (its reach): an edit that touches
nothing in an answer's reach never changes that answer (its fingerprint aside), for the
site's requests and for the live API's (paths, an intent, every blocking rule, a branch)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.rebuild.diff import changed_objects
from generator.engine.compile import GitInfo, compile_context, compile_with_reach
from generator.engine.models import CompileInput
from generator.engine.reach import reaches, touch_of
from generator.errors import DevContextError
from generator.site.contexts import context_keys
from generator.workspace import Workspace
from serve.edits import EDITS, Sandbox

#: Edits of the layer (a template edit changes no answer).
LAYER_EDITS = sorted(name for name in EDITS if name != "template")


def _requests(index) -> list[CompileInput]:
    requests = [CompileInput(**{k.kind: k.identity}) for k in context_keys(index)]
    issues = sorted(o.identity for o in index.by_kind.get("issue", []))
    requests += [CompileInput(issue=issues[0], all_blocking_rules=True),
                 CompileInput(paths=["lib"]), CompileInput(paths=["lib/cache.py", "tests"]),
                 CompileInput(issue=issues[-1], intent="cache expiry offline"),
                 CompileInput(uris=[sorted(index.objects)[0]], max_depth=1)]
    return requests


def _compile(index, request, git):
    try:
        return compile_context(index, request, git=git)
    except DevContextError as exc:  # a seed the edit removed: no answer to compare
        return type(exc).__name__


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(st.tuples(st.sampled_from(LAYER_EDITS), st.integers(0, 10_000)), min_size=1, max_size=3),
       st.sampled_from([None, "main", "topic"]))
def test_an_edit_outside_an_answers_reach_never_changes_it(edits, branch):
    base = Path(tempfile.mkdtemp(prefix="devcontext-reach-"))
    try:
        box = Sandbox.make(base)
        git = GitInfo(branch=branch)
        before = Workspace.open(box.repo).index
        compiled = [(request, *compile_with_reach(before, request, git=git))
                    for request in _requests(before)]
        for name, n in edits:
            EDITS[name](box, n)
        after = Workspace.open(box.repo).index
        changed, _, _ = changed_objects(before, after)
        touches = [touch_of(obj) for uri in changed
                   for obj in (before.objects.get(uri), after.objects.get(uri)) if obj is not None]
        for request, answer, reach in compiled:
            if any(reaches(reach, t) for t in touches):
                continue
            again = _compile(after, request, git)
            assert not isinstance(again, str), f"{request.wire()}: {again} after {edits}"
            assert again.model_copy(update={"fingerprint": answer.fingerprint}) == answer, (
                f"{request.wire()} changed after {edits}, though no edited object is in its reach")
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_reach_names_what_the_answer_names_and_its_scope():
    index = Workspace.open(None).index
    key = context_keys(index)[0]
    answer, reach = compile_with_reach(index, CompileInput(**{key.kind: key.identity}))
    assert key.uri in reach.objects
    assert {e.uri for e in answer.selected} <= set(reach.objects)
    assert {x.uri for x in answer.excluded} <= set(reach.objects)
    assert {"policy", "scope"} <= reach.kinds
    assert not reach.everything and reach.branch is None
    # the compiled answer is the same with or without its reach
    assert compile_context(index, CompileInput(**{key.kind: key.identity})) == answer
    _, with_intent = compile_with_reach(index, CompileInput(issue=key.identity, intent="cache"),
                                        git=GitInfo(branch="main"))
    assert with_intent.everything and with_intent.branch == "main"
