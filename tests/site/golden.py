"""Golden files of the demo layer's site.

``tests/site/golden/`` holds readable copies of the key pages and JSON files, and
``MANIFEST.sha256`` holds the digest of every file of the site, so any change anywhere in
the output shows up. Regenerate after an intended change with::

    make golden            # or: .venv/bin/python tests/site/golden.py

and read the diff before committing it.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

#: The files kept whole (readable diffs); everything else is covered by the manifest.
KEPT = (
    "index.html",
    "plan.html",
    "diagnostics.html",
    "contexts/issue/I0201.html",
    "contexts/milestone/offline-reads.html",
    "contexts/issue/I0201.pack.md",
    "objects/rule/project.stale-data-is-labelled@2.html",
    "objects/adr/adr-0005.html",
    "api/v1/index.json",
    "api/v1/devcontext/compile/issue/I0201.json",
    "api/v1/objects/issue/I0104.json",
)


def manifest(tree: dict[str, bytes]) -> str:
    return "".join(f"{hashlib.sha256(data).hexdigest()}  {path}\n" for path, data in sorted(tree.items()))


def build_demo(out: Path) -> dict[str, bytes]:
    from sitekit import build, tree_bytes

    build(None, out)
    return tree_bytes(out)


def regenerate() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tree = build_demo(Path(tmp) / "site")
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    for rel in KEPT:
        path = GOLDEN / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(tree[rel])
    (GOLDEN / "MANIFEST.sha256").write_text(manifest(tree), encoding="utf-8")
    print(f"wrote {len(KEPT)} golden files and a manifest of {len(tree)} to {GOLDEN}")


if __name__ == "__main__":
    regenerate()
