"""The output guard: every directory a site must not be written to is refused with one line
(exit 2) and left exactly as it was; every spelling of a path gets the same answer."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.demo import demo_root
from generator.errors import BuildError
from generator.outdir import MARKER, check_out_dir, marker_bytes, read_marker


def tree_hash(root: Path) -> str:
    """Every entry under ``root``: its path, kind and bytes (or link target)."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in sorted(os.walk(root)):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                h.update(f"L {rel} -> {os.readlink(path)}\n".encode())
            elif os.path.isdir(path):
                h.update(f"D {rel}\n".encode())
            else:
                h.update(f"F {rel}\n".encode() + Path(path).read_bytes())
    return h.hexdigest()


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "work" / "repo"
    shutil.copytree(demo_root(), root)
    (root / "README.md").write_text("the project\n")
    (root / "src").mkdir()
    (root / "src" / "main.py").write_text("print('hi')\n")
    return root


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    place = tmp_path / "home"
    place.mkdir()
    monkeypatch.setenv("HOME", str(place))
    return place


def refused(out, **kw) -> str:
    with pytest.raises(BuildError) as caught:
        check_out_dir(out, **kw)
    return caught.value.message


# -- the guard itself ---------------------------------------------------------------------

def test_the_repository_itself_is_refused(repo):
    assert refused(repo, repo=repo) == (
        f"refusing --out {repo}: it is the repository itself; the site would replace your "
        f"files. Choose an empty or new directory, such as {repo}/site")


def test_a_directory_holding_the_repository_is_refused(repo):
    assert refused(repo.parent, repo=repo) == (
        f"refusing --out {repo.parent}: it holds the repository {repo}; the site would replace "
        f"your files. Choose an empty or new directory, such as {repo}/site")


def test_the_layer_and_anything_inside_it_is_refused(repo):
    layer = repo / ".ai"
    for out in (layer, layer / "repo" / "adrs", layer / "new-dir"):
        assert refused(out, repo=repo) == (
            f"refusing --out {out}: it lies inside the AI layer {layer}; the site's files would "
            f"be mixed into the layer. Choose an empty or new directory, such as {repo}/site")


def test_root_and_home_are_refused(tmp_path, home):
    assert refused("/", home=home) == (
        "refusing --out /: it is the filesystem root; the site would replace everything on it. "
        f"Choose an empty or new directory, such as {home}/site")
    assert refused("~", home=home) == (
        f"refusing --out ~ ({home}): it is your home directory; the site would replace your "
        f"files. Choose an empty or new directory, such as {home}/site")
    assert refused(tmp_path, home=home) == (
        f"refusing --out {tmp_path}: it holds your home directory {home}; the site would "
        f"replace your files. Choose an empty or new directory, such as {home}/site")


def test_an_empty_path_is_refused():
    assert refused("") == ("refusing --out '': the path is empty. Choose an empty or new "
                           "directory, such as site")


def test_a_file_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    assert refused(tmp_path / "notes.txt") == (
        f"refusing --out {tmp_path}/notes.txt: it is a file, not a directory; the site would "
        f"replace it. Choose an empty or new directory, such as {tmp_path}/site")


def test_a_path_under_a_file_is_refused_and_missing_parents_are_accepted(tmp_path):
    (tmp_path / "f").write_text("x")
    for out in (tmp_path / "f" / "site", tmp_path / "f" / "a" / "site"):
        assert refused(out) == (
            f"refusing --out {out}: {tmp_path}/f is not a directory. Choose a directory whose "
            "parent is a directory")
    assert check_out_dir(tmp_path / "a" / "b" / "site") == tmp_path / "a" / "b" / "site"
    assert not (tmp_path / "a").exists()  # the guard only looks


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_parent_that_cannot_be_written_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert refused(locked / "site") == (
            f"refusing --out {locked}/site: its parent directory {locked} is not writable (the "
            "site is written beside the output, then swapped in). Choose a directory whose "
            "parent you can write to")
    finally:
        locked.chmod(0o755)


def test_a_non_empty_directory_devcontext_did_not_write_is_refused(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work")
    assert refused(mine) == (
        f"refusing --out {mine}: it is a non-empty directory devcontext did not write (it has "
        f"no {MARKER}); the site would mix with its files. Empty it, or choose an empty or new "
        "directory")
    (mine / MARKER).write_text("not ours\n")  # a file of that name is not enough
    assert "did not write" in refused(mine)


def test_empty_new_gitkeep_only_and_marked_directories_are_accepted(tmp_path):
    assert check_out_dir(tmp_path / "new") == tmp_path / "new"
    (tmp_path / "empty").mkdir()
    assert check_out_dir(tmp_path / "empty") == tmp_path / "empty"
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / ".gitkeep").write_text("")
    assert check_out_dir(tmp_path / "kept") == tmp_path / "kept"
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("x")
    (site / "CNAME").write_text("example.org")
    (site / MARKER).write_bytes(marker_bytes(["index.html"]))
    assert check_out_dir(site) == site
    assert read_marker(site).files == frozenset({"index.html"})


def test_symlinks_and_dot_dots_are_resolved_before_comparing(repo, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(repo)
    assert refused(link, repo=repo).startswith(
        f"refusing --out {link} ({repo}): it is the repository itself;")
    assert refused(f"{repo}/src/..", repo=repo).startswith(
        f"refusing --out {repo}/src/.. ({repo}): it is the repository itself;")
    (tmp_path / "out").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "out")
    assert check_out_dir(tmp_path / "via") == tmp_path / "out"  # the real directory is written


def test_dot_is_the_working_directory(repo, monkeypatch):
    monkeypatch.chdir(repo)
    assert refused(".", repo=repo).startswith(
        f"refusing --out . ({repo}): it is the repository itself;")


# -- build and serve, end to end ------------------------------------------------------------

def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("verb", ["build", "serve"])
@pytest.mark.parametrize("case", ["repo", "dot-in-repo", "parent", "layer", "home", "root",
                                  "non-empty", "file", "empty-arg", "under-a-file", "symlink"])
def test_build_and_serve_refuse_with_one_line_and_exit_2(verb, case, repo, home, tmp_path,
                                                           monkeypatch, capsys):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "paper.md").write_text("mine")
    (tmp_path / "note.txt").write_text("mine")
    (tmp_path / "to-repo").symlink_to(repo)
    out, where = {
        "repo": (str(repo), "it is the repository itself"),
        "dot-in-repo": (".", "it is the repository itself"),
        "parent": (str(repo.parent), f"it holds the repository {repo}"),
        "layer": (str(repo / ".ai" / "repo"), f"it lies inside the AI layer {repo}/.ai"),
        "home": ("~", "it is your home directory"),
        "root": ("/", "it is the filesystem root"),
        "non-empty": (str(tmp_path / "docs"),
                      "it is a non-empty directory devcontext did not write"),
        "file": (str(tmp_path / "note.txt"), "it is a file, not a directory"),
        "empty-arg": ("", "the path is empty"),
        "under-a-file": (str(tmp_path / "note.txt" / "site"),
                         f"{tmp_path}/note.txt is not a directory"),
        "symlink": (str(tmp_path / "to-repo"), "it is the repository itself"),
    }[case]
    monkeypatch.chdir(repo)
    before_repo, before_tmp = tree_hash(repo), tree_hash(tmp_path)
    extra = ["--port", "0", "-q"] if verb == "serve" else ["-q"]
    code, stdout, stderr = run_cli(capsys, verb, "--repo", str(repo), "--out", out, *extra)
    assert code == 2
    assert stdout == ""
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"devcontext {verb}: refusing --out "), stderr
    assert where in lines[0] and "Traceback" not in stderr
    assert tree_hash(repo) == before_repo
    assert tree_hash(tmp_path) == before_tmp  # nothing written anywhere, no temporaries


def test_build_into_dot_in_an_empty_directory_works(repo, tmp_path, monkeypatch, capsys):
    empty = tmp_path / "public"
    empty.mkdir()
    monkeypatch.chdir(empty)
    code, stdout, stderr = run_cli(capsys, "build", "--repo", str(repo), "--out", ".", "-q")
    assert code == 0, stderr
    assert stdout.splitlines()[-1].startswith("built .: ")  # the summary is the last line
    assert (empty / "index.html").is_file() and (empty / MARKER).is_file()
    assert Path.cwd() == empty and Path("index.html").is_file()  # the process follows the site
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public", "work"]
    before = tree_hash(repo)
    code, _, stderr = run_cli(capsys, "build", "--repo", str(repo), "--out", ".", "-q")
    assert code == 0, stderr  # our own site: rebuilt in place
    assert tree_hash(repo) == before


def test_build_into_a_site_inside_the_repository_keeps_its_gitkeep(repo, capsys):
    site = repo / "site"
    site.mkdir()
    (site / ".gitkeep").write_text("")
    for _ in range(2):
        code, _, stderr = run_cli(capsys, "build", "--repo", str(repo), "--out", str(site), "-q")
        assert code == 0, stderr
        assert (site / ".gitkeep").is_file() and (site / "index.html").is_file()
    assert ".gitkeep" not in read_marker(site).files
    assert sorted(p.name for p in repo.iterdir() if p.name.startswith(".site")) == []


def test_a_parent_the_system_will_not_write_to_is_one_line_too(repo, capsys):
    """As root every parent passes the permission check; the write itself then fails, and
    says so in one line (no traceback), leaving nothing behind."""
    out = "/sys/devcontext-site"
    if not os.path.isdir("/sys") or os.access("/sys", os.W_OK) is False:
        pytest.skip("needs a /sys the permission check lets through")
    code, stdout, stderr = run_cli(capsys, "build", "--repo", str(repo), "--out", out, "-q")
    assert code == 2 and stdout == ""
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"devcontext build: could not write the site to {out}: "), stderr
    assert lines[0].endswith("; the output directory was left as it was. Free some space or fix "
                             "the permissions, then build again")
    assert not [n for n in os.listdir("/sys") if n.startswith(".devcontext-site.")]
