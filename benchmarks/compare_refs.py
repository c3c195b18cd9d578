"""`make compare REFS="a b"`: the full build of the same layers at two git refs, side by side.

The machine is shared and noisy, so the two refs are timed in one run, alternating (a, b
then b, a, round after round), and compared by their medians. Each ref is checked out in
a temporary ``git worktree`` and run with this checkout's interpreter and virtual
environment (``python -m generator.cli build``, with the worktree first on the path), so
only the code differs. Each build writes a fresh output directory; the SHA-256 over each
whole tree (every path and its bytes) says whether the two refs built the same site.

Layers: the bundled demo, the real layer in ../shared (when present) and synthetic
``medium`` (written once under .bench/ by this checkout's ``synth``, the same input for
both refs). Prints a table and writes ``.bench/compare.json``. Not part of ``make test``.

    python -m benchmarks.compare_refs f3033b1 HEAD --rounds 3 --layers demo,real,medium
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".bench"
LAYERS = ("demo", "real", "medium")


@dataclass
class Checkout:
    """One ref, checked out in a temporary worktree."""

    ref: str
    commit: str
    path: Path
    times: dict[str, list[float]] = field(default_factory=dict)
    trees: dict[str, str] = field(default_factory=dict)


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def _commit_of(ref: str) -> str:
    try:
        return _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"compare_refs: `{ref}` names no commit in {ROOT}; give a branch, a tag "
                         "or a commit hash (`git log --oneline` lists them)") from None


def _layer_repo(name: str) -> Path | None:
    """The ``--repo`` a layer is built from (None: the bundled demo)."""
    if name == "demo":
        return None
    if name == "real":
        from benchmarks.layers import real
        return real()
    from benchmarks.layers import synthetic
    return synthetic(name)


def _env(checkout: Checkout) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEVCONTEXT_")}
    env["PYTHONPATH"] = str(checkout.path)
    env.setdefault("LC_ALL", "C.UTF-8")
    env["TZ"] = "UTC"
    if "DEVCONTEXT_WORKERS" in os.environ:
        env["DEVCONTEXT_WORKERS"] = os.environ["DEVCONTEXT_WORKERS"]
    return env


def _check_imports(checkout: Checkout) -> None:
    """The worktree's ``generator`` is the one a build imports, not this checkout's."""
    found = subprocess.run([sys.executable, "-c", "import generator; print(generator.__file__)"],
                           cwd=checkout.path, env=_env(checkout), check=True,
                           capture_output=True, text=True).stdout.strip()
    if not Path(found).resolve().is_relative_to(checkout.path.resolve()):
        raise SystemExit(f"compare_refs: the build of {checkout.ref} would import {found}, not "
                         f"its own checkout {checkout.path}; run from a virtual environment "
                         "whose generator is an editable install (`make .venv/.installed`)")


def tree_sha256(root: Path) -> str:
    """SHA-256 over every file of ``root``: its relative path, NUL, its bytes, NUL, sorted."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _build(checkout: Checkout, layer: str, repo: Path | None, scratch: Path) -> float:
    """Seconds one full build takes (process start to exit); the tree's hash is kept."""
    out = scratch / f"site-{layer}"
    shutil.rmtree(out, ignore_errors=True)
    argv = [sys.executable, "-m", "generator.cli", "build", "--out", str(out)]
    if repo is not None:
        argv += ["--repo", str(repo)]
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=checkout.path, env=_env(checkout), capture_output=True,
                          text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"compare_refs: building {layer} at {checkout.ref} failed (exit "
                         f"{done.returncode}):\n{done.stderr.strip()}")
    checkout.trees.setdefault(layer, tree_sha256(out))
    shutil.rmtree(out, ignore_errors=True)
    return seconds


def _worktree(ref: str, into: Path) -> Checkout:
    commit = _commit_of(ref)
    _git("worktree", "add", "--detach", "--quiet", str(into), commit)
    return Checkout(ref=ref, commit=commit, path=into)


def compare(refs: tuple[str, str], layers: list[str], rounds: int) -> dict:
    """Time every layer's build at both refs, alternating, ``rounds`` times each."""
    scratch = Path(tempfile.mkdtemp(prefix="devcontext-compare-"))
    checkouts: list[Checkout] = []
    try:
        for i, ref in enumerate(refs):
            checkouts.append(_worktree(ref, scratch / f"ref{i}"))
        for checkout in checkouts:
            _check_imports(checkout)
        repos = {name: _layer_repo(name) for name in layers}
        for name in [n for n in layers if n != "demo" and repos[n] is None]:
            print(f"  ({name}: layer not present, skipped)", flush=True)
            layers = [n for n in layers if n != name]
        for n in range(rounds):
            order = checkouts if n % 2 == 0 else checkouts[::-1]
            for layer in layers:
                for checkout in order:
                    seconds = _build(checkout, layer, repos[layer], scratch)
                    checkout.times.setdefault(layer, []).append(seconds)
                    print(f"  round {n + 1} {layer:<7} {checkout.ref:<12} {seconds:8.2f} s",
                          flush=True)
        return _result(checkouts, layers, rounds)
    finally:
        for checkout in checkouts:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(checkout.path)], capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


def _result(checkouts: list[Checkout], layers: list[str], rounds: int) -> dict:
    a, b = checkouts
    rows = []
    for layer in layers:
        median_a = statistics.median(a.times[layer])
        median_b = statistics.median(b.times[layer])
        rows.append({
            "layer": layer,
            "seconds": {a.ref: a.times[layer], b.ref: b.times[layer]},
            "median": {a.ref: median_a, b.ref: median_b},
            "ratio": median_b / median_a,
            "tree_sha256": {a.ref: a.trees[layer], b.ref: b.trees[layer]},
            "identical": a.trees[layer] == b.trees[layer],
        })
    return {
        "refs": [{"ref": c.ref, "commit": c.commit} for c in checkouts],
        "rounds": rounds,
        "workers": os.environ.get("DEVCONTEXT_WORKERS", "default"),
        "python": sys.version.split()[0],
        "layers": rows,
    }


def table(result: dict) -> str:
    """The result as a fixed-width table: medians, the ratio (second / first), the trees."""
    a, b = (r["ref"] for r in result["refs"])
    lines = [f"{'layer':<8} {a:>12} {b:>12} {'ratio':>7}  tree sha256 ({a} / {b})"]
    for row in result["layers"]:
        trees = row["tree_sha256"]
        same = trees[a][:16] + " (identical)" if row["identical"] else (
            f"{trees[a][:16]} / {trees[b][:16]} (DIFFERENT)")
        lines.append(f"{row['layer']:<8} {row['median'][a]:>10.2f} s {row['median'][b]:>10.2f} s "
                     f"{row['ratio']:>7.3f}  {same}")
    lines.append(f"medians of {result['rounds']} alternating round(s); ratio = {b} / {a} "
                 "(below 1: the second ref is faster)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare_refs",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("refs", nargs=2, metavar="REF", help="two git refs (first is the base)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--layers", default=",".join(LAYERS),
                        help=f"comma-separated, of {', '.join(LAYERS)} (default all)")
    args = parser.parse_args(argv)
    layers = [n.strip() for n in args.layers.split(",") if n.strip()]
    unknown = [n for n in layers if n not in LAYERS]
    if unknown or not layers:
        parser.error(f"--layers: unknown layer {', '.join(unknown) or '(none given)'}; "
                     f"choose from {', '.join(LAYERS)}")
    if args.rounds < 1:
        parser.error(f"--rounds is {args.rounds}; it must be 1 or more")
    result = compare((args.refs[0], args.refs[1]), layers, args.rounds)
    OUT.mkdir(exist_ok=True)
    (OUT / "compare.json").write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(table(result))
    print(f"wrote {OUT / 'compare.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
