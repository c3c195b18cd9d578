"""The served output tree's fingerprint patch: after an edit, a kept compiled context's
JSON on disk holds the new fingerprint and is otherwise unchanged, and the patch writes
whole pages (a partial page the kernel no longer holds is read from disk first)."""

from __future__ import annotations

from generator.serve.output import PAGE, OutputTree, fingerprint_pages, repatched

OLD = b"a" * 64
NEW = b"b" * 64


def _answer(at: int, size: int) -> bytes:
    """A JSON-like file of ``size`` bytes holding ``OLD`` at ``at``."""
    body = bytearray(b"x" * size)
    body[at:at + len(OLD)] = OLD
    return bytes(body)


def test_the_pages_are_whole_aligned_and_hold_the_fingerprint():
    data = _answer(PAGE * 3 - 10, PAGE * 5 + 100)  # across a page boundary
    (start, block), = fingerprint_pages(data, (PAGE * 3 - 10,), len(OLD))
    assert start == PAGE * 2 and len(block) == PAGE * 2
    assert block == data[start:start + len(block)]
    near_end = _answer(PAGE * 5 + 10, PAGE * 5 + 100)
    (start, block), = fingerprint_pages(near_end, (PAGE * 5 + 10,), len(OLD))
    assert (start, len(block)) == (PAGE * 5, 100)  # the last page, to the end of the file


def test_two_occurrences_on_one_page_are_one_block():
    data = bytearray(b"x" * (PAGE * 2))
    data[100:164] = OLD
    data[300:364] = OLD
    pages = fingerprint_pages(bytes(data), (100, 300), len(OLD))
    assert [(s, len(b)) for s, b in pages] == [(0, PAGE)]
    (_, block), = repatched(pages, (100, 300), NEW)
    assert block[100:164] == NEW and block[300:364] == NEW
    assert block[:100] == data[:100] and block[364:PAGE] == data[364:PAGE]


def test_an_edit_moves_the_fingerprint_of_a_kept_answer_in_place(tmp_path):
    out = tmp_path / "site"
    rel = "api/v1/devcontext/compile/issue/I0001.json"
    first = _answer(PAGE + 500, PAGE * 4)
    tree = OutputTree(out)
    tree.write_all([(rel, first), ("index.html", b"<p>home</p>")], OLD.decode(), {rel})
    writes: list[tuple[int, int]] = []
    patch = tree.site.patch

    def recording(rel_: str, blocks):
        blocks = tuple(blocks)
        writes.extend((at, len(block)) for at, block in blocks)
        patch(rel_, blocks)

    tree.site.patch = recording
    stats = tree.update({"index.html": b"<p>home</p>"}, {rel}, NEW.decode())
    assert stats.patched == 1
    assert (out / rel).read_bytes() == first.replace(OLD, NEW)
    assert writes == [(PAGE, PAGE)]
    # and again: the pages kept are the ones now on disk
    tree.update({"index.html": b"<p>home</p>"}, {rel}, OLD.decode())
    assert (out / rel).read_bytes() == first
