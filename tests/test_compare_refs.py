"""benchmarks/compare_refs.py: the tree hash it compares two builds by, its table, and the
message for a ref that names nothing (the timing itself is run by hand: `make compare`)."""

from __future__ import annotations

import pytest

from benchmarks.compare_refs import _commit_of, table, tree_sha256


def test_the_tree_hash_covers_every_path_and_its_bytes(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "api").mkdir(parents=True)
        (root / "index.html").write_bytes(b"<p>hi</p>")
        (root / "api" / "x.json").write_bytes(b"{}\n")
    assert tree_sha256(a) == tree_sha256(b)
    (b / "api" / "x.json").write_bytes(b"{} \n")
    assert tree_sha256(a) != tree_sha256(b)
    (b / "api" / "x.json").write_bytes(b"{}\n")
    (b / "api" / "x.json").rename(b / "api" / "y.json")
    assert tree_sha256(a) != tree_sha256(b)


def test_the_table_gives_medians_the_ratio_and_whether_the_trees_are_identical():
    result = {
        "refs": [{"ref": "old", "commit": "1" * 40}, {"ref": "new", "commit": "2" * 40}],
        "rounds": 3,
        "layers": [
            {"layer": "demo", "median": {"old": 2.0, "new": 1.5}, "ratio": 0.75,
             "tree_sha256": {"old": "ab" * 32, "new": "ab" * 32}, "identical": True},
            {"layer": "real", "median": {"old": 10.0, "new": 11.0}, "ratio": 1.1,
             "tree_sha256": {"old": "ab" * 32, "new": "cd" * 32}, "identical": False},
        ],
    }
    assert table(result).split("\n") == [
        "layer             old          new   ratio  tree sha256 (old / new)",
        "demo           2.00 s       1.50 s   0.750  abababababababab (identical)",
        "real          10.00 s      11.00 s   1.100  abababababababab / cdcdcdcdcdcdcdcd "
        "(DIFFERENT)",
        "medians of 3 alternating round(s); ratio = new / old (below 1: the second ref is "
        "faster)",
    ]


def test_a_ref_that_names_no_commit_is_refused_with_the_fix():
    with pytest.raises(SystemExit) as exc:
        _commit_of("no-such-ref-anywhere")
    assert str(exc.value).startswith("compare_refs: `no-such-ref-anywhere` names no commit in ")
    assert str(exc.value).endswith("; give a branch, a tag or a commit hash (`git log "
                                   "--oneline` lists them)")
