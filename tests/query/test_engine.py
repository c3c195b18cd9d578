"""The query engine: trace format, determinism, ranking, the depth clamp, unresolved edges,
the cap, the search index and the error messages (their wording is part of the interface)."""

from __future__ import annotations

import json

import pytest

from generator.errors import NotFoundError, RequestError
from generator.jsonio import canonical_json, canonical_json_text
from generator.query import (
    MAX_DEPTH,
    MAX_LIMIT,
    Trace,
    cross_ref_query,
    explain_query,
    run_query,
    text_query,
)
from generator.query.search_index import (
    SEARCH_INDEX_VERSION,
    build_search_index,
    embedded_script,
)
from generator.query.terms import fold, is_blank, query_terms, split_terms
from generator.query.text import SUMMARY_MAX_CHARS, summary_text

TEXT_ORDER_BY = ["score desc: id match ×4 + title ×3 + summary ×1 per matched term",
                 "kind asc", "uri asc"]


# -- terms -------------------------------------------------------------------------------


@pytest.mark.parametrize("text, folded", [
    ("Eval GATE", "eval gate"),
    ("Café", "cafe"),
    ("cafe\u0301", "cafe"),
    ("Straße ẞ", "strasse ss"),
    ("ΟΔΟΣ", "οδοσ"),
    ("ﬁle ＦＵＬＬ ①", "file full 1"),
    ("İstanbul", "istanbul"),
    ("ℌello", "hello"),
    ("ハード", "ハート"),
    ("缓存", "缓存"),
])
def test_fold(text, folded):
    assert fold(text) == folded


def test_terms_are_runs_of_letters_marks_and_digits():
    assert split_terms(fold("eval-gate, v2.1 (x_y) 🎉party 한국어")) == \
        ["eval", "gate", "v2", "1", "x", "y", "party", fold("한국어")]
    # Folded text stays decomposed: a Hangul syllable is matched as its jamo.
    assert len(fold("한")) == 3 and fold("하") in fold("한")


def test_query_terms_drop_short_stop_and_extra_terms_and_merge_repeats():
    terms, dropped = query_terms("The eval EVAL gate a 猫 of gate")
    assert terms == ("eval", "gate")
    assert dropped == (("the", "stop word"), ("a", "shorter than 2 characters"),
                       ("猫", "shorter than 2 characters"), ("of", "stop word"))
    terms, dropped = query_terms(" ".join(f"t{i:02d}" for i in range(20)))
    assert len(terms) == 16 and dropped[0] == ("t16", "beyond 16 terms") and len(dropped) == 4


def test_blank_means_separators_and_controls_only():
    assert is_blank("") and is_blank(" \t\n\u3000\u2028")
    assert not is_blank("🎉") and not is_blank("\u200b")


# -- text ---------------------------------------------------------------------------------


def test_text_trace_is_pinned(demo_index):
    trace = text_query(demo_index, "Stale cache, stale!", 3)
    assert json.loads(canonical_json(trace)) == {
        "query": "text terms=[stale cache] limit=3",
        "candidates_scanned": 80,
        "candidates_matched": 21,
        "order_by": TEXT_ORDER_BY,
        "hits": [
            {"anchor": "majordomus://rule/project.cache-entries-expire@1", "kind": "rule",
             "score": 8, "title": "Cache entries expire after ten minutes",
             "why": "id: cache ×4; title: cache ×3; summary: cache ×1"},
            {"anchor": "majordomus://rule/project.stale-data-is-labelled@2", "kind": "rule",
             "score": 8, "title": "Stale data is labelled with its age",
             "why": "id: stale ×4; title: stale ×3; summary: stale ×1"},
            {"anchor": "majordomus://rule/project.the-cache-is-disposable@1", "kind": "rule",
             "score": 8, "title": "The cache is disposable",
             "why": "id: cache ×4; title: cache ×3; summary: cache ×1"},
        ],
        "unresolved_edges": [],
    }


def test_two_runs_give_byte_identical_json(demo_index):
    for params in ({"kind": "text", "value": "stale cache reading"},
                   {"kind": "cross_ref", "start": "offline-reads", "depth": "3"}):
        first = canonical_json(explain_query(demo_index, params))
        assert first == canonical_json(explain_query(demo_index, dict(params)))


def test_scores_follow_the_stated_weights(unicode_index):
    trace = text_query(unicode_index, "eval gate", 50)
    by_anchor = {h.anchor: h for h in trace.hits}
    # Title and summary both hold both terms: 2 × 3 + 2 × 1.
    assert by_anchor["majordomus://issue/I0014"].score == 8
    assert by_anchor["majordomus://issue/I0014"].why == \
        "title: eval ×3, gate ×3; summary: eval ×1, gate ×1"
    # Full-width ｅｖａｌ folds to eval: summary only.
    assert by_anchor["majordomus://issue/I0009"].why == "summary: eval ×1"
    # An id match is worth 4.
    trace = text_query(unicode_index, "I0014 mañana")
    assert [(h.anchor, h.score, h.why) for h in trace.hits] == [
        ("majordomus://milestone/検索-mañana", 7, "id: manana ×4; title: manana ×3"),
        ("majordomus://issue/I0014", 4, "id: i0014 ×4"),
    ]


def test_ties_break_by_kind_then_uri(unicode_index):
    hits = text_query(unicode_index, "eval gate", 50).hits
    eights = [h.anchor for h in hits if h.score == 8]
    assert eights == sorted(eights) == ["majordomus://issue/I0001", "majordomus://issue/I0014",
                                        "majordomus://issue/I0015"]
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_matching_is_substring_within_words(unicode_index):
    # "eval" matches ÉVALUATION (substring of a word) ...
    assert "majordomus://issue/I0001" in {h.anchor for h in text_query(unicode_index, "eval").hits}
    # ... and a term never spans two words: "evalgate" matches nothing.
    assert text_query(unicode_index, "evalgate").candidates_matched == 0


def test_unicode_queries_match(unicode_index):
    for value, anchor in [("CAFÉ", "I0001"), ("strasse", "I0003"), ("οδός", "I0004"),
                          ("ISTANBUL", "I0005"), ("缓存", "I0002"), ("검색", "I0007"),
                          ("खोज", "I0008"), ("ハート", "I0010"), ("ПОИСК", "I0011"),
                          ("بحث", "I0012"), ("FILE", "I0009"), ("angstrom", "I0016")]:
        anchors = [h.anchor for h in text_query(unicode_index, value).hits]
        assert f"majordomus://issue/{anchor}" in anchors, value


def test_cap_and_candidates_matched(demo_index):
    full = text_query(demo_index, "reading", MAX_LIMIT)
    capped = text_query(demo_index, "reading", 2)
    assert full.candidates_matched == capped.candidates_matched > 2
    assert len(capped.hits) == 2 and capped.hits == full.hits[:2]
    default = text_query(demo_index, "reading")
    assert len(default.hits) == 20 and default.query.endswith("limit=20")
    clamped = text_query(demo_index, "reading", 500)
    assert clamped.query == f"text terms=[reading] limit={MAX_LIMIT} (clamped from 500)"


def test_no_terms_scans_nothing(demo_index):
    trace = text_query(demo_index, "🎉 the !!")
    assert trace.query == "text terms=[] limit=20 dropped=[the (stop word)]"
    assert (trace.candidates_scanned, trace.candidates_matched, trace.hits) == (0, 0, ())


def test_summaries_are_ranked_as_the_index_carries_them():
    long = "word " * 100 + "needle"
    assert summary_text(long) == ("word " * (SUMMARY_MAX_CHARS // 5)).rstrip()
    assert len(summary_text("x" * 500)) == SUMMARY_MAX_CHARS
    assert summary_text("  a \n\n b\t") == "a b" and summary_text("  ") is None


# -- cross_ref ----------------------------------------------------------------------------


def test_cross_ref_lists_a_dangling_depends_on(demo_index):
    trace = cross_ref_query(demo_index, "I0303", 1)
    assert trace.query == "cross_ref start=I0303 (majordomus://issue/I0303) depth=1 limit=20"
    assert [(h.anchor, h.score, h.why) for h in trace.hits] == [
        ("majordomus://issue/I0302", 1, "depends_on from issue/I0303, hop 1"),
        ("majordomus://milestone/export-history", 1, "belongs_to from issue/I0303, hop 1"),
    ]
    assert (trace.candidates_scanned, trace.candidates_matched) == (3, 2)
    assert [e.wire() for e in trace.unresolved_edges] == [{
        "from": "majordomus://issue/I0303", "field": "depends_on", "reference": "I0299",
        "why": "unresolved: no issue `I0299` in the layer; add it, or correct or remove the "
               "reference in `depends_on`"}]


def test_cross_ref_lists_a_missing_rule_of_an_adr(demo_index):
    trace = cross_ref_query(demo_index, "adr-0004", 1)
    assert trace.unresolved_edges[0].wire() == {
        "from": "majordomus://adr/adr-0004", "field": "related",
        "reference": "rule:project.offline-mode-is-explicit",
        "why": "unresolved: no rule `project.offline-mode-is-explicit` in the layer; add it, "
               "or correct or remove the reference in `related`"}
    assert "governed_by into adr/adr-0004 (reverse), hop 1" in [h.why for h in trace.hits]


def test_cross_ref_lists_a_tracked_path_with_nothing_behind_it(demo_index):
    trace = cross_ref_query(demo_index, "ai.repo.rules", 1)
    assert [e.wire() for e in trace.unresolved_edges] == [{
        "from": "majordomus://context/ai.repo.rules", "field": "tracks",
        "reference": "tests/test_rules_lint.py",
        "why": "unresolved: `tests/test_rules_lint.py` would be a test, but the repository "
               "holds no such file; add it, or correct or remove the reference in `tracks`"}]


def test_cross_ref_lists_external_references(demo_index):
    trace = cross_ref_query(demo_index, "majordomus://use-case/read-a-station-offline", 1)
    assert [(e.reference, e.why) for e in trace.unresolved_edges] == [
        ("command:show", ("external: `command:show` names nothing the layer holds objects of; "
                          "recorded, not followed")),
        ("doctrine:trust-but-label", ("external: `doctrine:trust-but-label` names nothing the "
                                      "layer holds objects of; recorded, not followed")),
    ]


def test_unresolved_edges_are_never_dropped_by_the_cap(demo_index):
    capped = cross_ref_query(demo_index, "adr-0004", 9, 1)
    full = cross_ref_query(demo_index, "adr-0004", 9, MAX_LIMIT)
    assert len(capped.hits) == 1 and capped.candidates_matched == full.candidates_matched
    assert capped.unresolved_edges == full.unresolved_edges
    references = {e.reference for e in full.unresolved_edges}
    assert {"I0299", "rule:project.offline-mode-is-explicit"} <= references


def test_depth_is_clamped_and_the_clamp_recorded(demo_index):
    trace = cross_ref_query(demo_index, "offline-reads", 9)
    assert trace.query == ("cross_ref start=offline-reads (majordomus://milestone/offline-reads) "
                           f"depth={MAX_DEPTH} (clamped from 9) limit=20")
    assert trace == cross_ref_query(demo_index, "offline-reads", MAX_DEPTH).model_copy(
        update={"query": trace.query})


def test_walk_is_breadth_first_and_both_directions(demo_index):
    trace = cross_ref_query(demo_index, "offline-reads", 2, MAX_LIMIT)
    hops = [h.score for h in trace.hits]
    assert hops == sorted(hops) and set(hops) == {1, 2}
    whys = {h.anchor: h.why for h in trace.hits}
    assert whys["majordomus://issue/I0201"] == "belongs_to into milestone/offline-reads (reverse), hop 1"
    assert whys["majordomus://milestone/first-release"] == "depends_on from milestone/offline-reads, hop 1"
    assert trace.candidates_scanned == trace.candidates_matched + 1
    assert len({h.anchor for h in trace.hits}) == len(trace.hits)


def test_depth_zero_reaches_nothing_and_considers_no_edge(demo_index):
    trace = cross_ref_query(demo_index, "I0303", 0)
    assert (trace.candidates_scanned, trace.hits, trace.unresolved_edges) == (1, (), ())


def test_start_resolves_ids_slugs_and_uris(demo_index):
    for start in ("I0301", "keep-a-history", "majordomus://issue/I0301", " I0301 "):
        assert "(majordomus://issue/I0301)" in cross_ref_query(demo_index, start, 1).query
    assert "(majordomus://milestone/offline-reads)" in \
        cross_ref_query(demo_index, "offline-reads", 1).query
    assert "(majordomus://skill/add-a-feed-format)" in \
        cross_ref_query(demo_index, "add-a-feed-format", 1).query


# -- the HTTP function and its errors -----------------------------------------------------


def test_explain_query_envelope(demo_index):
    answer = explain_query(demo_index, {"kind": "text", "value": "cache", "limit": "2"})
    assert list(answer) == ["kind", "explain"] and answer["kind"] == "explain"
    assert answer["explain"] == text_query(demo_index, "cache", 2).wire()
    assert list(answer["explain"]) == ["query", "candidates_scanned", "candidates_matched",
                                       "order_by", "hits", "unresolved_edges"]
    assert isinstance(Trace.model_validate(answer["explain"]), Trace)


@pytest.mark.parametrize("params, field, message", [
    ({}, "kind", "kind is required: `text` or `cross_ref`"),
    ({"kind": "fuzzy", "value": "x"}, "kind",
     "kind `fuzzy` is not a query kind; use `text` or `cross_ref`"),
    ({"kind": "text"}, "value", "value is empty or blank; give one or more words to search for"),
    ({"kind": "text", "value": ""}, "value",
     "value is empty or blank; give one or more words to search for"),
    ({"kind": "text", "value": " \t"}, "value",
     "value is empty or blank; give one or more words to search for"),
    ({"kind": "text", "value": "e" * 1001}, "value",
     "value is 1001 characters long; a text query takes at most 1000"),
    ({"kind": "text", "value": "x", "limit": "ten"}, "limit",
     "limit `ten` is not an integer; give a whole number from 1 to 100"),
    ({"kind": "text", "value": "x", "limit": "0"}, "limit",
     "limit is 0; it must be 1 or more (at most 100)"),
    ({"kind": "text", "value": "x", "limit": "12345678901"}, "limit",
     "limit `12345678901` is out of range; give a whole number from 1 to 100"),
    ({"kind": "text", "value": "x", "depth": "1"}, "depth",
     "unknown parameter `depth` for kind=text; it accepts value and limit"),
    ({"kind": "cross_ref"}, "start",
     "start is empty; name an issue or milestone id or slug, or a URI"),
    ({"kind": "cross_ref", "start": "I0301", "depth": "two"}, "depth",
     "depth `two` is not an integer; give a whole number from 0 to 5"),
    ({"kind": "cross_ref", "start": "I0301", "depth": "1.5"}, "depth",
     "depth `1.5` is not an integer; give a whole number from 0 to 5"),
    ({"kind": "cross_ref", "start": "I0301", "depth": "-1"}, "depth",
     "depth is -1; it must be 0 or more (walks deeper than 5 are clamped to 5)"),
    ({"kind": "cross_ref", "start": "I0301", "depht": "1"}, "depht",
     "unknown parameter `depht` for kind=cross_ref; it accepts start and depth and limit"),
])
def test_request_errors(demo_index, params, field, message):
    with pytest.raises(RequestError) as caught:
        explain_query(demo_index, params)
    assert (caught.value.field, caught.value.message) == (field, message)


def test_unknown_start_is_not_found(demo_index):
    with pytest.raises(NotFoundError) as caught:
        run_query(demo_index, {"kind": "cross_ref", "start": "I0299"})
    assert caught.value.field == "start"
    assert caught.value.message == (
        "the layer holds no object named `I0299` (tried it as a URI, as `kind/identity`, then as an id or slug of "
        "every kind, issues and milestones first); list identifiers with `devcontext list`")


# -- the search index ---------------------------------------------------------------------


def test_search_index_shape(demo_index):
    data = build_search_index(demo_index)
    assert data["version"] == SEARCH_INDEX_VERSION and data["format"] == "devcontext-search-index"
    assert data["columns"] == ["kind", "identity", "title", "summary", "url", "uri"]
    assert len(data["objects"]) == len(demo_index.objects)
    rows = [(data["kinds"][r[0]], r[1]) for r in data["objects"]]
    uris = [f"majordomus://{k}/{i}" for k, i in rows]
    assert sorted(uris, key=lambda u: (u.split("/")[2], u)) == uris
    assert set(uris) == set(demo_index.objects)
    assert data["rules"]["order_by"] == TEXT_ORDER_BY
    assert data["rules"]["weights"] == [["id", 4], ["title", 3], ["summary", 1]]
    # Trailing nulls are left off; summaries are cut.
    assert all(r[-1] is not None for r in data["objects"])
    assert all(len(r[3]) <= SUMMARY_MAX_CHARS for r in data["objects"] if len(r) > 3 and r[3])
    assert canonical_json(data) == canonical_json(build_search_index(demo_index))


def test_search_index_carries_urls_as_given(demo_index):
    def url_for(obj):
        return "odd.html" if obj.identity == "I0101" else f"../o/{obj.kind}/{obj.identity}.html"

    data = build_search_index(demo_index, url_for=url_for)
    # Every kind follows a pattern, so only the odd one out carries its URL.
    assert data["url_patterns"]["issue"] == ["../o/issue/", ".html"]
    carried = [r for r in data["objects"] if len(r) > 4 and r[4] is not None]
    assert [(r[1], r[4]) for r in carried] == [("I0101", "odd.html")]
    assert build_search_index(demo_index)["url_patterns"] == {}
    # A kind with an object lacking a page gets no pattern; its rows carry their URLs.
    data = build_search_index(demo_index, url_for=lambda o: None if o.identity == "I0101"
                              else f"x/{o.identity}")
    assert "issue" not in data["url_patterns"] and "adr" in data["url_patterns"]
    issue = data["kinds"].index("issue")
    assert {r[1]: (r[4] if len(r) > 4 else None) for r in data["objects"] if r[0] == issue}[
        "I0102"] == "x/I0102"


def test_embedded_script_cannot_be_closed_by_a_title(unicode_index):
    html = embedded_script(build_search_index(unicode_index))
    body = html[len('<script type="application/json" id="search-index">'):-len("</script>")]
    assert "<" not in body and "\\u003c/script>" in body
    assert json.loads(body) == json.loads(canonical_json_text(build_search_index(unicode_index)))
