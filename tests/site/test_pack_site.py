"""The packs on the site: one per compiled context (``contexts/<kind>/<id>.pack.md``, the
bytes ``devcontext pack`` prints at the default request, the one copy of its text; and
``.pack.js``, the same bytes deflated and in base64 as a script, for the copy button from
file://), listed in ``index.json``, linked from the context page, and kept equal to a full
build by serve's rebuilds."""

from __future__ import annotations

import base64
import json
import posixpath
import re
import shutil
import zlib

import jsonschema
import pytest

from generator.cli import main
from generator.demo import demo_root
from generator.engine.compile import GitInfo, compile_context
from generator.engine.models import CompileInput
from generator.errors import BuildError
from generator.pack import pack_text
from generator.serve.incremental import IncrementalBuilder
from generator.site import urls
from generator.site.build import SiteInputs, build_site
from generator.site.contexts import context_keys
from generator.site.pages.context import pack_script
from generator.workspace import Workspace
from layerkit import write_layer
from sitekit import build, scan, tree_bytes

SCRIPT_CALL = re.compile(r'\A/\* [^\n]* \*/\nwindow\.devcontextPack && window\.devcontextPack\(("[^"]*"), "([A-Za-z0-9+/=]*)"\);\n\Z')


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = build(None, tmp_path_factory.mktemp("packsite") / "site")
    return Workspace.open(None), out, tree_bytes(out)


def script_text(data: bytes) -> tuple[str, str]:
    """(name, text) that a ``.pack.js`` hands to ``window.devcontextPack``, inflated."""
    found = SCRIPT_CALL.search(data.decode("ascii"))
    assert found, data[:200]
    return (json.loads(found.group(1)),
            zlib.decompress(base64.b64decode(found.group(2), validate=True)).decode("utf-8"))


def test_every_context_has_its_pack_and_it_is_the_pack_of_its_answer(demo):
    ws, _, tree = demo
    keys = context_keys(ws.index)
    assert len(keys) > 10
    for key in keys:
        answer = compile_context(ws.index, CompileInput(**{key.kind: key.identity}), git=GitInfo())
        expected = pack_text(answer, ws.tree.files, "markdown")
        rel = urls.context_pack(key.kind, key.identity)
        assert tree[rel] == expected, rel
        assert script_text(tree[urls.context_pack_script(key.kind, key.identity)]) == (rel, expected.decode())
    packs = sorted(rel for rel in tree if rel.endswith(".pack.md"))
    assert packs == sorted(urls.context_pack(k.kind, k.identity) for k in keys)


@pytest.mark.parametrize("flag, identity", [("--issue", "I0201"), ("--milestone", "offline-reads")])
def test_the_site_pack_is_what_devcontext_pack_prints(demo, capsysbinary, flag, identity):
    _, _, tree = demo
    assert main(["pack", flag, identity, "--format", "markdown"]) == 0
    printed = capsysbinary.readouterr().out
    kind = flag.lstrip("-")
    assert tree[urls.context_pack(kind, identity)] == printed
    assert printed.startswith(f"# Development context: {kind} {identity}\n".encode())


def test_index_json_lists_every_pack_and_its_schema_says_so(demo):
    _, out, tree = demo
    index = json.loads(tree["api/v1/index.json"])
    schema = json.loads(tree["api/v1/schemas/index.schema.json"])
    jsonschema.validate(index, schema)
    row_schema = schema["$defs"]["ContextSummary"]
    assert "pack" in row_schema["required"] and row_schema["properties"]["pack"]["type"] == "string"
    assert index["contexts"]
    for row in index["contexts"]:
        assert row["pack"] == urls.context_pack(row["kind"], row["id"])
        assert row["pack"] in tree and row["page"] in tree, row["pack"]
        bad = dict(row, pack=None)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(dict(index, contexts=[bad]), schema)


def test_the_context_page_links_its_pack_and_its_script(demo):
    ws, out, tree = demo
    for key in context_keys(ws.index):
        page = urls.context_page(key.kind, key.identity)
        found = scan(out / page)
        assert found.handlers == [], page
        html = tree[page].decode()
        pack, script = urls.context_pack(key.kind, key.identity), urls.context_pack_script(key.kind, key.identity)
        rel_pack = posixpath.basename(pack)
        assert f'<a download href="{rel_pack}">download the pack</a>' in html, page
        assert (f'<button type="button" class="copy-context" data-pack="{rel_pack}" '
                f'data-pack-script="{posixpath.basename(script)}" data-pack-name="{pack}" '
                'data-target="pack-text" data-status="pack-status" '
                'data-say-copied="Copied the context to the clipboard." '
                'data-say-copied-below="Copied the context to the clipboard; it is also below." '
                'data-say-select="The clipboard is not reachable from here: the context is '
                'selected below, copy it (Ctrl+C / ⌘C)." '
                'data-say-failed="The context could not be loaded here: open the pack file '
                '{file} and copy it.">Copy context</button>') in html, page
        assert '<textarea id="pack-text" class="pack-text" readonly hidden' in html, page
        assert ("src", "../../static/copy.js") in found.links, page
    assert "static/copy.js" in tree


def test_the_pack_script_holds_any_text_as_one_ascii_string():
    text = 'a </script><script>alert(1)</script>\r\n\x00 \u2028 \u00e9 "quoted" \\ `${x}` end'
    data = pack_script("contexts/issue/I0001.pack.md", text.encode("utf-8"))
    data.decode("ascii")
    assert b"</script>" not in data and b"\r" not in data and b"\x00" not in data
    assert script_text(data) == ("contexts/issue/I0001.pack.md", text)


def test_the_pack_script_is_a_fraction_of_the_pack(demo):
    """The text is on disk once: the script is its compressed form, well under the pack."""
    ws, _, tree = demo
    packs = {rel: data for rel, data in tree.items() if rel.endswith(".pack.md")}
    scripts = sum(len(tree[rel[: -len(".md")] + ".js"]) for rel in packs)
    assert scripts < 0.6 * sum(len(data) for data in packs.values()), (scripts, len(packs))


def test_a_hostile_layer_packs_into_scripts_that_cannot_break_out(tmp_path):
    from test_build import HOSTILE

    site = build(write_layer(tmp_path / "repo", HOSTILE), tmp_path / "site")
    scripts = sorted(site.rglob("*.pack.js"))
    assert scripts
    for path in scripts:
        name, text = script_text(path.read_bytes())
        assert (site / name).read_bytes().decode("utf-8") == text
        assert name == path.relative_to(site).as_posix()[: -len(".js")] + ".md"


def test_a_build_without_the_source_tree_says_what_to_pass():
    ws = Workspace.open(None)
    with pytest.raises(BuildError) as info:
        list(build_site(SiteInputs(index=ws.index, git=GitInfo())))
    message = info.value.message
    assert message.startswith("the pack of ") and "needs the source tree's bytes, and the build was given none" in message
    assert message.endswith("pass the tree the index was built from (SiteInputs.files or PageKit.files "
                            "= Workspace.tree.files)")


def test_a_same_size_edit_remakes_the_packs_that_carry_the_file_and_nothing_else(tmp_path):
    """A code file edited in place to the same size changes no object and no answer: serve
    recompiles nothing and still writes every pack that carries the file, as a full build."""
    repo = tmp_path / "repo"
    shutil.copytree(demo_root(), repo)
    site = tmp_path / "site"
    builder = IncrementalBuilder(repo, site, label="test layer")
    builder.rebuild()
    rel = "lib/cache.py"
    carrying = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.pack.md")
                      if f" majordomus://implementation/{rel} · ".encode() in p.read_bytes())
    assert carrying, "no pack of the demo carries lib/cache.py"
    path = repo / rel
    data = path.read_bytes()
    path.write_bytes(data.replace(b"import", b"IMPORT", 1))
    assert len(path.read_bytes()) == len(data) != 0 and path.read_bytes() != data
    report = builder.rebuild([rel])
    assert report.contexts_compiled == 0
    expected = sorted(carrying + [p[: -len(".md")] + ".js" for p in carrying])
    assert sorted(p for p in report.written if ".pack." in p) == expected
    assert all(b"IMPORT" in (site / p).read_bytes() for p in carrying)
    incremental = tree_bytes(site)
    full = tree_bytes(build(repo, tmp_path / "full"))
    assert sorted(k for k in incremental.keys() | full.keys() if incremental.get(k) != full.get(k)) == []
