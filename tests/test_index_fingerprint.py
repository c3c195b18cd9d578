"""The layer fingerprint keeps its value when it is hashed in chunks: it is written into
every compiled context's JSON and two pages, and a build's output must not move."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.layer import loader
from generator.layer.loader import fingerprint_of


def _file_by_file(files: dict[str, bytes]) -> str:
    """The definition: each file as ``path NUL size NUL bytes``, in path order."""
    digest = hashlib.sha256()
    for path in sorted(files):
        data = files[path]
        digest.update(path.encode("utf-8") + b"\0" + str(len(data)).encode("ascii") + b"\0")
        digest.update(data)
    return "sha256:" + digest.hexdigest()


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=12), st.binary(max_size=40), max_size=25),
       st.sampled_from([1, 7, 64, 1 << 20]))
def test_the_fingerprint_is_the_file_by_file_hash_whatever_the_chunk(files, chunk):
    original = loader._HASH_CHUNK
    loader._HASH_CHUNK = chunk
    try:
        assert fingerprint_of(files) == _file_by_file(files)
    finally:
        loader._HASH_CHUNK = original


def test_a_file_larger_than_a_chunk():
    files = {"b": b"x" * (3 << 20), "a": b"", "c/é": b"y" * 10}
    assert fingerprint_of(files) == _file_by_file(files)
