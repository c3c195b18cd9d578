"""The project model: milestones (ordered outcomes over areas) and issues (a dependency DAG,
lifecycle facts in time order, evidence for what was verified)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from .intents import serves_of
from .plan import ACTIVE, CANCELLED, DONE, NEW, VERIFY, Issue, Plan
from .shapes import MISSING_MILESTONE
from .text import EPOCH, Unique, date_raw, datetime_raw, hex_digits, slugify, weighted
from .vocabulary import (
    DEP_COUNTS,
    DEP_WEIGHTS,
    ISSUE_PREDICATES,
    MILESTONE_PHRASES,
    NOUNS,
    PRIORITIES,
    PRIORITY_WEIGHTS,
    RISKS,
    VERBS,
)
from .yamltext import Raw, yaml_text


def plan_milestones(plan: Plan) -> None:
    shape, rng = plan.shape, plan.rng("milestones")
    count = shape.milestones
    combos = [(a, p) for a in plan.areas for p in MILESTONE_PHRASES]
    picks = rng.sample(combos, min(count, len(combos)))
    while len(picks) < count:
        picks.append(combos[rng.randrange(len(combos))])
    unique = Unique()
    plan.ms_slugs: list[str] = []
    plan.ms_areas: list[list[str]] = []
    plan.ms_created: list[datetime] = []
    plan.ms_texts: list[dict[str, object]] = []
    step = 540.0 / max(count, 1)
    dangling_at = count // 2
    for m, (area, phrase) in enumerate(picks):
        title = f"The {area} service {phrase}"
        slug = unique(slugify(title))
        areas = [area]
        if len(plan.areas) > 1 and rng.random() < 0.3:
            areas.append(rng.choice([a for a in plan.areas if a != area]))
        created = EPOCH + timedelta(days=m * step + rng.uniform(0, step))
        module = rng.choice(plan.modules_of[area])
        meta: dict[str, object] = {
            "id": slug,
            "title": title,
            "slug": slug,
            "order": (m + 1) * 10,
            "priority": weighted(rng, PRIORITIES, PRIORITY_WEIGHTS),
            "problem": plan.sentences(rng, area, module, rng.randint(2, 4)),
            "outcome": f"{title}, and tests/{area} proves it.",
        }
        if rng.random() < 0.7:
            meta["current_state"] = plan.sentences(rng, area, module, 1)
            meta["desired_state"] = (
                f"The {area} service {phrase}; the {module} "
                f"{rng.choice(NOUNS)} {rng.choice(ISSUE_PREDICATES)}."
            )
        meta["scope"] = [p for a in areas for p in (f"src/{a}", f"tests/{a}")]
        if rng.random() < 0.5:
            meta["non_scope"] = [f"Rewriting {rng.choice(plan.areas)}", "A new public API"]
        meta["acceptance_criteria"] = plan.acceptance(rng, area, module, rng.randint(2, 4))
        meta["validation"] = [f"python -m pytest tests/{a} -q" for a in areas]
        meta["evidence_required"] = (
            [f"{area}_{slugify(phrase, 40).replace('-', '_')}"] if rng.random() < 0.5 else []
        )
        deps: list[str] | None = []
        roll = rng.random()
        if roll < 0.25:
            deps = None  # the key is left out, as on a quarter of the real milestones
        elif roll < 0.7 and m:
            window = list(range(max(0, m - 6), m))
            deps = [plan.ms_slugs[j] for j in sorted(rng.sample(window, min(len(window),
                                                                          rng.randint(1, 2))))]
        if m == dangling_at:
            deps = [*(deps or []), MISSING_MILESTONE]  # deliberately dangling
        if deps is not None:
            meta["depends_on"] = deps
        if rng.random() < 0.35:
            meta["risks"] = [rng.choice(RISKS).format(**plan.words(rng, area, module))]
        plan.ms_slugs.append(slug)
        plan.ms_areas.append(areas)
        plan.ms_created.append(created)
        plan.ms_texts.append(meta)
    plan.ms_last_update = list(plan.ms_created)


def write_milestones(plan: Plan) -> None:
    for m, meta in enumerate(plan.ms_texts):
        meta["created_at"] = date_raw(plan.ms_created[m])
        if plan.ms_last_update[m] != plan.ms_created[m] or m % 11 != 5:
            meta["updated_at"] = date_raw(plan.ms_last_update[m])
        plan.put(f".ai/repo/project/milestones/{meta['slug']}.yaml", yaml_text(meta))

# -- issues ------------------------------------------------------------------------------


def write_issues(plan: Plan) -> None:
    shape, rng = plan.shape, plan.rng("issues")
    n = shape.issues
    # Ids run from I0001 with one gap: the missing number is the deliberately dangling
    # dependency of the issue after it (a withdrawn issue whose file is gone).
    plan.gap = max(1, -(-7 * n // 10)) if n else 0
    numbers = [k for k in range(1, n + 2) if k != plan.gap] if n else []
    # Contiguous blocks of issues per milestone, of varying size.
    weights = [rng.uniform(0.5, 1.5) for _ in range(shape.milestones)]
    total = sum(weights)
    bounds, acc = [], 0.0
    for w in weights:
        acc += w
        bounds.append(round(n * acc / total))
    ms_of: list[int] = []
    start = 0
    for m, end in enumerate(bounds):
        ms_of.extend([m] * (end - start))
        start = end
    # Lifecycle: earlier issues tend to be further along.
    order = sorted(range(n), key=lambda i: (i / max(n, 1) + rng.uniform(0.0, 0.12), i))
    few = 1 if n >= 8 else 0
    quotas = [(DONE, round(0.40 * n)), (VERIFY, max(few, round(0.05 * n))),
              (ACTIVE, max(few, round(0.08 * n)))]
    states = [NEW] * n
    pos = 0
    for state, quota in quotas:
        for i in order[pos:pos + quota]:
            states[i] = state
        pos += quota
    rest = sorted(order[pos:])
    for i in rng.sample(rest, min(len(rest), max(few, round(0.01 * n)))):
        states[i] = CANCELLED
    # A few titles use the dialect's unquoted ": ".
    quirky = set(rng.sample(range(n), min(n, max(1, n // 40)))) if n else set()

    plan.issue_list: list[Issue] = []
    done_all: list[int] = []
    done_in_ms: dict[int, list[int]] = {}
    ms_first: dict[int, int] = {}
    done_before_ms: dict[int, int] = {}
    for i in range(n):
        m = ms_of[i]
        if m not in ms_first:
            ms_first[m] = i
            done_before_ms[m] = len(done_all)
        areas = plan.ms_areas[m]
        area = areas[0] if rng.random() < 0.8 else rng.choice(areas)
        module = rng.choice(plan.modules_of[area])
        issue = Issue(number=numbers[i], ident=f"I{numbers[i]:04d}", milestone=m,
                       area=area, module=module, state=states[i])
        plan.issue_list.append(issue)
        # Dependencies: lower-numbered issues only (a DAG), mostly of the same milestone;
        # work that has started depends only on work that is done.
        want = weighted(rng, DEP_COUNTS, DEP_WEIGHTS)
        # A cancelled issue was sometimes started before it was dropped.
        started = states[i] in (DONE, VERIFY, ACTIVE) or (
            states[i] == CANCELLED and rng.random() < 0.3
        )
        deps: set[int] = set()
        for _ in range(want):
            same = rng.random() < 0.85
            if started:
                pool = done_in_ms.get(m, []) if same else done_all[
                    max(0, done_before_ms[m] - 50):done_before_ms[m]]
                if pool:
                    deps.add(pool[rng.randrange(len(pool))])
            else:
                lo, hi = (ms_first[m], i) if same else (max(0, ms_first[m] - 60), ms_first[m])
                if hi > lo:
                    deps.add(rng.randrange(lo, hi))
        write_issue(plan, rng, issue, i, sorted(deps), quirky, started)
        if states[i] == DONE:
            done_all.append(i)
            done_in_ms.setdefault(m, []).append(i)
    write_milestones(plan)


def write_issue(plan: Plan, rng: random.Random, issue: Issue, i: int, deps: list[int],
                quirky: set[int], was_started: bool) -> None:
    """Write one issue file: its contract, then its lifecycle facts in time order."""
    area, module = issue.area, issue.module
    w = plan.words(rng, area, module)
    predicate = rng.choice(ISSUE_PREDICATES)
    title = _issue_title(rng, issue, i in quirky, w, predicate)
    issue.profile = "deep-work" if rng.random() < 0.2 else "implementation"
    scope = _issue_scope(plan, rng, issue)
    noun_key = w["noun"].replace(" ", "_")
    evidence_required = sorted({
        f"{module}_{noun_key}_{rng.choice(('refuses', 'resumes', 'reports', 'bounds'))}"
        for _ in range(rng.randint(1, 2))
    })
    meta = _issue_contract(plan, rng, issue, title, scope, deps, w, predicate)
    meta["evidence_required"] = evidence_required
    if rng.random() < 0.2:
        meta["risk"] = rng.choice(RISKS).format(**w)
    _issue_lifecycle(plan, rng, issue, meta, deps, evidence_required, was_started, w)
    plan.put(f".ai/repo/project/issues/{issue.ident}.yaml", yaml_text(meta))


def _issue_title(rng: random.Random, issue: Issue, quirky: bool, w: dict[str, object],
                 predicate: str) -> str:
    """The title (one of three forms, or the dialect's unquoted ``": "``); sets the slug."""
    area, module = issue.area, issue.module
    form = rng.randrange(3)
    if form == 0:
        title = f"{rng.choice(VERBS)} the {module} {w['noun']} in {area}"
    elif form == 1:
        title = f"The {area} {module} {w['noun']} {predicate}"
    else:
        title = f"{rng.choice(VERBS)} {w['noun']} handling in {area}.{module}"
    issue.slug = slugify(title)
    if quirky:
        title = Raw(f"Phase {rng.randint(1, 9)}: the {module} {w['noun']} {predicate}")
    return title


def _issue_scope(plan: Plan, rng: random.Random, issue: Issue) -> list[str]:
    """The module (or one or two of its files), the tests, sometimes a sibling module."""
    area, module = issue.area, issue.module
    files = plan.module_files[(area, module)]
    scope: list[str] = []
    if rng.random() < 0.5:
        scope.append(f"src/{area}/{module}")
        scope_files = list(files)
    else:
        scope_files = sorted(rng.sample(files, min(len(files), rng.randint(1, 2))))
        scope.extend(scope_files)
    scope.append(f"tests/{area}" if rng.random() < 0.5 else f"tests/{area}/test_{module}.py")
    siblings = plan.modules_of[area]
    if len(scope) < 4 and len(siblings) > 1 and rng.random() < 0.3:
        other = rng.choice([s for s in siblings if s != module])
        scope.append(f"src/{area}/{other}")
        scope_files.extend(plan.module_files[(area, other)])
    issue.scope_files = tuple(scope_files)
    return scope


def _issue_contract(plan: Plan, rng: random.Random, issue: Issue, title: str, scope: list[str],
                    deps: list[int], w: dict[str, object], predicate: str) -> dict[str, object]:
    """The execution contract: what, why, scope, dependencies, acceptance, validation."""
    area, module = issue.area, issue.module
    meta: dict[str, object] = {
        "id": issue.ident,
        "milestone": plan.ms_slugs[issue.milestone],
        "title": title,
        "slug": issue.slug,
        "priority": weighted(rng, PRIORITIES, PRIORITY_WEIGHTS),
        "profile": issue.profile,
        "parallel_safe": rng.random() < 0.6,
    }
    serves = serves_of(plan, issue)
    if serves:
        meta["serves"] = serves
    meta |= {
        "objective": f"Ensure the {area}.{module} {w['noun']} {predicate}. "
        + plan.sentences(rng, area, module, 1),
        "why": plan.sentences(rng, area, module, rng.randint(1, 3)),
        "current_state": plan.sentences(rng, area, module, 1),
    }
    if rng.random() < 0.6:
        meta["desired_state"] = f"The {module} {w['noun']} {predicate}."
    meta["scope"] = scope
    if rng.random() < 0.25:
        meta["non_scope"] = [f"Changes outside src/{area}", "A new dependency"]
    dep_ids = [plan.issue_list[d].ident for d in deps]
    if issue.number == plan.gap + 1:
        # Deliberately dangling: the number before this one was never written.
        dep_ids = sorted([f"I{plan.gap:04d}", *dep_ids[:2]], key=lambda d: int(d[1:]))
    if dep_ids or rng.random() > 0.12:
        meta["depends_on"] = dep_ids
    meta["acceptance_criteria"] = plan.acceptance(rng, area, module, rng.randint(2, 4))
    meta["validation"] = [f"python -m pytest tests/{area}/test_{module}.py -q"] + (
        [f"ruff check src/{area}/{module}"] if rng.random() < 0.4 else []
    )
    return meta


def _issue_lifecycle(plan: Plan, rng: random.Random, issue: Issue, meta: dict[str, object],
                     deps: list[int], evidence_required: list[str], was_started: bool,
                     w: dict[str, object]) -> None:
    """Lifecycle facts, in time order after the milestone and the dependencies."""
    m = issue.milestone
    created = plan.ms_created[m] + timedelta(days=rng.uniform(0, 10))
    created_text = date_raw(created)
    meta["created_at"] = created_text if rng.random() > 0.03 else str(created_text)
    updated = created
    if was_started:
        updated = _issue_work(plan, rng, issue, meta, deps, evidence_required, created)
    else:
        if rng.random() < 0.4:
            updated = created + timedelta(days=rng.uniform(0, 30))
        meta["updated_at"] = date_raw(updated)
    if issue.state == CANCELLED:
        cancelled = updated + timedelta(days=rng.uniform(0.5, 20))
        updated = cancelled
        meta["updated_at"] = datetime_raw(cancelled)
        meta["cancelled_at"] = datetime_raw(cancelled)
        meta["cancelled_because"] = rng.choice((
            f"Superseded by the {issue.area} redesign; the {issue.module} {w['noun']} is "
            "going away.",
            "Duplicate of work already tracked in the same milestone.",
            f"Measured first: the {w['noun']} is not the bottleneck.",
        ))
    if updated > plan.ms_last_update[m]:
        plan.ms_last_update[m] = updated


def _issue_work(plan: Plan, rng: random.Random, issue: Issue, meta: dict[str, object],
                deps: list[int], evidence_required: list[str], created: datetime) -> datetime:
    """Started, verified and completed facts with their evidence; returns the last update."""
    state = issue.state
    earliest = max([created] + [plan.issue_list[d].completed or created for d in deps])
    started = earliest + timedelta(hours=rng.uniform(2, 24 * 20))
    issue.started = started
    updated = started
    facts: dict[str, object] = {"started_at": datetime_raw(started)}
    if rng.random() < 0.5:
        facts["started_event"] = f"sha256:{hex_digits(rng, 64)}"
    evidence: list[dict[str, object]] = []
    if state in (DONE, VERIFY):
        verified = started + timedelta(minutes=rng.uniform(20, 60 * 72))
        facts["verified_at"] = datetime_raw(verified)
        if rng.random() < 0.5:
            facts["verified_event"] = f"sha256:{hex_digits(rng, 64)}"
        updated = verified
        if state == DONE or rng.random() < 0.5:
            evidence = _evidence(rng, issue, evidence_required, started, verified)
        if state == DONE:
            completed = verified + timedelta(minutes=rng.uniform(5, 60 * 48))
            issue.completed = completed
            facts["completed_at"] = datetime_raw(completed)
            updated = completed
    meta["updated_at"] = datetime_raw(updated)
    meta.update(facts)
    if evidence:
        meta["evidence"] = evidence
    return updated


def _evidence(rng: random.Random, issue: Issue, evidence_required: list[str],
              started: datetime, verified: datetime) -> list[dict[str, object]]:
    """One passing test run per required evidence key, all at one commit."""
    area, module = issue.area, issue.module
    commit = hex_digits(rng, 40)
    evidence: list[dict[str, object]] = []
    for covers in evidence_required:
        recorded = started + (verified - started) * rng.uniform(0.5, 1.0)
        passed = rng.randint(1, 40)
        evidence.append({
            "covers": covers,
            "type": "test",
            "command": f"python -m pytest tests/{area}/test_{module}.py "
            f"-k {covers} -q",
            "result": f"{passed} passed in {rng.uniform(0.05, 9):.2f}s",
            "commit": commit,
            "recorded_at": datetime_raw(recorded.replace(microsecond=0)),
        })
    return evidence
