"""An object's standing in a context says only what is true of the object there: a budget
exclusion does not repeat the budget's running sums (every cost ahead of it moves them, and
with them the pages of everything excluded after it). Standings that differ only in the
context are said once — kept once in the table, one group in the JSON and on the page —
with nothing dropped."""

from __future__ import annotations

import json

from generator.demo import demo_root
from generator.engine.compile import GitInfo, compile_context
from generator.engine.models import CompileInput, ExclusionReason
from generator.site.contexts import (
    BUDGET_STANDING_DETAIL,
    ContextKey,
    ObjectStanding,
    StandingFact,
    standings_of,
)
from generator.site.pages.object import shown_counts, standing_groups
from generator.site.standing_table import StandingTable
from generator.workspace import Workspace


def test_a_budget_exclusion_standing_holds_no_running_sums():
    index = Workspace.open(demo_root()).index
    issue = sorted(index.by_kind["issue"], key=lambda o: o.identity)[0]
    answer = compile_context(index, CompileInput(issue=issue.identity, budget_tokens=200),
                             git=GitInfo())
    refused = [x for x in answer.excluded if x.reason is ExclusionReason.budget]
    assert refused, "a 200-token budget refuses something in the demo layer"
    assert all("brings it in" in x.detail for x in refused)  # the answer keeps the sums
    # a fact comes as a plain tuple of StandingFact's fields (equal to it)
    rows = {uri: [StandingFact(*fact) for fact, _ in made] for uri, made in standings_of(answer).items()}
    for x in refused:
        (row,) = [fact for fact in rows[x.uri] if fact.standing == "excluded"]
        assert row.word == "budget" and row.detail == BUDGET_STANDING_DETAIL
        assert row.cost_tokens == x.cost_tokens
    # every other exclusion keeps the answer's own words
    for x in answer.excluded:
        if x.reason is not ExclusionReason.budget:
            assert any(fact.detail == x.detail for fact in rows[x.uri])


def _row(context: str, fact: StandingFact, relevance: float | None) -> ObjectStanding:
    kind, identity = context.split(":")
    return ObjectStanding(ContextKey(kind, identity, f"majordomus://{kind}/{identity}"), fact, relevance)


def test_standings_that_differ_only_in_the_context_are_said_once():
    gov = StandingFact("selected", "governance", "required", 120)
    far = StandingFact("excluded", "depth", "4 hops from a seed", 80)
    rows = [_row("issue:I1", gov, 1.0), _row("issue:I1", far, 0.3), _row("issue:I2", gov, 0.9),
            _row("issue:I3", far, 0.3), _row("milestone:m1", gov, 1.0)]
    groups = standing_groups(rows)
    assert [(kind, fact, [(k.identity, r) for k, r in members]) for kind, fact, members in groups] == [
        ("issue", gov, [("I1", 1.0), ("I2", 0.9)]),
        ("issue", far, [("I1", 0.3), ("I3", 0.3)]),
        ("milestone", gov, [("m1", 1.0)]),
    ]
    # nothing dropped: every (context, standing) is in exactly one group
    assert sorted((k.uri, f, r) for _, f, m in groups for k, r in m) == sorted(
        (s.context.uri, s.fact, s.relevance) for s in rows)


def test_a_page_lists_every_distinct_standing_first_then_fills_its_cap():
    assert shown_counts([5, 1, 3], most=200) == [5, 1, 3]
    assert shown_counts([300, 2], most=200) == [199, 1]
    assert shown_counts([3, 300, 4], most=10) == [3, 6, 1]
    assert shown_counts([1] * 250, most=200) == [1] * 200  # groups past the cap: the JSON has them
    assert shown_counts([], most=200) == []


def test_the_table_keeps_equal_rows_once():
    gov = StandingFact("selected", "governance", "required", 120)
    table = StandingTable()
    keys = [ContextKey("issue", f"I{n}", f"majordomus://issue/I{n}") for n in range(3)]
    for key in keys:  # each context's rows arrive as new, equal plain tuples (as from a worker)
        table.add(key, {"majordomus://policy/p": ((tuple(gov), 1.0),)}, ())
    table.finish()
    kept = [table.by_uri["majordomus://policy/p"][k] for k in keys]
    assert kept[0] is kept[1] is kept[2]
    assert type(kept[0][0][0]) is StandingFact
    assert [s.context for s in table.view()["majordomus://policy/p"]] == keys
    assert table.counts == {"majordomus://policy/p": 3}


def test_an_object_page_lists_its_groups_and_says_how_many_contexts_it_leaves_to_the_json():
    from generator.engine.compile import GitInfo as Git
    from generator.site.build import SiteInputs, page_kit
    from generator.site.pages.object import MAX_STANDINGS_SHOWN, object_files

    index = Workspace.open(demo_root()).index
    kit = page_kit(SiteInputs(index=index, git=Git(), label="t"))
    obj = index.objects["majordomus://issue/I0104"]
    gov = StandingFact("selected", "governance", "required", 120)
    far = StandingFact("excluded", "depth", "4 hops from a seed", 80)
    n = MAX_STANDINGS_SHOWN + 50
    rows = ([_row(f"issue:I{i:04d}", gov, 0.5) for i in range(n)]
            + [_row("milestone:m1", far, 0.25)])
    (json_file, page_file), _ = object_files(kit, obj, rows, None, [])
    record = json.loads(json_file[1])
    assert [(g["context_kind"], g["word"], len(g["contexts"])) for g in record["standings"]] == [
        ("issue", "governance", n), ("milestone", "depth", 1)]
    assert record["standings"][1]["contexts"] == [["m1", 0.25]]
    html = page_file[1].decode("utf-8")
    assert html.count('<a href="../../contexts/') == MAX_STANDINGS_SHOWN  # both groups shown
    assert '<a href="../../contexts/milestone/m1.html#x-issue~2FI0104">m1</a> (0.25)' in html
    assert "… and 51 more</td>" in html  # the first group, cut short
    assert "… and 51 more contexts; <a href=" in html  # and the page as a whole


def _keys(*names: str) -> list[ContextKey]:
    return [ContextKey(kind, ident, f"majordomus://{kind}/{ident}")
            for kind, ident in (name.split(":") for name in names)]


def test_the_table_keeps_each_objects_contexts_in_context_order():
    """Pages read an object's contexts as the table keeps them (no sort): in context order
    however they were added, and after an update that adds a context before the last."""
    gov = StandingFact("selected", "governance", "required", 120)
    far = StandingFact("excluded", "depth", "4 hops from a seed", 80)
    uri = "majordomus://policy/p"
    i1, i2, i3, m1 = _keys("issue:I1", "issue:I2", "issue:I3", "milestone:m1")
    table = StandingTable()
    for key in (i3, m1, i1):  # not in context order
        table.add(key, {uri: ((tuple(gov), 1.0),)}, ())
    table.finish()
    assert list(table.by_uri[uri]) == [i1, i3, m1]
    after, moved = table.updated([(i2, (), (), {uri: ((tuple(far), 0.5),)}, ())])
    assert moved == {uri} and list(after.by_uri[uri]) == [i1, i2, i3, m1]
    assert [s.context for s in after.view()[uri]] == [i1, i2, i3, m1]
    # the page's groups read off the table equal those of the same standings one by one
    rows = after.view()[uri]
    assert standing_groups(rows) == standing_groups(list(rows))
    assert [(f, [k for k, _ in m]) for _, f, m in standing_groups(rows)] == [
        (gov, [i1, i3]), (far, [i2]), (gov, [m1])]


def test_standings_cross_from_each_worker_as_numbers_and_read_as_sent():
    """Each process numbers the uris and rows it sends and sends each value once; the
    receiver reads every sender's answers (in its own order, interleaved with others') back
    to the same standings, each rows tuple kept once by the table."""
    import pickle

    from generator.site.standing_table import StandingsReceiver, StandingsSender

    gov = tuple(StandingFact("selected", "governance", "required", 120))
    far = tuple(StandingFact("excluded", "depth", "4 hops from a seed", 80))
    p, q = "majordomus://policy/p", "majordomus://policy/q"
    answers = [({p: ((gov, 1.0),), q: ((far, 0.5),)}, [q]),
               ({q: ((far, 0.5),)}, [q]),
               ({p: ((gov, 1.0),), q: ((gov, 1.0), (far, 0.5))}, [q, p])]
    one, two = StandingsSender(), StandingsSender()
    sent = [one.send(*answers[0]), two.send(*answers[1]), one.send(*answers[2])]
    object.__setattr__(sent[1], "sender", sent[0].sender + 1)  # as from another worker
    assert sent[2].new_uris == () and sent[2].new_rows == (((gov, 1.0), (far, 0.5)),)
    table = StandingTable()
    received = StandingsReceiver(table)
    for (standings, excluded), wire in zip(answers, sent):
        rows, named = received.receive(pickle.loads(pickle.dumps(wire)))
        assert dict(rows) == standings and named == excluded
    again, _ = received.receive(pickle.loads(pickle.dumps(one.send(*answers[0]))))
    assert again[0][1] is rows[0][1]  # p's rows, kept once


def _standings_read_plainly(answer) -> dict[str, tuple]:
    """What standings_of says, read the obvious way (attributes, ``.value``, setdefault):
    the reference its quick reads (a row's __dict__, str() of an enum) are held to."""
    from generator.phrases import say
    from generator.site.contexts import BUDGET_STANDING

    out: dict[str, list] = {}
    for e in answer.selected:
        out.setdefault(e.uri, []).append(((
            "selected", e.tier.value, "required" if e.required else "", e.cost_tokens, None),
            e.relevance))
    for x in answer.excluded:
        budget = x.reason is ExclusionReason.budget
        out.setdefault(x.uri, []).append(((
            "excluded", x.reason.value, BUDGET_STANDING_DETAIL if budget else x.detail,
            x.cost_tokens, BUDGET_STANDING if budget else x._phrase), x.relevance))
    for d in answer.deduplicated:
        folded = say("folded into {kept}", kept=d.kept)
        for dropped in d.dropped:
            out.setdefault(dropped, []).append(
                (("deduplicated", d.key, str(folded), None, folded), None))
    return {uri: tuple(rows) for uri, rows in out.items()}


def test_standings_and_excluded_uris_are_every_demo_answers_own():
    from generator.site.contexts import compile_one, context_keys, excluded_uris

    index = Workspace.open(demo_root()).index
    for key in context_keys(index):
        answer = compile_one(index, key, GitInfo())
        made = standings_of(answer)
        assert made == _standings_read_plainly(answer), key
        assert list(made) == list(_standings_read_plainly(answer))  # and in the same order
        assert excluded_uris(answer) == [
            x.uri for x in answer.excluded if x.reason is not ExclusionReason.unresolved]


def test_a_sender_numbers_each_value_once_in_the_order_first_sent():
    """uris and rows are numbered on their own, from 0, in the order first sent (an
    answer's objects, then its excluded uris); each value crosses once, a known one as its
    number alone."""
    from generator.site.standing_table import StandingsSender

    gov = tuple(StandingFact("selected", "governance", "required", 120))
    far = tuple(StandingFact("excluded", "depth", "4 hops from a seed", 80))
    p, q, r = (f"majordomus://policy/{x}" for x in "pqr")
    sender = StandingsSender()
    first = sender.send({p: ((gov, 1.0),), q: ((far, 0.5),)}, [r, q])
    assert (first.new_uris, first.uris, first.excluded) == ((p, q, r), [0, 1], [2, 1])
    assert (first.new_rows, first.rows) == ((((gov, 1.0),), ((far, 0.5),)), [0, 1])
    second = sender.send({r: ((far, 0.5),), p: ((gov, 1.0), (far, 0.5))}, [p])
    assert (second.new_uris, second.uris, second.excluded) == ((), [2, 0], [0])
    assert (second.new_rows, second.rows) == ((((gov, 1.0), (far, 0.5)),), [1, 2])
