"""The relation table: which fields of which kinds are typed edges, and how they resolve.

Data, not code. The first block is the table of ``spec/devcontext-semantics.md`` §2.3; the
second block is ours (documented extensions for kinds the real layers hold that the
upstream table predates: intents, knowledge relations, features and moments). Every edge
kind here has a weight in :mod:`generator.engine.policy`.

Target resolution modes:

``identity:<kind>``      by identity; for rules and skills also by the stem before ``@``;
                         for ADRs a bare number (``0012``) means ``adr-0012``; for
                         milestones also by ``slug``; ``intent#criterion`` names the intent.
``typed``                ``<kind>:<name>`` (``rule:project.x``, ``adr:adr-0070``,
                         ``file:lib/x.sh``, ``test:...``, ``claim:...``, ``decision:`` = adr).
``path``                 the object at that repository path (``tracks``, a claim's files).
``rule_or:<prefix>``     a rule by identity/stem, else the external node ``<prefix>:<name>``.
``external:<prefix>``    always the external node ``<prefix>:<name>`` (a command, a tool).

A reference to a kind the layer holds no objects of becomes an *external* node (recorded,
not followed, not a finding); a reference to a held kind that names nothing is
*unresolved* and becomes a diagnostic. ``file:``/``test:`` paths are unresolved when a
source class would discover that path and nothing is there; external otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Relation", "RELATIONS", "TYPED_ALIASES", "EDGE_KINDS"]


@dataclass(frozen=True)
class Relation:
    declaring_kind: str  # "*" for every kind
    field: str
    edge: str
    target: str
    #: The edge runs from the target to the declaring object (application ``use_cases``).
    inverted: bool = False
    #: For a list of mappings: the key of each item that holds the reference.
    item_key: str | None = None
    #: False for the rows that are our extensions to the upstream table.
    upstream: bool = True


RELATIONS: tuple[Relation, ...] = (
    Relation("rule", "depends_on", "depends_on", "identity:rule"),
    Relation("adr", "supersedes", "supersedes", "identity:adr"),
    Relation("adr", "related", "put_in_force", "typed"),
    Relation("skill", "related", "related_to", "identity:skill"),
    Relation("use-case", "commands", "runs", "external:command"),
    Relation("use-case", "doctrines", "exercises", "rule_or:doctrine"),
    Relation("use-case", "claims", "evidences", "identity:claim"),
    Relation("*", "tracks", "tracks", "path"),
    Relation("claim", "source", "defined_in", "path"),
    Relation("claim", "implementation", "implemented_by", "path"),
    Relation("claim", "test", "tested_by", "path"),
    Relation("issue", "milestone", "belongs_to", "identity:milestone"),
    Relation("issue", "depends_on", "depends_on", "identity:issue"),
    Relation("milestone", "depends_on", "depends_on", "identity:milestone"),
    Relation("milestone", "claims", "evidences", "identity:claim"),
    Relation("use-case", "applications", "serves", "identity:application"),
    Relation("application", "use_cases", "serves", "identity:use-case", inverted=True),
    Relation("application", "doctrines", "governed_by", "rule_or:doctrine"),
    Relation("use-case", "mcp_tools", "exercises", "external:capability"),
    # Ours: kinds the upstream table predates.
    Relation("issue", "serves", "serves", "identity:intent", upstream=False),
    Relation("intent", "governance", "governed_by", "typed", upstream=False),
    Relation("knowledge", "relations", "related_to", "typed", item_key="target", upstream=False),
    Relation("feature", "rules", "governed_by", "rule_or:doctrine", upstream=False),
    Relation("feature", "use_cases", "related_to", "identity:use-case", upstream=False),
    Relation("moment", "doctrines", "governed_by", "rule_or:doctrine", upstream=False),
    Relation("moment", "use_cases", "related_to", "identity:use-case", upstream=False),
)

#: ``<kind>:`` prefixes in typed references that mean another kind.
TYPED_ALIASES: dict[str, str] = {"decision": "adr", "doctrine": "rule", "usecase": "use-case"}

EDGE_KINDS: tuple[str, ...] = tuple(sorted({r.edge for r in RELATIONS}))
