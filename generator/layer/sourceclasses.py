"""The source classes: which files of the repository are which kind. The built-in classes
(:data:`generator.layer.kinds.DEFAULT_CLASSES`, placed by the manifest's sections),
extended and overridden (same id) by the repository's ``sources.yaml``.

Pure: the manifest and the file's text in, classes and diagnostics out.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic
from ..phrases import Phrase, say, say_n
from .kinds import DEFAULT_CLASSES
from .limits import DEFAULT_LIMITS, Limits
from .manifest import Manifest, is_safe
from .pathspec import Pathspec, compile_pathspec
from .scalars import say_type_word
from .yamlish import parse_yaml

__all__ = ["SourceClass", "resolve_classes", "sources_path"]


@dataclass(frozen=True)
class SourceClass:
    """A class of knowledge sources: every file matching ``pathspec`` is of ``kind``."""

    id: str
    kind: str
    pathspec: Pathspec
    required: bool = False
    #: ``builtin`` or ``repository`` (declared in sources.yaml).
    origin: str = "builtin"


def sources_path(manifest: Manifest) -> str:
    """Where ``sources.yaml`` lives: in the knowledge section (``.ai/repo/knowledge``)."""
    knowledge = manifest.sections.get("knowledge", posixpath.join(manifest.repo_dir, "knowledge"))
    return posixpath.join(knowledge, "sources.yaml")


def _builtin_classes(manifest: Manifest) -> list[SourceClass]:
    out = []
    for dc in DEFAULT_CLASSES:
        if dc.section is None:
            pattern = dc.glob
        else:
            base = manifest.sections.get(dc.section)
            if base is None:
                base = posixpath.join(manifest.repo_dir, dc.fallback)
            pattern = base if not dc.glob else posixpath.join(base, dc.glob)
        out.append(SourceClass(dc.id, dc.kind, compile_pathspec(":(glob)" + pattern)))
    return out


_CLASS_KEYS = ("id", "kind", "discovery", "pathspec", "required")


def _where(line: int | None, column: int | None) -> Phrase:
    """Where in a YAML text a problem is (its line and column, when known)."""
    if line is None:
        return say("an unknown line")
    return say("line {line}, column {column}", line=str(line), column=str(column))


def _entries(sources_text: str, path: str, limits: Limits,
             diags: list[Diagnostic]) -> list[Any] | None:
    """The ``sources:`` list of the file, or None (reported) when there is none to read."""
    parsed = parse_yaml(sources_text, limits=limits)
    if parsed.problem is not None:
        p = parsed.problem
        if p.code != "yaml_syntax":
            diags.append(Diagnostic(
                severity="error", code=p.code, path=path, line=p.line, column=p.column,
                message=(say("the source classes file is too large to load at line {line}: "
                             "{problem}. Until then only the built-in classes are used.",
                             line=str(p.line), problem=p.said) if p.line is not None
                         else say("the source classes file is too large to load: {problem}. "
                                  "Until then only the built-in classes are used.",
                                  problem=p.said))))
            return None
        diags.append(
            Diagnostic(
                severity="error",
                code="yaml_syntax",
                path=path,
                line=p.line,
                column=p.column,
                message=say("not valid YAML at {where}: {problem}. Fix the syntax; until then "
                            "only the built-in classes are used.",
                            where=_where(p.line, p.column), problem=p.said),
            )
        )
        return None
    data = parsed.value
    entries = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        diags.append(
            Diagnostic(
                severity="error",
                code="sources_shape",
                path=path,
                message=say("field `sources` should be a list of classes ({keys}); found "
                            "{found}. Only the built-in classes are used.",
                            keys=", ".join(_CLASS_KEYS), found=say_type_word(entries)),
            )
        )
        return None
    return entries


def _declared_class(entry: Any, position: int, path: str,
                    diags: list[Diagnostic]) -> SourceClass | None:
    """The class entry ``position`` of ``sources:`` declares, or None (reported) when it
    is skipped."""
    def report(severity: str, message: Phrase) -> None:
        diags.append(Diagnostic(severity=severity, code="sources_class", path=path,
                                message=message))

    where = f"#{position}"
    if not isinstance(entry, dict):
        report("error", say("class {number} should be a mapping with {keys}; found {found}. It "
                            "was skipped.", number=where, keys=", ".join(_CLASS_KEYS),
                            found=say_type_word(entry)))
        return None
    missing = [k for k in ("id", "kind", "pathspec") if not isinstance(entry.get(k), str)]
    if missing:
        ident: Phrase | str = str(entry["id"]) if "id" in entry else say("no id")
        report("error", say_n("class {number} ({id}) lacks the text field {fields}. Add it; the "
                              "class was skipped.",
                              "class {number} ({id}) lacks the text fields {fields}. Add them; "
                              "the class was skipped.", n=len(missing), number=where, id=ident,
                              fields=", ".join(f"`{k}`" for k in missing)))
        return None
    discovery = entry.get("discovery", "vcs")
    if discovery != "vcs":
        report("warning", say("class `{id}` has discovery {found}; only `vcs` is known. It is "
                              "read as `vcs` (the files matching the pathspec).",
                              id=entry["id"], found=say_type_word(discovery)))
    spec = compile_pathspec(entry["pathspec"].strip())
    if not is_safe(spec.pattern) or ".." in spec.pattern.split("/"):
        report("error", say("class `{id}` pathspec `{pathspec}` leaves the repository. Use a "
                            "repository-relative pathspec; the class was skipped.",
                            id=entry["id"], pathspec=entry["pathspec"]))
        return None
    return SourceClass(
        id=entry["id"],
        kind=entry["kind"].strip(),
        pathspec=spec,
        required=entry.get("required") is True,
        origin="repository",
    )


def resolve_classes(
    manifest: Manifest, sources_text: str | None, path: str, *, limits: Limits = DEFAULT_LIMITS
) -> tuple[list[SourceClass], list[Diagnostic]]:
    """Built-in classes, extended and overridden (same id) by ``sources.yaml``."""
    diags: list[Diagnostic] = []
    classes = {c.id: c for c in _builtin_classes(manifest)}
    if sources_text is None:
        diags.append(
            Diagnostic(
                severity="info",
                code="sources_missing",
                path=path,
                message=say("no source classes file at {path}; only the built-in classes are "
                            "used. Add one to declare where the repository's code, tests and "
                            "documents live.", path=path),
            )
        )
        return list(classes.values()), diags
    entries = _entries(sources_text, path, limits, diags)
    for position, entry in enumerate(entries or (), start=1):
        declared = _declared_class(entry, position, path, diags)
        if declared is not None:
            classes[declared.id] = declared
    return list(classes.values()), diags
