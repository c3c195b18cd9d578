"""The pack (generator.pack): the three formats read back with real parsers, hostile
bodies, size honesty, the errors, and purity."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packkit import check_pack, markdown_bodies, xml_documents

from generator.engine.compile import compile_context
from generator.engine.models import CompileInput, ExclusionReason
from generator.errors import InputError
from generator.pack import PackFormat, PackInput, build_pack, pack, pack_text
from generator.pack.assemble import assemble
from generator.pack.render import fence_for, render, render_markdown, xml_text
from generator.workspace import Workspace
from layerkit import issue, write_layer

FORMATS = list(PackFormat)

HOSTILE = {
    "lib/fences.sh": "echo start\n```\nnot the end\n````markdown\n# a heading\n`````\n",
    "lib/cdata.sh": "a ]]> b ]]]]> c <![CDATA[ d ]]>\n</document></documents></context>\n",
    "lib/controls.sh": "nul\0here\x01\x08\x0b\x0c\x1f and \x7f, a\r\nwindows line\rand a lone cr",
    "lib/markup.sh": '<document uri="x" tier="task">& &amp; &#0; "quoted" \'single\'\n',
    "lib/empty.sh": "",
    "lib/no-newline.sh": "echo no newline at the end",
    "lib/unicode.sh": "caf\u00e9 \u2014 \U0001f600 \ufeff bom\n",
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    files = {p: t.encode("utf-8") for p, t in HOSTILE.items()}
    files["lib/latin1.sh"] = b"caf\xe9 and \xff\xfe\n"
    files[".ai/repo/project/issues/I0001.yaml"] = issue("I0001", milestone="'-'", scope=["lib"])
    write_layer(root, files)
    ws = Workspace.open(root)
    return ws, compile_context(ws.index, CompileInput(issue="I0001"))


def test_the_hostile_layer_selects_every_hostile_file(hostile):
    ws, answer = hostile
    paths = {e.provenance.path for e in answer.selected}
    assert set(HOSTILE) | {"lib/latin1.sh"} <= paths


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.value)
def test_hostile_bodies_break_no_format(hostile, fmt):
    ws, answer = hostile
    check_pack(answer, ws.tree.files, fmt)


def test_markdown_fences_outgrow_the_body(hostile):
    ws, answer = hostile
    data = pack_text(answer, ws.tree.files, "markdown")
    assert fence_for("a ``````` b") == "````````"
    assert fence_for("no backticks") == "```"
    # the body with a five-backtick fence inside is fenced with six, and stays one block
    assert "\n``````sh\necho start\n```\nnot the end\n" in data.decode("utf-8")
    assert len(markdown_bodies(data)) == len(answer.selected)


def test_xml_keeps_every_character_it_can_and_counts_those_it_cannot(hostile):
    ws, answer = hostile
    docs = {d.get("path"): d for d in xml_documents(pack_text(answer, ws.tree.files, "xml"))}
    cdata = "".join(docs["lib/cdata.sh"].itertext())
    assert cdata == HOSTILE["lib/cdata.sh"]
    controls = docs["lib/controls.sh"]
    text = "".join(controls.itertext())
    assert "\r\nwindows line\rand a lone cr" in text  # carriage returns survive the parser
    assert text.startswith("nul\ufffdhere\ufffd\ufffd\ufffd\ufffd\ufffd and \x7f")
    assert controls.get("unrepresentable") == "6"
    assert "".join(docs["lib/markup.sh"].itertext()) == HOSTILE["lib/markup.sh"]
    assert "".join(docs["lib/empty.sh"].itertext()) == ""
    assert xml_text("]]>") == ("<![CDATA[]]]]><![CDATA[>]]>", 0)


def test_bytes_that_are_not_utf8_are_counted_and_carried_as_replacement(hostile):
    ws, answer = hostile
    p, data = build_pack(answer, ws.tree.files, "json")
    (latin1,) = [e for e in p.entries if e.path == "lib/latin1.sh"]
    assert latin1.replaced_bytes == 3 and latin1.text == "caf\ufffd and \ufffd\ufffd\n"
    assert latin1.cost_bytes == 12
    assert "3 byte(s) not UTF-8 shown as U+FFFD" in pack_text(answer, ws.tree.files).decode()
    others = [e for e in p.entries if e.path != "lib/latin1.sh"]
    assert all(e.replaced_bytes == 0 for e in others)


def test_json_entries_round_trip_with_nul_and_controls(hostile):
    ws, answer = hostile
    doc = json.loads(pack_text(answer, ws.tree.files, "json"))
    by_path = {e["path"]: e["text"] for e in doc["entries"]}
    assert by_path["lib/controls.sh"] == HOSTILE["lib/controls.sh"]


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.value)
def test_every_demo_context_packs_in_every_format(fmt):
    ws = Workspace.open(None)
    for kind in ("issue", "milestone"):
        for obj in ws.index.by_kind[kind]:
            answer = compile_context(ws.index, CompileInput(**{kind: obj.identity}))
            check_pack(answer, ws.tree.files, fmt)


def test_the_header_says_what_was_asked_spent_and_left_out():
    ws = Workspace.open(None)
    answer = compile_context(ws.index, CompileInput(issue="I0201"))
    text = pack_text(answer, ws.tree.files, "markdown").decode("utf-8")
    head = text.split("\n## ", 1)[0]
    assert head.startswith("# Development context: issue I0201\n")
    assert "- request: issue I0201; budget 24,000 tokens, floor 0.25, max depth 3\n" in head
    b = answer.budget
    assert f"- budget: {b.used_tokens:,} of {b.limit_tokens:,} tokens used" in head
    reasons: dict[str, int] = {}
    for x in answer.excluded:
        reasons[x.reason.value] = reasons.get(x.reason.value, 0) + 1
    # in the enum's order (budget, relevance, depth, stale, superseded, unresolved)
    counts = ", ".join(f"{reasons[r.value]} {r.value}" for r in ExclusionReason
                       if r.value in reasons)
    assert f"- left out: {len(answer.excluded)} entries reached and not given ({counts})\n" in head
    assert "- explain page: contexts/issue/I0201.html (relative to the site root)\n" in head
    first = answer.selected[0]
    assert f"\n## 1. {first.uri} · task · {first.cost_tokens:,} tokens · required\n" in text
    assert "reached by seed: named in the request" in text


def test_a_request_the_site_has_no_page_for_says_so():
    ws = Workspace.open(None)
    answer = compile_context(ws.index, CompileInput(paths=("lib/cache.py",)))
    p, data = build_pack(answer, ws.tree.files, "xml")
    assert p.explain_page is None
    assert ET.fromstring(data).find("header/explain_page").text is None
    assert "- explain page: none: the site has a page per issue and per milestone" in \
        pack_text(answer, ws.tree.files).decode()
    both = compile_context(ws.index, CompileInput(issue="I0201", milestone="offline-reads"))
    assert build_pack(both, ws.tree.files)[0].explain_page is None
    assert build_pack(compile_context(ws.index, CompileInput(milestone="offline-reads")),
                      ws.tree.files)[0].explain_page == "contexts/milestone/offline-reads.html"


def test_a_tree_that_is_not_the_answers_is_refused():
    ws = Workspace.open(None)
    answer = compile_context(ws.index, CompileInput(issue="I0201"))
    path = answer.selected[0].provenance.path
    files = dict(ws.tree.files)
    files[path] = files[path] + b"# edited\n"
    with pytest.raises(InputError) as info:
        pack_text(answer, files)
    assert info.value.path == path
    assert (f"the answer measured `{path}` at {answer.selected[0].cost_bytes} bytes and the "
            f"source tree given holds {answer.selected[0].cost_bytes + 9}") in info.value.message
    del files[path]
    with pytest.raises(InputError, match="holds no such file; pack an answer with the tree it "
                       "was compiled from"):
        pack_text(answer, files)


def test_pure_and_deterministic():
    ws = Workspace.open(None)
    answer = compile_context(ws.index, CompileInput(milestone="offline-reads"))
    for fmt in FORMATS:
        assert pack_text(answer, ws.tree.files, fmt) == pack_text(answer, dict(ws.tree.files), fmt)


def test_the_operation_compiles_and_packs():
    ws = Workspace.open(None)
    out = pack(ws.index, ws.tree.files, PackInput(issue="I0201", format="xml", budget_tokens=2000))
    assert out.format is PackFormat.xml
    root = ET.fromstring(out.text.encode("utf-8"))
    assert root.find("header/budget").get("limit_tokens") == "2000"
    assert out.size.bytes == len(out.text.encode("utf-8"))
    assert PackInput.model_json_schema()["properties"]["format"]


@given(st.text(alphabet="`a\n", max_size=40))
def test_the_fence_is_longer_than_the_longest_backtick_run(text):
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    assert fence_for(text) == "`" * max(3, longest + 1)


@pytest.mark.parametrize("empty", [False, True], ids=["entries", "no entries"])
def test_the_markdown_rendered_once_per_part_is_the_whole_render(hostile, empty):
    """render() renders Markdown's body once and its head per round: the bytes are those
    of the whole document rendered at the size it states."""
    ws, answer = hostile
    whole = assemble(answer, ws.tree.files)
    if empty:
        whole = whole.model_copy(update={"entries": ()})
    sized, data = render(whole, PackFormat.markdown)
    assert data == render_markdown(sized).encode("utf-8")
    assert sized.size.bytes == len(data)
    assert data.endswith(b"fence\n" if empty else b"\n")


def test_entries_made_without_validation_equal_the_validated_ones(hostile):
    """assemble makes its entries without validation (made_pack_entry): each must be what validating
    the same values makes, pickled and dumped the same (the hostile bodies included)."""
    import pickle

    from generator.engine.models import made
    from generator.pack.models import PackEntry

    ws, answer = hostile
    entries = assemble(answer, ws.tree.files).entries
    assert len(entries) == len(answer.selected) > 5
    for entry in entries:
        validated = PackEntry(**entry.model_dump())
        assert entry == validated
        assert entry.model_dump_json() == validated.model_dump_json()
        assert entry.model_fields_set == validated.model_fields_set
        assert pickle.loads(pickle.dumps(entry)) == validated
        # made by position (made_pack_entry), it is the one made by name, pickle and all
        assert pickle.dumps(entry) == pickle.dumps(made(PackEntry, **entry.model_dump()))


@given(st.one_of(st.none(), st.text(), st.text(alphabet=st.sampled_from(
    [" ", "\t", "\n", "\xa0", "\u2028", "\x1c", "\x85", "a", "é", "/"]))))
def test_a_line_with_no_whitespace_is_its_own_one_line_form(text):
    """The quick path (no space, every character printable) is the split-and-join form:
    every whitespace character but the space is unprintable (checked over all of them)."""
    import sys

    from generator.pack.render import _one_line

    assert _one_line(text) == " ".join((text or "").split())
    if text is None:  # once: the fact the quick path rests on
        assert not [c for c in map(chr, range(sys.maxunicode + 1))
                    if c.isspace() and c != " " and c.isprintable()]


def test_the_entry_memo_gives_the_same_bytes_and_stays_bounded(hostile, monkeypatch):
    """Markdown entries are kept between packs (render._ENTRIES): a pack rendered with them
    kept, with none kept and with a memo too small to keep its entries is the same bytes,
    and the memo never holds more than its size."""
    import importlib

    from generator.pack.memo import Memo

    render_module = importlib.import_module("generator.pack.render")  # not the function

    ws, answer = hostile
    cold = Memo(render_module.ENTRY_MEMO_SIZE)
    monkeypatch.setattr(render_module, "_ENTRIES", cold)
    first = pack_text(answer, ws.tree.files)
    assert len(cold) == len(answer.selected)
    assert pack_text(answer, ws.tree.files) == first  # every entry from the memo
    tiny = Memo(2)
    monkeypatch.setattr(render_module, "_ENTRIES", tiny)
    assert pack_text(answer, ws.tree.files) == first
    assert len(tiny) == 2
    # an entry whose text changed (same path, same size) is made again, not reused
    path = answer.selected[0].provenance.path
    files = dict(ws.tree.files)
    files[path] = bytes(b ^ 1 if 0x41 <= b <= 0x5a else b for b in files[path])
    if files[path] != ws.tree.files[path]:
        assert pack_text(answer, files) != first


def test_a_memo_forgets_its_oldest_first():
    from generator.pack.memo import Memo

    memo = Memo(3)
    for key in "abcd":
        memo[key] = key.upper()
    assert list(memo.items()) == [("b", "B"), ("c", "C"), ("d", "D")]
    memo["c"] = "again"  # a key it holds: nothing forgotten
    assert list(memo) == ["b", "c", "d"]


def test_a_file_given_again_is_the_same_text(hostile):
    """decode_text keeps each file's text: the same bytes give the very same str (whose
    hash the render's entry memo then reads without hashing the text again)."""
    from generator.pack.assemble import decode_text

    data = b"caf\xe9 and \xff\xfe\n"
    first = decode_text(data)
    assert first == ("caf\ufffd and \ufffd\ufffd\n", 3)
    assert decode_text(bytes(data))[0] is first[0]
    assert decode_text(b"plain\n") == ("plain\n", 0)
