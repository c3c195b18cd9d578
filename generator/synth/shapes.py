"""The shape of a synthetic layer: how many objects of each kind, per named size.

Also the few names the generator never produces (the targets of its deliberately dangling
references) and the marker that tells an earlier synth output from a real repository.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.errors import InputError


@dataclass(frozen=True)
class Shape:
    """How many objects of each kind a synthetic layer holds.

    ``areas * modules_per_area`` Python packages are written under ``src/``, each with
    ``files_per_module`` files (one of them ``__init__.py``) and one test file under
    ``tests/<area>/``. ``rules`` counts rule identities; about one in eight also exists at
    version 2 (both files present).
    """

    milestones: int
    issues: int
    adrs: int
    rules: int
    knowledge: int
    sessions: int
    use_cases: int
    areas: int
    modules_per_area: int
    files_per_module: int


SIZES: dict[str, Shape] = {
    "small": Shape(
        milestones=3, issues=24, adrs=12, rules=15, knowledge=3, sessions=6, use_cases=3,
        areas=3, modules_per_area=3, files_per_module=3,
    ),
    "medium": Shape(
        milestones=40, issues=1000, adrs=100, rules=60, knowledge=20, sessions=200, use_cases=12,
        areas=12, modules_per_area=8, files_per_module=6,
    ),
    "large": Shape(
        milestones=400, issues=10000, adrs=1000, rules=400, knowledge=200, sessions=2500,
        use_cases=100, areas=40, modules_per_area=25, files_per_module=15,
    ),
}

#: Bumped when the output changes shape on purpose; part of every seed.
GENERATION = "devcontext-synth/1"

# Names the generator never produces, used by the deliberately dangling references.
MISSING_MILESTONE = "foundation"
MISSING_RULE = "project.externalise-decisions"
# Under the `source` class (src/**/*.py), so the product reports it unresolved, not external.
MISSING_TRACKED_PATH = "src/legacy_bridge/adapter.py"

MANIFEST_MARKER = "generator.synth"


def resolve_shape(size: str, issues: int | None) -> Shape:
    """``SIZES[size]``, with ``issues`` (when given) overriding the issue count and scaling
    milestones, ADRs and sessions with it; bad arguments are an :class:`InputError`."""
    if not isinstance(size, str) or size not in SIZES:
        valid = ", ".join(sorted(SIZES))
        raise InputError(f"unknown synthetic layer size {size!r}; valid sizes: {valid}",
                         field="size")
    shape = SIZES[size]
    if issues is None:
        return shape
    if isinstance(issues, bool) or not isinstance(issues, int) or issues < 0:
        raise InputError(f"issues must be a whole number >= 0, found {issues!r}", field="issues")
    ratio = issues / shape.issues
    return replace(
        shape,
        issues=issues,
        milestones=max(1, round(shape.milestones * ratio)),
        adrs=max(2, round(shape.adrs * ratio)),
        sessions=max(1, round(shape.sessions * ratio)),
    )


# --------------------------------------------------------------------------------------------
