"""The fast paths of :func:`urls.encode_name` (and its one-pass escaping) and
:func:`urls.relative` answer exactly what the general definitions answer (the
per-character mapping, ``posixpath.relpath``)."""

from __future__ import annotations

import hashlib
import posixpath
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.site import urls


_SAFE = re.compile(r"[A-Za-z0-9._@-]")


def _reference_encode(identity: str) -> str:
    """The definition: each character kept when safe (a leading dot is not), else ~XX per
    UTF-8 byte; a name beyond MAX_NAME cut and given its identity's digest."""
    out = []
    for i, ch in enumerate(identity):
        if _SAFE.fullmatch(ch) and not (i == 0 and ch == "."):
            out.append(ch)
        else:
            out.extend(f"~{b:02X}" for b in ch.encode("utf-8"))
    name = "".join(out) or "~"
    if len(name) > urls.MAX_NAME:
        digest = hashlib.sha1(identity.encode("utf-8")).hexdigest()[:12]
        name = name[: urls.MAX_NAME - 14].rstrip("~") + "~~" + digest
    return name


NAMES = st.one_of(st.text(alphabet="abcXYZ019._@-~/ é\n", max_size=30),
                  st.text(max_size=12), st.text(alphabet="ab.", min_size=170, max_size=200))


@settings(max_examples=500, deadline=None)
@given(NAMES)
def test_encode_name_fast_path_equals_the_mapping(name):
    assert urls.encode_name(name) == _reference_encode(name)


SEGMENT = st.sampled_from(["a", "b", "objects", "issue", "x.html", ".", "..", "", "~2E", "ab c"])
PATHS = st.lists(SEGMENT, min_size=1, max_size=5).map("/".join)


@settings(max_examples=800, deadline=None)
@given(PATHS, PATHS)
def test_relative_equals_relpath(page, target):
    base = posixpath.dirname(page)
    try:
        expected = posixpath.relpath(target, base or ".")
    except ValueError:
        expected = None
    try:
        got = urls.relative(page, target)
    except ValueError:
        got = None
    assert got == expected


def test_examples():
    assert urls.relative("objects/adr/a.html", "objects/issue/I1.html") == "../issue/I1.html"
    assert urls.relative("index.html", "plan.html") == "plan.html"
    assert urls.relative("objects/adr/a.html", "objects/adr/a.html") == "a.html"
    assert urls.relative("a/b/c.html", "a/b") == "."
    assert urls.encode_name(".ai/x") == "~2Eai~2Fx" and urls.encode_name("I0001") == "I0001"
