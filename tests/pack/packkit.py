"""Reading a pack back with real parsers, and the checks every pack must pass: every
selected entry's text is in it, in spend order, and nothing else is; it states its own size
truly; the overhead is small."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import lru_cache
from typing import Mapping

from markdown_it import MarkdownIt

from generator.engine.models import CompiledContext
from generator.engine.numbers import tokens_for
from generator.pack import Pack, PackFormat, build_pack
from generator.pack.assemble import decode_text
from generator.pack.render import XML_UNREPRESENTABLE, fence_for
from generator.site.records import SCHEMAS, schema_of

#: The overhead a pack may add to its entries' own text: a header, and per entry a heading
#: and its fence or tags (JSON also escapes every newline and quote of the text).
HEADER_ALLOWANCE = 2_048
PER_ENTRY_ALLOWANCE = {PackFormat.markdown: 400, PackFormat.xml: 600, PackFormat.json: 600}
JSON_ESCAPE_ALLOWANCE = 0.25  # of the text's bytes


@lru_cache(maxsize=1)
def pack_validator():
    import jsonschema

    schema = schema_of(SCHEMAS["pack.schema.json"])
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def markdown_bodies(data: bytes) -> list[str]:
    """The fenced bodies of a Markdown pack, as a CommonMark parser reads them."""
    tokens = MarkdownIt("commonmark").parse(data.decode("utf-8"))
    return [t.content for t in tokens if t.type == "fence"]


def _commonmark(text: str) -> str:
    """What a CommonMark parser makes of a body: line ends normalised, NUL replaced, and a
    final newline (the fence's closing line)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")
    return text if not text or text.endswith("\n") else text + "\n"


def xml_documents(data: bytes) -> list[ET.Element]:
    root = ET.fromstring(data)
    assert root.tag == "context"
    return list(root.find("documents"))


def check_pack(answer: CompiledContext, files: Mapping[str, bytes], fmt: PackFormat) -> Pack:
    """Every check a pack of ``answer`` must pass in ``fmt``; returns the pack."""
    pack, data = build_pack(answer, files, fmt)
    texts = [decode_text(files[e.provenance.path])[0] for e in answer.selected]
    # the entries, in spend order, with the text of the file each was measured on
    assert [e.uri for e in pack.entries] == [e.uri for e in answer.selected]
    assert [e.text for e in pack.entries] == texts
    if fmt is PackFormat.json:
        doc = json.loads(data)
        errors = sorted(pack_validator().iter_errors(doc), key=str)
        assert not errors, errors[0]
        assert [e["text"] for e in doc["entries"]] == texts
        assert [e["uri"] for e in doc["entries"]] == [e.uri for e in answer.selected]
        assert Pack.model_validate(doc) == pack
    elif fmt is PackFormat.xml:
        docs = xml_documents(data)
        assert [d.get("uri") for d in docs] == [e.uri for e in answer.selected]
        assert [d.get("tier") for d in docs] == [e.tier.value for e in answer.selected]
        assert ["".join(d.itertext()) for d in docs] == [
            XML_UNREPRESENTABLE.sub("\ufffd", t) for t in texts]
    else:
        assert markdown_bodies(data) == [_commonmark(t) for t in texts]
        text = data.decode("utf-8")
        for e in pack.entries:  # the exact text, byte for byte, closed by its fence
            body = e.text if not e.text or e.text.endswith("\n") else e.text + "\n"
            assert f"\n{body}{fence_for(e.text)}\n" in text, e.uri
    # honest size: what the header says is what the bytes are
    s = pack.size
    assert s.bytes == len(data)
    assert s.tokens == tokens_for(len(data))
    assert s.text_bytes == sum(len(t.encode("utf-8")) for t in texts)
    if not any(e.replaced_bytes for e in pack.entries):
        assert s.text_bytes == sum(e.cost_bytes for e in answer.selected)
        assert s.tokens <= answer.budget.used_tokens + tokens_for(s.overhead_bytes)
    assert s.overhead_bytes == len(data) - s.text_bytes
    if fmt is PackFormat.markdown:
        assert f"- size: {s.bytes:,} bytes, ~{s.tokens:,} tokens" in data.decode("utf-8")
    elif fmt is PackFormat.xml:
        size = ET.fromstring(data).find("header/size")
        assert (int(size.get("bytes")), int(size.get("tokens"))) == (s.bytes, s.tokens)
    # small: a header, and a heading per entry
    allowance = HEADER_ALLOWANCE + PER_ENTRY_ALLOWANCE[fmt] * len(pack.entries)
    if fmt is PackFormat.json:
        allowance += int(JSON_ESCAPE_ALLOWANCE * s.text_bytes)
    assert s.overhead_bytes <= allowance, (s, len(pack.entries))
    return pack
