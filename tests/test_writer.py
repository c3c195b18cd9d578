"""The writer: a marker in every site, nothing it did not write ever deleted, no temporary
outliving the next build, and a site that is the previous one or the new one whenever the
process is killed."""

from __future__ import annotations

import fcntl
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from test_outdir import tree_hash

from generator import writer
from generator.errors import BuildError
from generator.outdir import MARKER, marker_bytes, read_marker
from generator.serve.output import OutputTree
from generator.synth import synthesize, write_layer
from generator.writer import check_rel, clean_stale_temps, write_site

ROOT = Path(__file__).resolve().parents[1]


def files_of(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def temps(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if ".building-" in p.name or ".old-" in p.name)


# -- the marker -------------------------------------------------------------------------------

def test_every_site_carries_a_deterministic_marker_listing_its_files(tmp_path):
    out = tmp_path / "site"
    write_site([("index.html", b"<p>"), ("api/v1/index.json", b"{}\n")], out)
    assert (out / MARKER).read_text() == (
        "devcontext-site 1\n"
        "# Written by devcontext. The files listed below are the site's: the next build "
        "replaces them and keeps every other file in this directory.\n"
        "api/v1/index.json\n"
        "index.html\n")
    assert read_marker(out).files == frozenset({"index.html", "api/v1/index.json"})
    first = (out / MARKER).read_bytes()
    write_site([("api/v1/index.json", b"{}\n"), ("index.html", b"<p>")], out)
    assert (out / MARKER).read_bytes() == first  # the order the files came in does not show
    assert oct(out.stat().st_mode & 0o777) != "0o700"  # not a private temporary's mode


def test_reserved_and_unplain_paths_are_refused(tmp_path):
    for rel in ("../x", "/etc/passwd", "a//b", "./a", "a/./b", "a\\b", "", "a\0b"):
        with pytest.raises(BuildError, match="not a plain relative path inside the site"):
            check_rel(rel)
    for rel in (MARKER, "objects/.devcontext-tmp-1"):
        with pytest.raises(BuildError) as caught:
            check_rel(rel)
        assert caught.value.message == (
            f"refusing to write {rel!r}: the name is reserved for devcontext's own bookkeeping "
            "in the site")
    with pytest.raises(BuildError):
        write_site([("index.html", b"x"), (MARKER, b"forged")], tmp_path / "site")
    assert not (tmp_path / "site").exists() and temps(tmp_path) == []


def test_missing_parent_directories_are_created(tmp_path):
    write_site([("index.html", b"x")], tmp_path / "a" / "b" / "site")
    assert (tmp_path / "a" / "b" / "site" / "index.html").read_bytes() == b"x"
    assert temps(tmp_path / "a" / "b") == []


def test_the_writer_itself_refuses_a_directory_it_did_not_write(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    before = tree_hash(tmp_path)
    with pytest.raises(BuildError, match="it is a non-empty directory devcontext did not write"):
        write_site([("index.html", b"x")], mine)
    assert tree_hash(tmp_path) == before


# -- nothing the build did not write is deleted ----------------------------------------------

def test_files_the_build_did_not_write_are_carried_into_the_new_site_untouched(tmp_path):
    out = tmp_path / "site"
    write_site([("index.html", b"old"), ("stale.html", b"stale"), ("objects/a.html", b"a")], out)
    (out / "CNAME").write_text("docs.example.org\n")
    (out / ".nojekyll").write_text("")
    (out / "objects" / "mine.txt").write_text("a note")
    (out / "uploads").mkdir()
    (out / "logo.png").symlink_to("objects/a.html")
    inode = (out / "CNAME").stat().st_ino
    write_site([("index.html", b"new"), ("objects/b.html", b"b")], out)
    assert files_of(out) == {
        MARKER: marker_bytes(["index.html", "objects/b.html"]),
        ".nojekyll": b"", "CNAME": b"docs.example.org\n", "index.html": b"new",
        "objects/b.html": b"b", "objects/mine.txt": b"a note",
    }
    assert (out / "uploads").is_dir() and os.readlink(out / "logo.png") == "objects/a.html"
    assert (out / "CNAME").stat().st_ino == inode  # the very same file, not a rewrite
    assert temps(tmp_path) == []


def test_a_foreign_file_where_the_new_site_writes_is_refused_and_the_site_kept(tmp_path):
    out = tmp_path / "site"
    write_site([("index.html", b"old")], out)
    (out / "about.html").write_text("my own page")
    before = tree_hash(out)
    with pytest.raises(BuildError) as caught:
        write_site([("index.html", b"new"), ("about.html", b"generated")], out)
    assert caught.value.message == (
        f"refusing to build into {out}: about.html there is not a file devcontext wrote (its "
        f"{MARKER} does not list it), and the new site has a file at that path. Move "
        "about.html out of the site, or choose another --out")
    (out / "api").write_text("a file where the site has a directory")
    with pytest.raises(BuildError, match="api there is not a file devcontext wrote .* has a "
                                         "directory at that path"):
        write_site([("api/v1/index.json", b"{}")], out)
    (out / "api").unlink()
    assert tree_hash(out) == before and temps(tmp_path) == []


def test_serving_writes_deletes_only_its_own_files_and_keeps_the_marker_exact(tmp_path):
    out = tmp_path / "site"
    tree = OutputTree(out)
    tree.write_all([("index.html", b"1"), ("objects/a.html", b"a"), ("objects/b.html", b"b")],
                   "f" * 8)
    (out / "objects" / "mine.txt").write_text("a note")
    stats = tree.update({"index.html": b"2", "objects/c.html": b"c"}, {"objects/a.html"}, "g" * 8)
    assert stats.written == ["index.html", "objects/c.html"] and stats.deleted == ["objects/b.html"]
    assert files_of(out) == {
        MARKER: marker_bytes(["index.html", "objects/a.html", "objects/c.html"]),
        "index.html": b"2", "objects/a.html": b"a", "objects/c.html": b"c",
        "objects/mine.txt": b"a note"}
    # the marker is the one a full build of the same files writes
    full = tmp_path / "full"
    write_site([("index.html", b"2"), ("objects/a.html", b"a"), ("objects/c.html", b"c")], full)
    assert (full / MARKER).read_bytes() == (out / MARKER).read_bytes()
    # a new page where a person put a file of their own: refused, their file kept
    (out / "objects" / "d.html").write_text("mine too")
    with pytest.raises(BuildError, match=r"objects/d.html there is not a file devcontext wrote"):
        tree.update({"objects/d.html": b"d"}, {"index.html", "objects/a.html", "objects/c.html"},
                    "g" * 8)
    assert (out / "objects" / "d.html").read_text() == "mine too"
    assert "objects/d.html" not in read_marker(out).files  # so no later build replaces it
    assert not [p for p in out.rglob("*") if p.name.startswith(".devcontext-tmp-")]


def test_a_per_file_temporary_left_by_a_killed_edit_is_not_carried(tmp_path):
    out = tmp_path / "site"
    write_site([("index.html", b"1"), ("objects/a.html", b"a")], out)
    (out / "objects" / ".devcontext-tmp-0123abcd").write_bytes(b"half")
    write_site([("index.html", b"2"), ("objects/a.html", b"a")], out)
    assert sorted(files_of(out)) == [MARKER, "index.html", "objects/a.html"]


# -- temporaries ----------------------------------------------------------------------------

def test_the_next_build_removes_only_its_own_stale_temporaries(tmp_path):
    out = tmp_path / "site"
    write_site([("index.html", b"1")], out)
    (out / "CNAME").write_text("x")
    write_site([("index.html", b"1")], out)
    killed = tmp_path / ".site.building-aaaa"  # a build killed while writing
    (killed / "objects").mkdir(parents=True)
    (killed / MARKER).write_bytes(marker_bytes((), building=True))
    (killed / "objects" / "a.html").write_bytes(b"a")
    swapped = tmp_path / ".site.building-bbbb"  # the previous site, killed before removal
    swapped.mkdir()
    (swapped / MARKER).write_bytes(marker_bytes(["index.html"]))
    (swapped / "index.html").write_bytes(b"0")
    os.link(out / "CNAME", swapped / "CNAME")  # carried into the live site
    empty = tmp_path / ".site.building-cccc"  # killed between mkdir and marker
    empty.mkdir()
    unmarked = tmp_path / ".site.building-dddd"  # not ours: kept
    unmarked.mkdir()
    (unmarked / "precious.txt").write_text("keep")
    user_file = tmp_path / ".site.building-eeee"  # ours, but holding a file only it has
    user_file.mkdir()
    (user_file / MARKER).write_bytes(marker_bytes(["index.html"]))
    (user_file / "added-late.txt").write_text("keep")
    live = tmp_path / ".site.building-ffff"  # a build running right now: kept
    live.mkdir()
    (live / MARKER).write_bytes(marker_bytes((), building=True))
    other = tmp_path / ".other.building-gggg"  # another output's
    other.mkdir()
    (other / MARKER).write_bytes(marker_bytes((), building=True))
    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        write_site([("index.html", b"2")], out)
    finally:
        os.close(fd)
    assert temps(tmp_path) == [".other.building-gggg", ".site.building-dddd",
                               ".site.building-eeee", ".site.building-ffff"]
    assert (unmarked / "precious.txt").read_text() == "keep"
    assert sorted(p.name for p in user_file.iterdir()) == [MARKER, "added-late.txt"]
    assert (out / "CNAME").read_text() == "x"


def test_a_failed_build_removes_its_temporary_and_keeps_the_previous_site(tmp_path):
    out = tmp_path / "site"
    write_site([("index.html", b"old")], out)
    (out / "CNAME").write_text("x")
    before = tree_hash(out)

    def failing():
        yield "index.html", b"new"
        raise BuildError("boom")

    with pytest.raises(BuildError, match="boom"):
        write_site(failing(), out)
    assert tree_hash(out) == before and temps(tmp_path) == []


def test_without_rename_exchange_two_renames_are_used_and_a_cut_between_them_recovers(
        tmp_path, monkeypatch):
    out = tmp_path / "site"
    write_site([("index.html", b"A")], out)
    (out / "CNAME").write_text("x")
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    write_site([("index.html", b"B")], out)
    assert files_of(out)["index.html"] == b"B" and (out / "CNAME").read_text() == "x"
    assert temps(tmp_path) == []
    # the state a kill between the two renames leaves: no output, the previous site moved
    # aside, the new one complete under its temporary name
    previous = tree_hash(out)
    os.rename(out, tmp_path / ".site.old-1234")
    new = tmp_path / ".site.building-5678"
    new.mkdir()
    (new / "index.html").write_bytes(b"C")
    (new / MARKER).write_bytes(marker_bytes(["index.html"]))
    clean_stale_temps(out)
    assert tree_hash(out) == previous and temps(tmp_path) == []


def test_renameat2_exchange_is_available_here(tmp_path):
    """Measures what this machine supports (the crash guarantee is strongest with it)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("RENAME_EXCHANGE is Linux only")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "in-a").write_text("")
    assert writer._exchange(str(tmp_path / "a"), str(tmp_path / "b"))
    assert os.listdir(tmp_path / "b") == ["in-a"] and os.listdir(tmp_path / "a") == []


# -- crashes --------------------------------------------------------------------------------

_KILL_AT = textwrap.dedent("""
    import os, signal, sys
    from generator import writer
    point, out, version = sys.argv[1], sys.argv[2], sys.argv[3]
    def die(*a, **k):
        os.kill(os.getpid(), signal.SIGKILL)
    if point == "before-swap":
        writer._exchange = die
    elif point == "after-swap":
        writer._discard = die
    elif point == "between-renames":
        writer._exchange = lambda a, b: False
        real, calls = os.rename, []
        def rename(a, b):
            calls.append(a)
            if len(calls) == 2:
                die()
            real(a, b)
        os.rename = rename
    files = [(f"objects/{i}.html", (version * 1000).encode()) for i in range(200)]
    writer.write_site(files + [("index.html", version.encode())], out)
""")


@pytest.mark.parametrize("point", ["before-swap", "after-swap", "between-renames"])
def test_a_kill_at_each_step_of_the_swap_leaves_the_previous_or_the_new_site(tmp_path, point):
    out = tmp_path / "site"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    subprocess.run([sys.executable, "-c", _KILL_AT, "none", str(out), "A"], env=env, check=True)
    (out / "CNAME").write_text("x")
    previous = tree_hash(out)
    proc = subprocess.run([sys.executable, "-c", _KILL_AT, point, str(out), "B"], env=env,
                          check=False)
    assert proc.returncode == -signal.SIGKILL
    if point == "between-renames":
        assert not out.exists()  # the one state the fallback has; the next build recovers
        clean_stale_temps(out)
    state = files_of(out)
    assert state["index.html"] == (b"A" if point != "after-swap" else b"B")
    assert state["CNAME"] == b"x"
    if point != "after-swap":
        assert tree_hash(out) == previous
    write_site([("index.html", b"C")], out)
    assert temps(tmp_path) == [] and (out / "CNAME").read_text() == "x"


def _run_build(repo: Path, out: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "generator", "build", "--repo", str(repo),
                             "--out", str(out), "-q"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def test_a_build_killed_at_random_moments_leaves_the_previous_or_the_new_site(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8", "TZ": "UTC",
           "HOME": str(tmp_path), "DEVCONTEXT_WORKERS": "1"}
    layers = {"a": synthesize("small"), "b": synthesize("small", issues=30)}
    out, ref = tmp_path / "site", tmp_path / "ref"
    hashes, took = {}, []
    for name, files in layers.items():
        write_layer(files, tmp_path / name)
        started = time.monotonic()
        proc = _run_build(tmp_path / name, ref, env)
        assert proc.wait(120) == 0, proc.stderr.read()
        took.append(time.monotonic() - started)
        (ref / "CNAME").write_text("docs.example.org\n")  # a file the build did not write
        hashes[name] = tree_hash(ref)
    assert hashes["a"] != hashes["b"]
    # out: a complete build of b (ref, moved), then builds alternate, each killed
    os.rename(ref, out)
    current, spent, runs = "b", 0.0, 0
    duration = max(took)
    rng = random.Random(20261201)
    while runs < 3 or (spent < 12.0 and runs < 6):
        other = "a" if current == "b" else "b"
        started = time.monotonic()
        proc = _run_build(tmp_path / other, out, env)
        time.sleep(duration * rng.uniform(0.3, 1.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
        spent += time.monotonic() - started
        runs += 1
        found = tree_hash(out)
        assert found in (hashes[current], hashes[other]), (
            f"run {runs}: killed after {time.monotonic() - started:.2f}s, the site is neither "
            "the previous build nor the new one")
        print(f"run {runs}: {'new' if found == hashes[other] else 'previous'}")
        current = other if found == hashes[other] else current
    other = "a" if current == "b" else "b"
    proc = _run_build(tmp_path / other, out, env)
    assert proc.wait(120) == 0, proc.stderr.read()
    assert tree_hash(out) == hashes[other]
    assert temps(tmp_path) == []
