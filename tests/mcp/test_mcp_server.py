"""`devcontext mcp` as a subprocess, driven by the SDK's own client over stdio: the tools are
the registry's, every call answers what the direct call answers (as structured content,
validated by the client against the tool's output schema), bad arguments are tool errors
with the HTTP API's message, an edit shows in the next answer, and the token is enforced."""

from __future__ import annotations

import shutil
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from generator.demo import demo_root
from generator.errors import DevContextError
from generator.jsonio import canonical_json_text, to_jsonable
from generator.operations import OPERATIONS, Runner, operation
from generator.operations.schemas import input_schema, output_schema
from generator.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]

#: One bad call per operation, with the argument the HTTP API would name.
BAD_CALLS = {
    "devcontext.compile": {"issue": "I9999"},
    "devcontext.explain": {"uri": "majordomus://adr/adr-0003", "floor": 2},
    "devcontext.policy": {"tier": "task"},
    "query.explain": {"kind": "text", "value": "cache", "limit": 0},
    "objects.get": {"uri": "majordomus://adr/nothing-here"},
    "devcontext.pack": {"issue": "I0201", "format": "pdf"},
}


@pytest.fixture
def repo(tmp_path) -> Path:
    target = tmp_path / "repo"
    shutil.copytree(demo_root(), target)
    return target


@asynccontextmanager
async def session(repo: Path, *extra: str):
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "generator", "mcp", "--repo", str(repo), *extra],
        cwd=str(ROOT), env={"PYTHONPATH": str(ROOT)})
    with open(repo.parent / "server.err", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                yield client


async def _bounded(conversation) -> None:
    with anyio.fail_after(90):
        await conversation()


def direct_error(op_id: str, index, arguments) -> str:
    """The message the HTTP API gives for these arguments (its query-string form)."""
    pairs = [(k, str(v)) for k, v in arguments.items()]
    with pytest.raises(DevContextError) as info:
        Runner().answer_pairs(operation(op_id), index, pairs)
    return info.value.message


def test_tools_are_the_registry_and_answer_as_the_direct_call(repo):
    workspace = Workspace.open(repo)
    index, files = workspace.index, workspace.tree.files
    runner = Runner()

    async def conversation() -> None:
        async with session(repo) as client:
            listed = (await client.list_tools()).tools
            assert [t.name for t in listed] == [op.exposure.mcp_tool for op in OPERATIONS]
            for tool, op in zip(listed, OPERATIONS):
                assert tool.input_schema == input_schema(op)
                assert tool.output_schema == output_schema(op)
                assert op.id in tool.description
            for op in OPERATIONS:
                for case in op.benchmark_cases:
                    arguments = case.arguments(index)
                    result = await client.call_tool(op.exposure.mcp_tool, arguments)
                    expected = runner.answer(op, index, arguments, files=files)
                    assert not result.is_error, (op.id, case.name, result.content)
                    assert result.structured_content == to_jsonable(expected)
                    assert result.content[0].text == canonical_json_text(expected)
                bad = BAD_CALLS[op.id]
                result = await client.call_tool(op.exposure.mcp_tool, bad)
                assert result.is_error
                assert result.content[0].text == direct_error(op.id, index, bad)
            # JSON types are checked as the input schema states them; unknown fields refused.
            result = await client.call_tool("devcontext_compile", {"budget_tokens": "5"})
            assert result.is_error
            assert result.content[0].text == "`budget_tokens` must be a whole number; found '5'"
            result = await client.call_tool("devcontext_compile", {"isue": "I0201"})
            assert result.is_error and result.content[0].text.startswith("unknown field `isue`")
            result = await client.call_tool("objects_list", {})
            assert result.is_error and result.content[0].text.startswith(
                "there is no tool `objects_list`; the tools are devcontext_compile, ")

    anyio.run(_bounded, conversation)


def test_an_edit_to_the_layer_shows_in_the_next_answer(repo):
    adr = repo / ".ai" / "repo" / "adrs"
    path = next(p for p in sorted(adr.glob("0002-*.md")))
    uri = "majordomus://adr/adr-0002"

    async def conversation() -> None:
        async with session(repo) as client:
            first = await client.call_tool("objects_get", {"uri": uri})
            assert "SI units" in first.structured_content["title"]
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace("Readings are stored in SI units",
                                         "Readings are stored in kelvin", 1), encoding="utf-8")
            second = await client.call_tool("objects_get", {"uri": uri})
            assert second.structured_content["title"].startswith("Readings are stored in kelvin")
            found = await client.call_tool("explain", {"kind": "text", "value": "kelvin"})
            assert [h["anchor"] for h in found.structured_content["explain"]["hits"]] == [uri]
            # A new file (no stat of it existed before) shows too.
            (adr / "0099-a-new-decision.md").write_text(
                text.replace("Readings are stored in SI units", "A new decision", 1)
                .replace("0002", "0099"), encoding="utf-8")
            found = await client.call_tool("explain", {"kind": "text", "value": "new decision"})
            assert any("A new decision" in (h.get("title") or "")
                       for h in found.structured_content["explain"]["hits"])
            path.unlink()
            gone = await client.call_tool("objects_get", {"uri": uri})
            assert gone.is_error and "holds nothing under" in gone.content[0].text

    anyio.run(_bounded, conversation)


def test_the_token_is_required_accepted_and_refused(repo):
    async def conversation() -> None:
        async with session(repo, "--token", "demo") as client:
            tools = (await client.list_tools()).tools
            assert all("token" in t.input_schema["required"] for t in tools)
            ok = await client.call_tool("explain", {"kind": "text", "value": "eval gate",
                                                    "token": "demo"})
            assert not ok.is_error and ok.structured_content["kind"] == "explain"
            missing = await client.call_tool("explain", {"kind": "text", "value": "eval gate"})
            assert missing.is_error and missing.content[0].text == (
                "this server needs a `token` argument: the token it was started with "
                "(`devcontext mcp --token T`)")
            wrong = await client.call_tool("devcontext_policy", {"token": "demo2"})
            assert wrong.is_error and wrong.content[0].text == (
                "the `token` argument does not match the token this server was started with")

    anyio.run(_bounded, conversation)


def test_a_repository_without_a_layer_fails_at_start(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "generator", "mcp", "--repo", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"devcontext mcp: {tmp_path} has no .ai/manifest.yaml")
