"""What the loader knows about each kind of object, and the built-in source classes.

One table per concern, data rather than code, so a reader can see the whole vocabulary in
one place:

* :data:`KINDS` — per kind: the identity fields (joined with ``@``; none means the path is
  the identity), where the title and the summary come from, whether Markdown needs front
  matter to be this kind, and the list key of list files (one object per item).
* :data:`DEFAULT_CLASSES` — source classes for every kind a real layer holds, so a
  ``sources.yaml`` that omits (say) ADRs or sessions still gets them discovered. A
  repository's own classes extend these, and one with the same ``id`` replaces its default.
  Default classes live under a manifest *section*, so a layer that moves its ADRs to
  another directory moves their discovery with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..phrases import Phrase, say

__all__ = ["KindSpec", "KINDS", "kind_spec", "DefaultClass", "DEFAULT_CLASSES", "FACT_KEYS",
           "kind_name", "a_kind", "say_a_kind"]

#: Kinds whose name in a sentence is an abbreviation, written in capitals.
_ABBREVIATIONS = {"adr": "ADR", "mcp": "MCP"}
#: Capital letters whose spoken name starts with a vowel sound ("an ADR", "an MCP server").
_VOWEL_SOUND_LETTERS = frozenset("AEFHILMNORSX")


def kind_name(kind: str) -> str:
    """A kind as a sentence names it: ``adr`` is an ``ADR``, the others as written."""
    return _ABBREVIATIONS.get(kind, kind)


def a_kind(kind: str) -> str:
    """The kind's name with its indefinite article: ``an ADR``, ``an issue``, ``a rule``."""
    return str(say_a_kind(kind))


def say_a_kind(kind: str) -> Phrase:
    """:func:`a_kind` as a phrase (the kind's name a parameter: a language without articles
    says the name alone)."""
    name = kind_name(kind)
    if name.isupper():
        vowel = name[:1] in _VOWEL_SOUND_LETTERS
    else:  # "a use-case": a written vowel sounding as a consonant
        vowel = name[:1].lower() in "aeiou" and not name.lower().startswith(("use", "uni", "eu"))
    return say("an {kind}", kind=name) if vowel else say("a {kind}", kind=name)


@dataclass(frozen=True)
class KindSpec:
    kind: str
    identity_fields: tuple[str, ...] = ()
    title_fields: tuple[str, ...] = ("title",)
    summary_fields: tuple[str, ...] = ("description",)
    #: Markdown of this kind without front matter is read as a plain ``document``.
    needs_front_matter: bool = False
    #: List files: one object per item of this key (``claims``, ``categories``).
    list_key: str | None = None
    #: How a file name is expected to relate to the identity (see naming.expected_stem).
    file_naming: str = "none"


_SPECS = [
    KindSpec("rule", ("id", "version"), needs_front_matter=True, file_naming="rule"),
    KindSpec("prompt", ("name",), ("title", "name"), file_naming="stem"),
    KindSpec("skill", ("id",), file_naming="skill"),
    KindSpec("profile", ("name",), ("title", "name"), file_naming="stem"),
    KindSpec("policy", (), ("title",), ()),
    KindSpec("scope", (), ("title",), ()),
    KindSpec("milestone", ("id",), summary_fields=("outcome", "problem"), file_naming="stem_or_slug"),
    KindSpec("issue", ("id",), summary_fields=("objective", "why"), file_naming="stem"),
    KindSpec("document", (), ("title",), ("description",)),
    KindSpec("project", (), ("name", "title"), ("repository", "description")),
    KindSpec("context", ("id",)),
    KindSpec("adr", ("id",), summary_fields=("description",), needs_front_matter=True, file_naming="adr"),
    KindSpec("knowledge", ("id",), file_naming="stem"),
    KindSpec("use-case", ("id",), summary_fields=("summary", "description"), file_naming="stem"),
    KindSpec("application", ("id",), summary_fields=("summary", "description"), file_naming="stem"),
    KindSpec("taxonomy", ("id",), summary_fields=("summary",), list_key="categories"),
    KindSpec("claim", ("id",), ("title", "claim"), ("note", "description"), list_key="claims"),
    KindSpec("implementation", (), (), ()),
    KindSpec("test", (), (), ()),
    KindSpec("session", ("session_id",), summary_fields=("summary",)),
    KindSpec("intent", ("id",), summary_fields=("statement", "description"), file_naming="stem"),
    KindSpec("gap", ("intent",), summary_fields=("summary",), file_naming="stem"),
    KindSpec("critique", ("intent",), summary_fields=("summary",), file_naming="stem"),
    KindSpec("feature", ("id",), summary_fields=("summary", "headline"), file_naming="stem"),
    KindSpec("domain", ("id",), summary_fields=("headline", "problem"), file_naming="stem"),
    KindSpec("moment", ("id",), summary_fields=("summary", "hook"), file_naming="stem"),
    KindSpec("area", ("id",), summary_fields=("summary",), file_naming="stem"),
    KindSpec("audience", ("id",), summary_fields=("summary",), file_naming="stem"),
    KindSpec("deployment", ("id",), summary_fields=("description",), file_naming="stem"),
    KindSpec("release", ("version",), ("title", "tag"), ("notes_url",)),
    KindSpec("manifest", (), ("title",), ()),
    KindSpec("sources", (), ("title",), ()),
    KindSpec("rule-package", (), ("package", "title"), ("format",)),
]

KINDS: dict[str, KindSpec] = {spec.kind: spec for spec in _SPECS}


def kind_spec(kind: str) -> KindSpec:
    """The spec of a kind; a kind the table does not know is identified by its path."""
    return KINDS.get(kind) or KindSpec(kind, (), ("title", "name"), ("description", "summary"))


@dataclass(frozen=True)
class DefaultClass:
    """A built-in source class: ``glob`` under the directory of manifest ``section``.

    ``fallback`` is that location relative to the manifest's ``repo`` directory
    (``.ai/repo``) when the manifest does not declare the section. ``section`` None means ``glob`` is relative to the repository root.
    """

    id: str
    kind: str
    section: str | None
    fallback: str
    glob: str


DEFAULT_CLASSES: tuple[DefaultClass, ...] = (
    DefaultClass("policy", "policy", "policy", "policy.yaml", ""),
    DefaultClass("scope", "scope", "scope", "scope.yaml", ""),
    DefaultClass("profile", "profile", "profiles", "profiles", "*.yaml"),
    DefaultClass("rule", "rule", "rules", "rules", "**/*.md"),
    DefaultClass("rule_package", "rule-package", "rules", "rules", "vendor/*/manifest.yaml"),
    DefaultClass("prompt", "prompt", "prompts", "prompts", "*.md"),
    DefaultClass("workflow", "document", "workflows", "workflows", "*.md"),
    DefaultClass("skill_dir", "skill", "skills", "skills", "*/SKILL.md"),
    DefaultClass("skill", "document", "skills", "skills", "*.md"),
    DefaultClass("skill_example", "document", "skills", "skills", "*/examples/*.md"),
    DefaultClass("knowledge", "knowledge", "knowledge", "knowledge", "curated/*.md"),
    DefaultClass("sources", "sources", "knowledge", "knowledge", "sources.yaml"),
    DefaultClass("adr", "adr", "adrs", "adrs", "[0-9][0-9][0-9][0-9]-*.md"),
    DefaultClass("project", "project", "project", "project", "project.yaml"),
    DefaultClass("milestone", "milestone", "project", "project", "milestones/*.yaml"),
    DefaultClass("issue", "issue", "project", "project", "issues/*.yaml"),
    DefaultClass("intent", "intent", "project", "project", "intents/*.yaml"),
    DefaultClass("gap", "gap", "project", "project", "gaps/*.yaml"),
    DefaultClass("critique", "critique", "project", "project", "critiques/*.yaml"),
    DefaultClass("use_case", "use-case", "use-cases", "use-cases", "*.md"),
    DefaultClass("taxonomy", "taxonomy", "use-cases", "use-cases", "taxonomy.yaml"),
    DefaultClass("application", "application", "applications", "applications", "*.md"),
    DefaultClass("session", "session", "sessions", "sessions", "*.md"),
    DefaultClass("feature", "feature", "features", "features", "*.md"),
    DefaultClass("domain", "domain", "features", "features", "domains/*.md"),
    DefaultClass("moment", "moment", "why", "why", "moments/*.md"),
    DefaultClass("area", "area", "why", "why", "areas/*.md"),
    DefaultClass("audience", "audience", "why", "why", "audiences/*.md"),
    DefaultClass("deployment", "deployment", "deployments", "deployments", "*.yaml"),
    DefaultClass("release", "release", "releases", "releases", "v*.yaml"),
    DefaultClass("manifest", "manifest", None, "", ".ai/manifest.yaml"),
    DefaultClass("readme", "document", None, "", "*.md"),
    DefaultClass("document", "document", None, "", "docs/*.md"),
    DefaultClass("claims", "claim", None, "", "docs/CLAIMS.yaml"),
)

#: Metadata keys whose scalar value becomes a fact of the object (semantics §4.3).
FACT_KEYS: tuple[str, ...] = (
    "class",
    "status",
    "priority",
    "milestone",
    "profile",
    "date",
    "version",
    "updated_at",
    "branch",
    "head",
    "task_id",
)
