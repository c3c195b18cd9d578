"""Decisions: versioned project rules (with dependencies, some dangling on purpose) and ADRs
(with supersede chains, one superseding a number that is not held)."""

from __future__ import annotations

import random
from datetime import timedelta

from .plan import Plan
from .shapes import MISSING_RULE
from .text import EPOCH, Unique, cap, date_raw, slugify, weighted
from .vocabulary import (
    ADR_STATUS_WEIGHTS,
    ADR_STATUSES,
    ADR_SUBJECTS,
    RULE_PREDICATES,
    RULE_SUBJECTS,
    TAGS,
)
from .yamltext import Flow, front_matter, yaml_text


def write_rules(plan: Plan) -> None:
    shape, rng = plan.shape, plan.rng("rules")
    combos = [(s, p) for s in RULE_SUBJECTS for p in RULE_PREDICATES]
    unique = Unique()
    count = shape.rules
    picks = rng.sample(combos, min(count, len(combos)))
    while len(picks) < count:  # pragma: no cover - more rules than combinations
        picks.append(combos[rng.randrange(len(combos))])
    plan.rule_ids: list[str] = []
    plan.rule_latest: dict[str, int] = {}
    two_versions = {i for i in range(count) if rng.random() < 0.12}
    if count >= 5 and not two_versions:
        two_versions.add(rng.randrange(count))
    deprecated = {i for i in range(count) if rng.random() < 0.07}
    if count >= 5 and not deprecated:
        deprecated.add(rng.randrange(count))
    blocking = [rng.random() < 0.2 for _ in range(count)]
    if count >= 3 and not any(blocking):
        blocking[rng.randrange(count)] = True
    for i, (subject, predicate) in enumerate(picks):
        title = cap(f"{subject} {predicate}")
        slug = unique(slugify(title))
        rid = f"project.{slug}"
        latest = 2 if i in two_versions else 1
        plan.rule_ids.append(rid)
        plan.rule_latest[rid] = latest
        deps: list[str] = []
        if i and rng.random() < 0.55:
            for j in sorted(rng.sample(range(i), min(i, rng.randint(1, 2)))):
                dep = plan.rule_ids[j]
                version = plan.rule_latest[dep]
                if version > 1 and rng.random() < 0.25:
                    version = 1
                deps.append(f"{dep}@{version}")
        if count >= 2 and i == count - 1:
            # Deliberately dangling: a version that was never written, and a rule that
            # was never written at all.
            first = plan.rule_ids[0]
            deps.append(f"{first}@{plan.rule_latest[first] + 1}")
            deps.append(f"{MISSING_RULE}@1")
        area, module = plan.any_module(rng)
        plan.rules_of_area.setdefault(area, []).append(rid)
        tags = Flow(sorted(rng.sample(TAGS, rng.randint(1, 3))))
        for version in range(1, latest + 1):
            status = "active"
            if version == latest and i in deprecated:
                status = "deprecated"
            elif version < latest and rng.random() < 0.5:
                status = "deprecated"
            if version == latest:
                plan.rule_active[rid] = status == "active"
            plan.put(
                f".ai/repo/rules/project/{slug}.v{version}.md",
                rule_text(plan, rng, rid, version, title, status,
                               "blocking" if blocking[i] else "advisory", deps, tags,
                               area, module),
            )


def rule_text(plan: Plan, rng: random.Random, rid: str, version: int, title: str, status: str,
              klass: str, deps: list[str], tags: list[str], area: str, module: str) -> str:
    w = plan.words(rng, area, module)
    meta: dict[str, object] = {
        "id": rid,
        "version": version,
        "kind": "rule",
        "title": title,
        "description": plan.sentences(rng, area, module, rng.randint(1, 3)),
        "statement": f"{title}; in {area}.{module} the {w['noun']} is where it is checked.",
        "status": status,
        "class": klass,
        "depends_on": Flow(deps),
        "tags": tags,
    }
    extra = ""
    if rng.random() < 0.6:
        x = {
            "validator": rng.choice(("context", "plan", "scope", "evidence")),
            "enforced_by": Flow(["check"] if rng.random() < 0.5 else ["check", "build"]),
            "tests": Flow([f"tests/{area}/test_{module}.py"]),
        }
        # The real layer leaves a blank line inside the front matter before this block.
        extra = "\n" + yaml_text({"x-majordomus": x})
    body = (
        f"# Rationale\n\n{plan.paragraphs(rng, area, module, 1, 3)}\n\n"
        f"# Required behaviour\n\n{plan.paragraphs(rng, area, module, 1, 2)}\n\n"
        f"# Failure behaviour\n\n{plan.sentences(rng, area, module, rng.randint(1, 3))}\n\n"
        f"# Verification\n\n```sh\npython -m pytest tests/{area}/test_{module}.py -q\n```\n"
    )
    return front_matter(meta, body, extra)

# -- milestones --------------------------------------------------------------------------


def write_adrs(plan: Plan) -> None:
    shape, rng = plan.shape, plan.rng("adrs")
    count = shape.adrs
    # Numbers 1..count+1 with one gap; the ADR after the gap supersedes the missing one.
    gap = max(2, count // 2)
    numbers = [k for k in range(1, count + 2) if k != gap]
    supersedes: dict[int, list[int]] = {}
    superseded: set[int] = set()
    free = list(range(count))
    for k in range(max(1, count // 12)):
        length = 3 if k == 0 else rng.choice((2, 2, 3))  # at least one chain of three
        if len(free) < length:
            break
        chain = sorted(rng.sample(free, length))
        for index in chain:
            free.remove(index)
        for earlier, later in zip(chain, chain[1:]):
            supersedes.setdefault(later, []).append(numbers[earlier])
            superseded.add(earlier)
    step = 540.0 / count
    for index, number in enumerate(numbers):
        area, module = plan.any_module(rng)
        title = rng.choice(ADR_SUBJECTS).format(area=area, Area=cap(area), module=module)
        status = weighted(rng, ADR_STATUSES, ADR_STATUS_WEIGHTS)
        if index in superseded:
            status = "superseded" if rng.random() < 0.9 else "accepted"
        elif index in supersedes:
            status = "accepted" if rng.random() < 0.8 else "proposed"
        plan.adrs_of_area.setdefault(area, []).append((f"adr-{number:04d}", status))
        refs = [f"adr-{k:04d}" for k in supersedes.get(index, [])]
        if number == gap + 1:
            refs.append(f"adr-{gap:04d}")  # deliberately dangling
        when = EPOCH + timedelta(days=index * step + rng.uniform(0, step))
        tags = sorted(rng.sample(TAGS, rng.randint(1, 3)))
        related: list[str] = []
        for _ in range(rng.randint(1, 2)):
            related.append(f"rule:{plan.rule_ids[rng.randrange(len(plan.rule_ids))]}")
        related.append(f"file:{plan.src_file(rng, area, module)}")
        if rng.random() < 0.6:
            related.append(f"test:tests/{area}/test_{module}.py")
        meta: dict[str, object] = {
            "schema": "adr/v1",
            "id": f"adr-{number:04d}",
            "kind": "adr",
            "title": title,
            "status": status,
            "date": date_raw(when),
            "tags": Flow(tags) if rng.random() < 0.5 else tags,
            "related": list(dict.fromkeys(related)),
        }
        if refs:
            meta["supersedes"] = Flow(refs)
        meta["provenance"] = (
            {"origin": "authored"} if rng.random() < 0.7
            else {"origin": "extracted",
                  "derived_from": [f"file:{plan.src_file(rng, area, module)}"]}
        )
        body = [f"# {number}. {title}", "", "## Context", "",
                plan.paragraphs(rng, area, module, 1, 4), "", "## Decision", "",
                plan.paragraphs(rng, area, module, 1, 3), ""]
        if refs:
            body += [f"This decision replaces {', '.join(r.upper() for r in refs)}.", ""]
        if rng.random() < 0.5:
            body += ["## Alternatives rejected", "",
                     plan.paragraphs(rng, area, module, 1, 2), ""]
        body += ["## Consequences", "", plan.paragraphs(rng, area, module, 1, 2), ""]
        slug = slugify(title)
        plan.put(f".ai/repo/adrs/{number:04d}-{slug}.md", front_matter(meta, "\n".join(body)))

# -- knowledge, use cases, sessions ------------------------------------------------------
