"""Checks on a record's well-known fields: wrongly typed values, paths that can never name
a repository file, and references to the object itself. Each problem is a warning on the
file's context; the fields come back as they will be used."""

from __future__ import annotations

import re

from ..model import uri_for
from ..phrases import Phrase, say, say_n
from .fieldlines import item_line
from .filecontext import FileContext
from .scalars import say_words, scalar_text

__all__ = ["check_types", "check_paths", "check_self_references"]

# Per kind, the fields whose value is a list of text (references or paths); a single text
# is accepted as a list of one. Fields every kind may carry are under "*".
_LIST_FIELDS: dict[str, frozenset[str]] = {
    "*": frozenset({"tags", "tracks"}),
    "issue": frozenset({"depends_on", "scope", "non_scope", "serves"}),
    "milestone": frozenset({"depends_on", "scope", "non_scope", "claims"}),
    "rule": frozenset({"depends_on"}),
    "adr": frozenset({"related", "supersedes"}),
    "skill": frozenset({"related"}),
    "use-case": frozenset({"commands", "doctrines", "claims", "applications", "mcp_tools"}),
    "application": frozenset({"use_cases", "doctrines"}),
    "session": frozenset({"changed_files", "issues", "milestones"}),
    "context": frozenset({"paths"}),
    "intent": frozenset({"milestones", "governance"}),
    "feature": frozenset({"related", "doctrines", "use_cases", "claims", "rules"}),
    "moment": frozenset({"related", "doctrines", "use_cases", "claims"}),
}
_TEXT_FIELDS = frozenset({"id", "title", "milestone", "slug", "status", "class", "name", "branch",
                          "description", "summary", "objective", "outcome", "statement",
                          "session_id"})


def check_types(ctx: FileContext, kind: str, fields: dict, lines: dict[str, int],
                label: Phrase) -> dict:
    """Report wrongly typed well-known fields; return the fields as they will be used."""
    out = dict(fields)
    list_fields = _LIST_FIELDS["*"] | _LIST_FIELDS.get(kind, frozenset())
    for key, value in fields.items():
        if key in list_fields and value is not None and not isinstance(value, (list, str)):
            ctx.diag(
                "warning",
                "field_type",
                say("field `{key}` of {label} should be a list of text; found {found}. "
                    "Write `{key}: [a, b]` or one `- item` per line; the field was ignored.",
                    key=key, label=label, found=say_words(value)),
                lines.get(key),
            )
            out[key] = None
        elif key in list_fields and isinstance(value, list):
            at = [i for i, item in enumerate(value)
                  if isinstance(item, (list, dict)) or item is None]
            bad = [value[i] for i in at]
            if bad and key not in ("related", "claims", "governance"):
                ctx.diag(
                    "warning",
                    "field_type",
                    say_n("field `{key}` of {label} should list text items; found {found} among "
                          "them. Write each item as plain text; {n} item was ignored.",
                          "field `{key}` of {label} should list text items; found {found} among "
                          "them. Write each item as plain text; {n} items were ignored.",
                          n=len(bad), key=key, label=label, found=say_words(bad[0])),
                    item_line(lines, key, at[0]),
                )
                out[key] = [item for item in value if item not in bad]
        elif key in _TEXT_FIELDS and isinstance(value, (list, dict)):
            ctx.diag(
                "warning",
                "field_type",
                say("field `{key}` of {label} should be text; found {found}. "
                    "Write `{key}: <text>`; the field was ignored.",
                    key=key, label=label, found=say_words(value)),
                lines.get(key),
            )
            out[key] = None
    return out


#: Fields whose items are repository paths (or path globs) matched against the repository.
_PATH_FIELDS = frozenset({"scope", "non_scope", "paths", "changed_files"})
_DRIVE = re.compile(r"^[A-Za-z]:")


def _foreign_path(path: str) -> Phrase | None:
    """Why ``path`` is not a repository-relative path with forward slashes, or None."""
    if path.startswith("/"):
        return say("is absolute")
    if _DRIVE.match(path) or "\\" in path:
        return say("is a Windows path")
    if ".." in path.split("/"):
        return say("climbs out with `..`")
    return None


def check_paths(ctx: FileContext, fields: dict, lines: dict[str, int], label: Phrase) -> None:
    """Warn about path items that can never name a file of the repository."""
    for key in sorted(_PATH_FIELDS & fields.keys()):
        value = fields[key]
        items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        for i, item in enumerate(items):
            why = _foreign_path(item) if isinstance(item, str) else None
            if why is not None:
                ctx.diag(
                    "warning",
                    "foreign_path",
                    say("field `{key}` of {label} names `{item}`, which {why}; paths are "
                        "relative to the repository root, with `/` between names, so it matches "
                        "nothing. Write it as a repository path (e.g. `lib/tool.sh`).",
                        key=key, label=label, item=item, why=why),
                    item_line(lines, key, i) if isinstance(value, list) else lines.get(key),
                )


#: Reference fields whose items name other objects of the same kind (an object naming
#: itself there is dropped by the index: it can neither wait for nor replace itself).
_SELF_FIELDS = ("depends_on", "supersedes")


def check_self_references(ctx: FileContext, kind: str, identity: str, fields: dict,
                          lines: dict[str, int], label: Phrase) -> None:
    """Warn when ``depends_on`` or ``supersedes`` names the object itself."""
    own = {identity, uri_for(kind, identity)}
    for key in _SELF_FIELDS:
        value = fields.get(key)
        items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        at = next((i for i, item in enumerate(items)
                   if scalar_text(item) is not None and scalar_text(item).strip() in own), None)
        if at is not None:
            ctx.diag(
                "warning",
                "self_reference",
                say("field `{key}` of {label} names `{identity}` itself; the reference is "
                    "ignored. Remove it from `{key}`.", key=key, label=label, identity=identity),
                item_line(lines, key, at) if isinstance(value, list) else lines.get(key),
            )
