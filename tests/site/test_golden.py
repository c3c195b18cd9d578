"""The demo site matches its golden files byte for byte (regenerate: `make golden`)."""

from __future__ import annotations

import difflib

import pytest

from golden import GOLDEN, KEPT, build_demo, manifest


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return build_demo(tmp_path_factory.mktemp("golden") / "site")


@pytest.mark.parametrize("rel", KEPT)
def test_key_files_match_golden(tree, rel):
    expected = (GOLDEN / rel).read_text(encoding="utf-8")
    actual = tree[rel].decode("utf-8")
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), f"golden/{rel}", f"built/{rel}"))[:80])
        pytest.fail(f"{rel} differs from its golden copy (run `make golden` if intended):\n{diff}")


def test_every_file_matches_the_manifest(tree):
    expected = (GOLDEN / "MANIFEST.sha256").read_text(encoding="utf-8")
    actual = manifest(tree)
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            "golden/MANIFEST.sha256", "built"))
        pytest.fail(f"the site differs from the golden manifest (run `make golden` if intended):\n{diff}")
