"""What the contexts of a layer spend, tier by tier: the median over every issue context
(and, separately, every milestone context) of the entries selected and the tokens spent
per tier, the median number of objects a context names, and how many ADRs, rules,
knowledge notes and use cases no answer names at all.

    python -m benchmarks.tier_medians --repo DIR [--repo DIR ...] [--synth medium ...]
        [--kind issue|milestone] [--every N]

With neither option it measures the real layer (when present) and ``medium``. The numbers
are the default request of the site (``--issue ID`` / ``--milestone ID``), without a git
branch, so they are the same on every machine. Printed as Markdown tables.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator.engine.compile import GitInfo, compile_context
from generator.engine.models import TIER_ORDER, CompiledContext, CompileInput
from generator.index import Index

__all__ = ["LayerFigures", "measure", "main"]

#: Kinds the linking of a layer is judged by: is any of them named by no answer?
LINKED_KINDS = ("adr", "rule", "knowledge", "use-case")


@dataclass(frozen=True)
class LayerFigures:
    label: str
    contexts: int
    #: tier -> (median selected, median tokens)
    tiers: dict[str, tuple[float, float]]
    named: float
    selected: float
    used: float
    #: kind -> (objects of the kind, objects of it no answer names)
    unnamed: dict[str, tuple[int, int]]


def _median(values: list[int]) -> float:
    return statistics.median(values) if values else 0


def measure(label: str, index: Index, kind: str = "issue", every: int = 1) -> LayerFigures:
    """Compile every context of ``kind`` (every ``every``-th one, for the large layer) at the
    default request and take the medians."""
    by_kind: dict[str, list[CompiledContext]] = {}
    for k in ("issue", "milestone"):
        by_kind[k] = [compile_context(index, CompileInput(**{k: obj.identity}), git=GitInfo())
                      for i, obj in enumerate(index.by_kind.get(k, [])) if i % every == 0]
    answers = by_kind[kind]
    # "named by an answer" counts issue and milestone contexts both, as the site compiles
    named_any: set[str] = set()
    for a in by_kind["issue"] + by_kind["milestone"]:
        named_any.update(_named(a))
    tiers: dict[str, tuple[float, float]] = {}
    for tier in TIER_ORDER:
        rows = [next(t for t in a.budget.tiers if t.tier is tier) for a in answers]
        tiers[tier.value] = (_median([r.selected for r in rows]), _median([r.tokens for r in rows]))
    unnamed = {}
    for k in LINKED_KINDS:
        objs = index.by_kind.get(k, [])
        unnamed[k] = (len(objs), sum(1 for o in objs if o.uri not in named_any))
    return LayerFigures(
        label=label, contexts=len(answers), tiers=tiers,
        named=_median([len(_named(a)) for a in answers]),
        selected=_median([len(a.selected) for a in answers]),
        used=_median([a.budget.used_tokens for a in answers]),
        unnamed=unnamed)


def _named(answer: CompiledContext) -> set[str]:
    """The objects an answer names: selected, excluded (resolved ones) and folded."""
    names = {e.uri for e in answer.selected}
    names.update(x.uri for x in answer.excluded if x.kind is not None)
    for d in answer.deduplicated:
        names.update(d.dropped)
    return names


def _fmt(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def render(figures: list[LayerFigures], kind: str) -> str:
    head = ["layer", f"{kind} contexts", "named", "selected", "used"] + [
        f"{t.value} sel / tok" for t in TIER_ORDER]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for f in figures:
        cells = [f.label, str(f.contexts), _fmt(f.named), _fmt(f.selected), _fmt(f.used)] + [
            f"{_fmt(f.tiers[t.value][0])} / {_fmt(f.tiers[t.value][1])}" for t in TIER_ORDER]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("objects no compiled answer names (of all of the kind):")
    lines.append("")
    lines.append("| layer | " + " | ".join(LINKED_KINDS) + " |")
    lines.append("|---|" + "---|" * len(LINKED_KINDS))
    for f in figures:
        lines.append(f"| {f.label} | " + " | ".join(
            f"{f.unnamed[k][1]} of {f.unnamed[k][0]}" for k in LINKED_KINDS) + " |")
    return "\n".join(lines) + "\n"


def _open(path: Path) -> Index:
    from generator.workspace import Workspace

    return Workspace.open(path).index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tier_medians",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", action="append", default=[], metavar="DIR",
                        help="a repository holding .ai/manifest.yaml (repeatable)")
    parser.add_argument("--synth", action="append", default=[], metavar="SIZE",
                        choices=("small", "medium", "large"),
                        help="a synthetic layer of this size, written to a temporary directory")
    parser.add_argument("--kind", choices=("issue", "milestone"), default="issue",
                        help="which contexts to take the medians over (default: issue)")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="compile every N-th context only (default 1: all; the large "
                        "synthetic layer has 10,400)")
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error(f"--every {args.every}: expected a whole number of at least 1")
    repos = [Path(r) for r in args.repo]
    sizes = list(args.synth)
    if not repos and not sizes:
        from .layers import real

        found = real()
        repos = [found] if found else []
        sizes = ["medium"]
    figures = []
    for repo in repos:
        if not (repo / ".ai" / "manifest.yaml").is_file():
            print(f"tier_medians: --repo {repo}: expected .ai/manifest.yaml there, found none; "
                  "name a repository root holding an AI layer", file=sys.stderr)
            return 2
        figures.append(measure(repo.name, _open(repo), args.kind, args.every))
    for size in sizes:
        from generator.synth import synthesize, write_layer

        with tempfile.TemporaryDirectory(prefix=f"tier-medians-{size}-") as tmp:
            write_layer(synthesize(size), Path(tmp))
            figures.append(measure(size, _open(Path(tmp)), args.kind, args.every))
    sys.stdout.write(render(figures, args.kind))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
