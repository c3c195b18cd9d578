"""The layer's configuration: directory contracts (``README.md`` per section, one tracking a path
that does not exist), the manifest, knowledge sources, policy, scope, profiles, prompts and the
project file."""

from __future__ import annotations

from .plan import Plan
from .shapes import MANIFEST_MARKER, MISSING_TRACKED_PATH
from .yamltext import Flow, Raw, front_matter, yaml_text

#: Directory contracts: (directory, id, title, description, composition, order).
_CONTRACTS = (
    (".ai", "ai.layer", "Repository AI context",
     "The protocol of the layer: what it holds, how it is discovered, what outranks what.",
     "final", 10),
    (".ai/repo", "ai.repo", "Tracked repository context",
     "The tracked half of the layer and what each section under it is for.", "extend", 20),
    (".ai/repo/adrs", "ai.repo.adrs", "Architecture decisions",
     "Accepted, durable decisions about how this repository is built.", "extend", 100),
    (".ai/repo/knowledge", "ai.repo.knowledge", "Knowledge",
     "Which tracked files are knowledge, and the notes the repository keeps.",
     "extend", 100),
    (".ai/repo/knowledge/curated", "ai.repo.knowledge.curated", "Curated notes",
     "What this repository chose to write about itself.", "extend", 100),
    (".ai/repo/profiles", "ai.repo.profiles", "Execution profiles",
     "How much effort and context each kind of work is given.", "extend", 100),
    (".ai/repo/project", "ai.repo.project", "Project model",
     "Milestones are outcomes, issues are execution contracts; status is derived.",
     "extend", 100),
    (".ai/repo/project/issues", "ai.repo.project.issues", "Issues",
     # The real layer's description carries an unquoted ": " here as well.
     Raw("Execution contracts: one bounded change each, with its scope and evidence."),
     "extend", 100),
    (".ai/repo/project/milestones", "ai.repo.project.milestones", "Milestones",
     "Outcomes the issues add up to, ordered, with the paths they cover.", "extend", 100),
    (".ai/repo/prompts", "ai.repo.prompts", "Prompt assets",
     "The provider-neutral prompts the tool renders.", "extend", 100),
    (".ai/repo/rules", "ai.repo.rules", "Repository rules",
     "The rule object format, where rules live, how they are loaded and composed.",
     "extend", 100),
    (".ai/repo/rules/project", "ai.repo.rules.project", "Project rules",
     "The rules this repository wrote for itself, one file each.", "extend", 100),
    (".ai/repo/sessions", "ai.repo.sessions", "Session records",
     "Closed working sessions, one file each, named by when they closed.", "extend", 100),
    (".ai/repo/use-cases", "ai.repo.use-cases", "Use cases",
     "Executable scenarios: what a person runs and what they get.", "extend", 100),
)


def write_contexts(plan: Plan) -> None:
    """A ``README.md`` contract per section, and the repository's own ``README.md``."""
    rng = plan.rng("contexts")
    for directory, ident, title, description, composition, order in _CONTRACTS:
        meta: dict[str, object] = {
            "schema": "context/v1",
            "id": ident,
            "kind": "context",
            "title": title,
            "description": description,
            "status": "active",
            "scope": "subtree",
            "providers": Flow(["*"]),
            "audience": Flow(["human", "agent"]),
            "composition": composition,
            "order": order,
        }
        tracks: list[str] = []
        if ident == "ai.repo.adrs":
            tracks.append(MISSING_TRACKED_PATH)  # deliberately dangling
        if order == 100 and rng.random() < 0.5:
            area, module = plan.any_module(rng)
            tracks.append(f"src/{area}" if rng.random() < 0.6
                          else plan.src_file(rng, area, module))
        if tracks:
            meta["tracks"] = Flow(tracks)
        if ident == "ai.repo.rules":
            meta["children"] = {"require_contract": True}
        area, module = plan.any_module(rng)
        body = (f"# {title}\n\n{description}\n\n"
                f"{plan.paragraphs(rng, area, module, 1, 3)}\n")
        plan.put(f"{directory}/README.md", front_matter(meta, body))
    plan.put("README.md", (
        "# Harbour\n\nA synthetic repository written by `generator.synth` for the devcontext "
        "site's tests and benchmarks. Its code lives under `src/`, its tests under `tests/`, "
        "and its AI layer under `.ai/`.\n\n"
        + "\n".join(f"- `src/{a}`" for a in plan.areas) + "\n"
    ))

# -- configuration -----------------------------------------------------------------------


def write_config(plan: Plan) -> None:
    """The fixed configuration files; nothing here is random."""
    _write_manifest(plan)
    _write_policy(plan)
    _write_profiles(plan)
    _write_prompts(plan)


def _write_manifest(plan: Plan) -> None:
    """The manifest (carrying the synth marker) and the knowledge sources."""
    sections = {
        "policy": "repo/policy.yaml", "scope": "repo/scope.yaml",
        "profiles": "repo/profiles", "rules": "repo/rules", "prompts": "repo/prompts",
        "skills": "repo/skills", "workflows": "repo/workflows",
        "knowledge": "repo/knowledge", "adrs": "repo/adrs", "project": "repo/project",
        "sessions": "repo/sessions", "use-cases": "repo/use-cases",
    }
    plan.put(".ai/manifest.yaml", (
        f"# A synthetic AI layer written by {MANIFEST_MARKER} (devcontext-site).\n"
        "# Deterministic: regenerate it rather than editing it.\n"
        + yaml_text({
            "schema": "ai-repository/v1",
            "repo": {"path": "repo"},
            "local": {"path": "local", "tracked": False, "implicit_context": False},
            "sections": sections,
            "context": {"documents": Flow(["README.md"])},
        })
    ))
    classes = (
        ("policy", "policy", ".ai/repo/policy.yaml", True),
        ("scope", "scope", ".ai/repo/scope.yaml", False),
        ("profile", "profile", ".ai/repo/profiles/*.yaml", True),
        ("rule", "rule", ".ai/repo/rules/**/*.md", True),
        ("prompt", "prompt", ".ai/repo/prompts/*.md", False),
        ("milestone", "milestone", ".ai/repo/project/milestones/*.yaml", False),
        ("issue", "issue", ".ai/repo/project/issues/*.yaml", False),
        ("use_case", "use-case", ".ai/repo/use-cases/*.md", False),
        ("readme", "document", "*.md", False),
        ("source", "implementation", "src/**/*.py", False),
        ("tests", "test", "tests/**/*.py", False),
    )
    plan.put(".ai/repo/knowledge/sources.yaml", (
        "# The repository's knowledge sources: which tracked files are knowledge, in which "
        "class.\n"
        + yaml_text({"version": 1, "sources": [
            {"id": ident, "kind": kind, "discovery": "vcs", "pathspec": f":(glob){spec}",
             "required": required}
            for ident, kind, spec, required in classes
        ]})
    ))


def _write_policy(plan: Plan) -> None:
    """The policy and the scope (what is in the layer, what is out)."""
    plan.put(".ai/repo/policy.yaml", yaml_text({
        "version": 1,
        "context": {
            "always_loaded_budget_lines": 150, "builder_budget_lines": 300,
            "recent_decisions": 5, "max_list_items": 20, "strategy": "minimum-sufficient",
            "transcript_is_state": False,
        },
        "profiles": {"default": "implementation", "checkpoint_interval_default": "15m"},
        "verification": {
            "required_for_changes": True,
            "finish_requires": ["scope_respected", "verification_ran", "state_updated"],
        },
        "checkpoint": {"max_body_lines": 40, "retention_max_files": 500},
        "handover": {"required_sections": Flow(["Objective", "Current State",
                                                 "Next Action"]),
                     "retention_max_files": 200},
        "session": {"briefing_on_start": True, "briefing_budget_lines": 60},
        "enforcement": [{"name": "check-on-commit", "path": "bin/devcontext",
                         "args": Flow(["check"]), "wired_by": "git-hook:pre-commit"}],
        "projections": [{"provider": "agents", "target": "AGENTS.md",
                         "always_loaded": True}],
    }))
    plan.put(".ai/repo/scope.yaml", yaml_text({
        "version": 1,
        "in": [".ai/manifest.yaml", ".ai/README.md", ".ai/repo/**", "src/**", "tests/**",
               "README.md", "pyproject.toml"],
        "out": {
            "paths": [".git/", ".ai/local/", "**/__pycache__/", "**/build/", "**/dist/"],
            "binary": True,
            "max_bytes": 1048576,
            "archive": {"names": Flow(["*.zip", "*.tar", "*.tar.gz", "*.whl"])},
            "image": {"names": Flow(["*.png", "*.jpg", "*.gif", "*.svg"])},
            "secret": {"paths": [], "names": Flow([".env", ".env.*", "*.pem", "*.key"])},
        },
    }))


def _write_profiles(plan: Plan) -> None:
    """The two execution profiles the issues name."""
    plan.put(".ai/repo/profiles/implementation.yaml", yaml_text({
        "name": "implementation",
        "description": "build a described feature or change within a known design",
        "capability": "standard", "effort": "medium", "verbosity": "concise",
        "presentation": "engineering", "reasoning": "standard",
        "context": {"task": True, "current_state": True, "decisions": True,
                    "relevant_files": True, "failing_output": False,
                    "recent_history_depth": 0, "architecture_notes": False},
        "verification": {"verify_command_required": True, "regression_test_required": False,
                         "decision_record_required": False},
        "checkpoint_interval": "15m",
        "output_contract": Flow(["outcome", "changes", "verification", "blockers",
                                  "next_action"]),
    }))
    plan.put(".ai/repo/profiles/deep-work.yaml", yaml_text({
        "name": "deep-work",
        "description": "design, architecture, cross-cutting change, or a problem with no "
        "known shape",
        "capability": "strongest", "effort": "high",
        "effort_escalation": {"after_blocked_attempts": 1, "to": "xhigh"},
        "verbosity": "detailed", "presentation": "engineering", "reasoning": "strict",
        "context": {"task": True, "current_state": True, "decisions": True,
                    "relevant_files": True, "failing_output": False,
                    "recent_history_depth": 200, "architecture_notes": True},
        "verification": {"verify_command_required": True, "regression_test_required": False,
                         "decision_record_required": True},
        "checkpoint_interval": "30m",
        "output_contract": Flow(["outcome", "changes", "verification", "blockers",
                                  "next_action", "decisions"]),
    }))


def _write_prompts(plan: Plan) -> None:
    """The prompt assets and the project file."""
    plan.put(".ai/repo/prompts/handover.md", front_matter(
        {"name": "handover",
         "description": "produce a continuation record body for the current task"},
        "# Produce a continuation record body for the current task\n\n"
        "Write the body of a handover for task {{TASK_ID}} ({{TASK}}) as of {{NOW}},\n"
        "branch {{BRANCH}}, head {{HEAD}}.\n\nLatest checkpoint:\n{{CHECKPOINT}}\n\n"
        "Write exactly these sections: # Objective, # Current State, # Next Action.\n",
    ))
    plan.put(".ai/repo/prompts/continue.md", front_matter(
        {"name": "continue", "description": "resume the active task from its context"},
        "# Continue the active task\n\nYou are resuming {{TASK_ID}} on {{BRANCH}}.\n\n"
        "{{CONTEXT}}\n\nDo the next action the handover names, then verify it.\n",
    ))
    plan.put(".ai/repo/project/project.yaml", (
        "# The canonical project model. No status is stored: it is derived from the facts.\n"
        + yaml_text({"schema_version": 1, "name": "Harbour", "repository": "example/harbour",
                 "default_branch": "main"})
    ))

# -- source and tests --------------------------------------------------------------------
