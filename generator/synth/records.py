"""Records beside the project model: curated knowledge, use cases, and session records (which
cite the issues worked on, their branches and the files they changed)."""

from __future__ import annotations

from datetime import timedelta

from .plan import Plan
from .text import EPOCH, Unique, date_raw, datetime_raw, hex_digits, slugify, stamp
from .vocabulary import ISSUE_PREDICATES, KNOWLEDGE_TITLES, SESSION_SUMMARIES, TAGS, USE_CASE_TITLES
from .yamltext import Flow, front_matter


def write_knowledge(plan: Plan) -> None:
    rng = plan.rng("knowledge")
    unique = Unique()
    for _ in range(plan.shape.knowledge):
        area, module = plan.any_module(rng)
        w = plan.words(rng, area, module)
        title = rng.choice(KNOWLEDGE_TITLES).format(**w)
        ident = unique(slugify(title))
        lesson = rng.random() < 0.5
        when = EPOCH + timedelta(days=rng.uniform(0, 560))
        meta = {
            "schema": "knowledge/v1",
            "id": ident,
            "kind": "knowledge",
            "class": "lesson" if lesson else "convention",
            "title": title,
            "description": plan.sentences(rng, area, module, 1),
            "status": "verified" if rng.random() < 0.8 else "draft",
            "epistemics": "observed" if lesson else "decided",
            "date": date_raw(when),
            "tags": [area, *sorted(rng.sample(TAGS, rng.randint(1, 2)))],
            "provenance": {"origin": "authored",
                           "derived_from": [f"file:{plan.src_file(rng, area, module)}"]},
            "relations": [{"type": "documents", "target": f"file:src/{area}/{module}"},
                          *_documented_decisions(plan, ident, area)],
        }
        body = f"# {title}\n\n{plan.paragraphs(rng, area, module, 2, 5)}\n"
        plan.put(f".ai/repo/knowledge/curated/{ident}.md", front_matter(meta, body))


def _documented_decisions(plan: Plan, ident: str, area: str) -> list[dict[str, str]]:
    """One or two decisions or rules of the note's area it documents (its own stream)."""
    rng = plan.rng(f"knowledge-links|{ident}")
    # the decisions an intent holds the area's work to, else any live one of the area
    adrs = plan.governing_adrs.get(area) or [
        a for a, status in plan.adrs_of_area.get(area, []) if status in ("accepted", "proposed")]
    rules = [r for r in plan.rules_of_area.get(area, []) if plan.rule_active.get(r)]
    out = []
    if adrs:
        out.append({"type": "documents", "target": f"adr:{rng.choice(adrs)}"})
    if rules and rng.random() < 0.5:
        out.append({"type": "documents", "target": f"rule:{rng.choice(rules)}"})
    return out


def _doctrines(plan: Plan, ident: str, area: str, drawn: list[str]) -> list[str]:
    """The rules a use case exercises: those of its area when it has any (its own stream;
    ``drawn`` is what the use case's stream drew, kept when the area has no rule)."""
    rules = [r for r in plan.rules_of_area.get(area, []) if plan.rule_active.get(r)]
    if not rules:
        return drawn
    rng = plan.rng(f"doctrines|{ident}")
    return Flow(sorted(rng.sample(rules, min(len(rules), rng.randint(1, 3)))))


def write_use_cases(plan: Plan) -> None:
    rng = plan.rng("use-cases")
    unique = Unique()
    for _ in range(plan.shape.use_cases):
        area, module = plan.any_module(rng)
        title = rng.choice(USE_CASE_TITLES).format(area=area)
        ident = unique(slugify(title))
        command = rng.choice(("plan", "compile", "explain", "query", "check", "build"))
        meta = {
            "id": ident,
            "kind": "use-case",
            "title": title,
            "summary": plan.sentences(rng, area, module, 1),
            "category": rng.choice(("adoption", "knowledge", "planning", "governance")),
            "status": "active" if rng.random() < 0.85 else "draft",
            "target": "guaranteed" if rng.random() < 0.6 else "aspirational",
            "actors": Flow(["maintainer", "agent"]),
            "difficulty": rng.choice(("introductory", "intermediate", "advanced")),
            "commands": Flow([command]),
            "doctrines": _doctrines(plan, ident, area, Flow(sorted(rng.sample(
                plan.rule_ids, min(len(plan.rule_ids), rng.randint(1, 3)))))),
            "claims": Flow([]),
        }
        body = (
            f"# Situation\n\n{plan.paragraphs(rng, area, module, 1, 2)}\n\n"
            "# Scenario\n\n```yaml\nsetup: synthetic-layer\ngiven:\n"
            f"  - 'a layer whose {area} milestone has two issues, the second depending on "
            "the first'\nsteps:\n"
            f"  - id: {command}\n    run: ['{command}']\n    expect:\n      exit: 0\n"
            "then:\n  - 'the answer is derived from the records, never stored in them'\n"
            f"```\n\n# Outcome\n\n{plan.sentences(rng, area, module, 2)}\n"
        )
        plan.put(f".ai/repo/use-cases/{ident}.md", front_matter(meta, body))


def write_sessions(plan: Plan) -> None:
    rng = plan.rng("sessions")
    worked = [x for x in plan.issue_list if x.started is not None]
    seen: set[str] = set()
    for _ in range(plan.shape.sessions):
        issue = None
        pool = worked or plan.issue_list
        if pool and rng.random() < 0.85:
            issue = pool[rng.randrange(len(pool))]
        if issue is not None and issue.started is not None:
            started = issue.started - timedelta(minutes=rng.uniform(0, 90))
        else:
            started = EPOCH + timedelta(days=rng.uniform(0, 560))
        started = started.replace(microsecond=0)
        closed = started + timedelta(seconds=rng.randint(60, 4 * 3600))
        if issue is not None and rng.random() < 0.8:
            branch = "feature/" + slugify(issue.slug, 40)
        else:
            branch = "main"
        head = hex_digits(rng, 40)
        session_id = f"s-{started.strftime('%Y%m%d%H%M%S')}-{hex_digits(rng, 4)}"
        while session_id in seen:  # pragma: no cover - astronomically rare
            session_id = f"s-{started.strftime('%Y%m%d%H%M%S')}-{hex_digits(rng, 4)}"
        seen.add(session_id)
        if issue is not None:
            files = list(issue.scope_files)
            area, module = issue.area, issue.module
        else:
            area, module = plan.any_module(rng)
            files = list(plan.module_files[(area, module)])
        changed = sorted(rng.sample(files, min(len(files), rng.randint(1, 5))))
        if issue is not None and rng.random() < 0.4:
            changed.append(f".ai/repo/project/issues/{issue.ident}.yaml")
        outcome = "closed" if rng.random() < 0.85 else "interrupted"
        commits = sorted(hex_digits(rng, 40) for _ in range(rng.randint(0, 3)))
        meta: dict[str, object] = {
            "schema": "session/v1",
            "kind": "session",
            "created_at": datetime_raw(closed),
            "task_id": f"t-{started.strftime('%Y%m%d%H%M%S')}-{hex_digits(rng, 4)}"
            if issue is not None else "none",
            "profile": issue.profile if issue is not None else "none",
            "repository_id": "git@github.com:example/harbour.git",
            "worktree_id": hex_digits(rng, 16),
            "branch": branch,
            "head": head,
            "working_tree": "dirty" if rng.random() < 0.6 else "clean",
            "changed_files": changed,
            "session_id": session_id,
            "started_at": datetime_raw(started),
            "closed_at": datetime_raw(closed),
            "outcome": outcome,
            "title": f"Session {session_id} on {branch}",
        }
        if rng.random() < 0.5:
            meta["worker"] = rng.choice(("claude-code/opus-5", "codex/gpt-5", "human"))
        meta["start_head"] = head
        meta["start_working_tree"] = "clean"
        meta["commits"] = commits
        meta["tasks"] = []
        meta["issues"] = [issue.ident] if issue is not None else []
        meta["milestones"] = [plan.ms_slugs[issue.milestone]] if issue is not None else []
        for key in ("checkpoints", "handovers", "decisions", "questions", "evidence"):
            meta[key] = []
        w = plan.words(rng, area, module)
        summary = rng.choice(SESSION_SUMMARIES).format(
            issue=issue.ident if issue is not None else "no tracked issue",
            predicate=rng.choice(ISSUE_PREDICATES),
            predicate_not="fails under load", **w,
        )
        name = (f"{stamp(closed)}--{session_id}--{branch.replace('/', '-')}--{head[:7]}"
                f"--{hex_digits(rng, 16)}.md")
        plan.put(f".ai/repo/sessions/{name}", front_matter(meta, summary + "\n"))

# -- directory contracts -----------------------------------------------------------------
