"""Deterministic synthetic AI layers (format ``ai-repository/v1``).

:func:`synthesize` builds, in memory, a whole repository carrying an AI layer that looks like a
real one (the shapes of ``../shared/data/majordomus-layer``): manifest, policy, scope, knowledge
sources, profiles, prompts, the project model (milestones and issues with lifecycle facts, and
the intents the issues serve, governed by the decisions and rules of their area),
ADRs with supersede chains, versioned rules, directory contracts, curated knowledge, session
records, use cases, and the Python source and tests that the issues scope. It returns
``{repo-relative path: bytes}``, sorted by path; the same arguments give the same bytes on every
machine and under every ``PYTHONHASHSEED`` (string-seeded :class:`random.Random`, no clock, no
``hash()``, no set iteration). :func:`write_layer` puts such a mapping on disk.

A few references dangle on purpose, because real layers have them and the product must report
them: an issue depends on an issue id that was never written (a gap in the numbering), an ADR
supersedes an ADR number that is not held (same), a rule depends on a rule version and on a rule
that do not exist, a directory contract tracks a path that does not exist, and a milestone
depends on a milestone that does not exist. A few issue titles carry an unquoted ``": "``
(the layer's YAML dialect allows it; a strict parser refuses it).

The YAML is written by small helpers (:mod:`.yamltext`), not by a YAML library, so the output
stays byte-stable and looks hand-written (flow lists for tags, block lists elsewhere, dates
unquoted).

The modules, in the order a layer is made: :mod:`.shapes` (how many of each kind),
:mod:`.vocabulary` and :mod:`.text` (words and small helpers), :mod:`.plan` (the seeded state the
stages share, and the code tree), then one module per stage -- :mod:`.decisions` (rules, ADRs),
:mod:`.project` (milestones, issues), :mod:`.intents` (what each milestone's work is for,
and the decisions governing it), :mod:`.records` (knowledge, use cases, sessions),
:mod:`.config` (directory contracts, manifest, policy, profiles), :mod:`.sources` (Python source
and tests) -- and :mod:`.writing` (on disk).
"""

from __future__ import annotations

from .config import write_config, write_contexts
from .decisions import write_adrs, write_rules
from .intents import plan_intents, write_intents
from .plan import Plan
from .project import plan_milestones, write_issues
from .records import write_knowledge, write_sessions, write_use_cases
from .shapes import GENERATION, SIZES, Shape, resolve_shape
from .sources import write_sources
from .writing import write_layer

__all__ = ["SIZES", "Shape", "synthesize", "write_layer"]

#: The stages, in the order they run: each reads the facts the earlier ones left on the plan.
_STAGES = (
    write_rules, plan_milestones, plan_intents, write_issues, write_adrs, write_intents,
    write_knowledge, write_use_cases, write_sessions, write_contexts, write_config,
    write_sources,
)


def synthesize(size: str = "small", *, issues: int | None = None) -> dict[str, bytes]:
    """Pure: repo-relative path (forward slashes) -> file bytes. Same arguments -> same bytes.

    ``issues`` overrides the issue count of ``size``; milestones, ADRs and session records
    scale with it (at least one milestone, two ADRs and one session); the rest of the shape
    stays the size's. An unknown ``size`` or a negative ``issues`` is an
    :class:`~generator.errors.InputError`.
    """
    shape = resolve_shape(size, issues)
    seed = f"{GENERATION}|{size}|{shape.issues}"
    plan = Plan(shape, seed)
    for stage in _STAGES:
        stage(plan)
    return plan.encoded()
