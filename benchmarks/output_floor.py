"""How far a built site's output could shrink with every exclusion still listed: a script
run by hand (not a ``bench_`` module), ``python -m benchmarks.output_floor SITE [--every N]``.

It reads the compiled answers' JSON under ``SITE`` (every ``N``-th, scaled up) and prints
the bytes of each kind of file, then what the answers' JSON would weigh with each
exclusion's ``detail`` cut to its least sentence (the budget that brings it in, without the
bound and the refit allowance) and with no ``detail`` at all — the floor of a row that
keeps the fields the contract requires (``uri``, ``kind``, ``tier``, ``reason``,
``cost_tokens``, ``relevance``). Issue 17 quotes these against its 4 GB target."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

#: What a budget refusal's detail says past the budget that brings it in.
_BOUND = re.compile(r" \(none below [\d,]+ can(; not searched past [\d,]+ refusals)?\)")


def _compact(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _kind_of(rel: str) -> str:
    if rel.startswith("api/v1/devcontext/compile/"):
        return "compiled JSON"
    if rel.startswith("contexts/"):
        return "packs" if ".pack." in rel else "context pages"
    if rel.startswith("objects/"):
        return "object pages"
    if rel.startswith("api/v1/objects/"):
        return "object JSON"
    return "the rest"


def measure(site: Path, every: int = 1) -> dict[str, float]:
    sizes: dict[str, int] = {}
    for path in site.rglob("*"):
        if path.is_file():
            kind = _kind_of(path.relative_to(site).as_posix())
            sizes[kind] = sizes.get(kind, 0) + path.stat().st_size
    answers = sorted((site / "api/v1/devcontext/compile").rglob("*.json"))
    sample = answers[::every]
    rows = now = least = bare = 0
    for path in sample:
        excluded = json.loads(path.read_bytes())["excluded"]
        rows += len(excluded)
        for row in excluded:
            now += _compact(row) + 1  # and its comma
            least += _compact({**row, "detail": _BOUND.sub("", row["detail"])}) + 1
            bare += _compact({**row, "detail": ""}) + 1
    scale = len(answers) / max(1, len(sample))
    found = {f"bytes: {k}": float(v) for k, v in sorted(sizes.items())}
    found.update({
        "answers": float(len(answers)), "exclusion rows": rows * scale,
        "exclusion rows' JSON now": now * scale,
        "with the least detail": least * scale, "with no detail": bare * scale,
    })
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="read every N-th answer and scale up (default: all)")
    args = parser.parse_args()
    found = measure(args.site, max(1, args.every))
    total = sum(v for k, v in found.items() if k.startswith("bytes: "))
    print(f"{'all output':<32} {total / 1e9:8.2f} GB")
    for name, value in found.items():
        if name.startswith("bytes: "):
            print(f"{name[7:]:<32} {value / 1e9:8.2f} GB")
    rows = found["exclusion rows"]
    print(f"{'exclusion rows':<32} {rows:12,.0f} ({rows / found['answers']:,.0f} an answer)")
    for name in ("exclusion rows' JSON now", "with the least detail", "with no detail"):
        value = found[name]
        print(f"{name:<32} {value / 1e9:8.2f} GB ({value / rows:,.0f} bytes a row)")


if __name__ == "__main__":
    main()
