"""Which files are the layer: the manifest, the source classes, and matching them.

Pure: everything here takes text and paths and returns values. Discovery reads the
manifest's sections and the source classes; it never decides from an arbitrary walk.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Iterable

from ..diagnostics import Diagnostic
from ..paths import is_within
from .kinds import DEFAULT_CLASSES
from .pathspec import Pathspec, compile_pathspec
from .limits import DEFAULT_LIMITS, Limits
from .yamlish import parse_yaml

__all__ = [
    "LAYER_DIR",
    "MANIFEST_PATH",
    "Manifest",
    "SourceClass",
    "parse_manifest",
    "resolve_classes",
    "sources_path",
]

LAYER_DIR = ".ai"
MANIFEST_PATH = ".ai/manifest.yaml"
MANIFEST_SCHEMA = "ai-repository/v1"
_MANIFEST_KEYS = ("schema", "repo", "local", "sections", "context")


@dataclass(frozen=True)
class Manifest:
    """The parts of ``.ai/manifest.yaml`` discovery needs, with paths made repo-relative."""

    schema: str | None = None
    #: ``.ai/repo`` — the tracked half of the layer.
    repo_dir: str = ".ai/repo"
    #: ``.ai/local`` — this checkout's untracked state; never part of a build.
    local_dir: str = ".ai/local"
    #: section name -> repo-relative path (file or directory), in manifest order.
    sections: dict[str, str] = field(default_factory=dict)
    #: File names that carry a directory contract wherever they appear under ``.ai/``.
    context_documents: tuple[str, ...] = ("README.md",)

    def section_of(self, rel_path: str) -> str | None:
        """The section whose path is, or contains, ``rel_path`` (the longest wins)."""
        best: tuple[int, str] | None = None
        for name, target in self.sections.items():
            if is_within(rel_path, target):  # a section is never the root
                if best is None or len(target) > best[0]:
                    best = (len(target), name)
        return None if best is None else best[1]


@dataclass(frozen=True)
class SourceClass:
    """A class of knowledge sources: every file matching ``pathspec`` is of ``kind``."""

    id: str
    kind: str
    pathspec: Pathspec
    required: bool = False
    #: ``builtin`` or ``repository`` (declared in sources.yaml).
    origin: str = "builtin"


def _layer_path(relative: str) -> str:
    """A manifest path (relative to ``.ai/``) as a repo-relative path."""
    cleaned = posixpath.normpath(posixpath.join(LAYER_DIR, str(relative).strip().strip("/")))
    return cleaned


def _is_safe(rel_path: str) -> bool:
    return not (rel_path.startswith("/") or rel_path == ".." or rel_path.startswith("../"))


def _type_word(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def parse_manifest(text: str, existing_paths: Iterable[str], *,
                   limits: Limits = DEFAULT_LIMITS) -> tuple[Manifest, list[Diagnostic]]:
    """Read ``.ai/manifest.yaml``; every problem is a diagnostic, never an exception."""
    diags: list[Diagnostic] = []

    def diag(severity: str, code: str, message: str, line: int | None = None) -> None:
        diags.append(
            Diagnostic(severity=severity, code=code, path=MANIFEST_PATH, line=line, message=message)
        )

    parsed = parse_yaml(text, limits=limits)
    if parsed.problem is not None:
        p = parsed.problem
        if p.code != "yaml_syntax":
            where = f" at line {p.line}" if p.line is not None else ""
            diag("error", p.code, f"the manifest is too large to load{where}: {p.message}. Until "
                 "then only the built-in section paths are used.", p.line)
            return Manifest(), diags
        diag(
            "error",
            "yaml_syntax",
            f"the manifest is not valid YAML at "
            f"{f'line {p.line}, column {p.column}' if p.line is not None else 'an unknown line'}: "
            f"{p.message}. "
            "Fix the syntax; until then only the built-in section paths are used.",
            p.line,
        )
        return Manifest(), diags
    data = parsed.value
    if not isinstance(data, dict):
        diag(
            "error",
            "manifest_shape",
            f"the manifest should be a mapping with keys {', '.join(_MANIFEST_KEYS)}; found "
            f"{_type_word(data)}. Start from `schema: {MANIFEST_SCHEMA}` and a `sections:` map.",
        )
        return Manifest(), diags
    lines = _top_level_lines(text)
    for key in data:
        if key not in _MANIFEST_KEYS:
            diag(
                "error",
                "manifest_unknown_key",
                f"unknown manifest key `{key}`; the manifest allows only "
                f"{', '.join(f'`{k}`' for k in _MANIFEST_KEYS)}. Remove it or move it under "
                "the section that owns it.",
                lines.get(str(key)),
            )
    schema = data.get("schema")
    if schema != MANIFEST_SCHEMA:
        diag(
            "warning",
            "manifest_schema",
            f"field `schema` should be `{MANIFEST_SCHEMA}`; found {_type_word(schema)}. "
            f"Set `schema: {MANIFEST_SCHEMA}` (the layer is read as that format regardless).",
            lines.get("schema"),
        )

    def sub_path(key: str, default: str) -> str:
        block = data.get(key)
        if block is None:
            return default
        if isinstance(block, dict) and isinstance(block.get("path"), str) and block["path"].strip():
            return block["path"]
        diag(
            "warning",
            "manifest_field",
            f"field `{key}.path` should be a directory relative to .ai/; found "
            f"{_type_word(block.get('path') if isinstance(block, dict) else block)}. "
            f"Write `{key}: {{path: {default}}}`.",
            lines.get(key),
        )
        return default

    def sub_dir(key: str, default: str) -> str:
        raw = sub_path(key, default)
        rel = _layer_path(raw)
        if _is_safe(rel) and rel.startswith(LAYER_DIR + "/"):
            return rel
        diag(
            "error",
            "manifest_field",
            f"field `{key}.path` points at `{raw}`, which is not a directory inside .ai/ (below "
            f"it, not .ai/ itself); `{default}` is used. Write `{key}: {{path: {default}}}`.",
            lines.get(key),
        )
        return _layer_path(default)

    repo_dir = sub_dir("repo", "repo")
    local_dir = sub_dir("local", "local")

    existing = set(existing_paths)
    dirs: set[str] = set()
    for p in existing:
        parent = posixpath.dirname(p)
        while parent and parent not in dirs:
            dirs.add(parent)
            parent = posixpath.dirname(parent)

    sections: dict[str, str] = {}
    raw_sections = data.get("sections")
    if raw_sections is None:
        diag(
            "warning",
            "manifest_field",
            "the manifest declares no `sections:`; built-in locations under .ai/repo/ are used. "
            "Declare `sections:` (policy, rules, adrs, project, ...) to make discovery explicit.",
        )
    elif not isinstance(raw_sections, dict):
        diag(
            "error",
            "manifest_field",
            f"field `sections` should be a mapping of section name to path; found "
            f"{_type_word(raw_sections)}. Write one `name: path` line per section.",
            lines.get("sections"),
        )
    else:
        section_lines = _nested_lines(text, "sections")
        for name, target in raw_sections.items():
            if not isinstance(target, str) or not target.strip():
                diag(
                    "error",
                    "manifest_field",
                    f"section `{name}` should name a path relative to .ai/; found "
                    f"{_type_word(target)}. Write `{name}: repo/{name}`.",
                    section_lines.get(str(name), lines.get("sections")),
                )
                continue
            rel = _layer_path(target)
            if not _is_safe(rel) or not (rel == LAYER_DIR or rel.startswith(LAYER_DIR + "/")):
                diag(
                    "error",
                    "manifest_section_outside",
                    f"section `{name}` points at `{target}`, outside .ai/; a section must lie "
                    "inside the layer. Move the files under .ai/ and point the section there.",
                    section_lines.get(str(name), lines.get("sections")),
                )
                continue
            sections[str(name)] = rel
            if rel not in existing and rel not in dirs:
                diag(
                    "warning",
                    "manifest_section_missing",
                    f"section `{name}` points at `{rel}`, which holds no files. Create it, fix "
                    f"the path, or remove the section.",
                    section_lines.get(str(name), lines.get("sections")),
                )

    documents: tuple[str, ...] = ("README.md",)
    context = data.get("context")
    if context is not None:
        raw_docs = context.get("documents") if isinstance(context, dict) else None
        if isinstance(raw_docs, str):
            raw_docs = [raw_docs]
        if isinstance(raw_docs, list) and all(isinstance(d, str) for d in raw_docs):
            documents = tuple(raw_docs)
        else:
            diag(
                "warning",
                "manifest_field",
                "field `context.documents` should be a list of file names; found "
                f"{_type_word(raw_docs)}. Write `context: {{documents: [README.md]}}`.",
                lines.get("context"),
            )
    return (
        Manifest(
            schema=schema if isinstance(schema, str) else None,
            repo_dir=repo_dir,
            local_dir=local_dir,
            sections=sections,
            context_documents=documents,
        ),
        diags,
    )


def _nested_lines(text: str, parent: str) -> dict[str, int]:
    """Lines of the keys one level under the top-level key ``parent``."""
    lines: dict[str, int] = {}
    inside = False
    for number, line in enumerate(text.split("\n"), start=1):
        if line[:1].isalpha() or line[:1] == "_":
            inside = line.split(":", 1)[0].strip() == parent
            continue
        if inside and line.strip() and not line.lstrip().startswith("#") and ":" in line:
            lines.setdefault(line.split(":", 1)[0].strip(), number)
    return lines


def _top_level_lines(text: str) -> dict[str, int]:
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if line[:1].isalpha() or line[:1] == "_":
            key = line.split(":", 1)[0].strip()
            lines.setdefault(key, number)
    return lines


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
                message=f"no source classes file at {path}; only the built-in classes are used. "
                "Add one to declare where the repository's code, tests and documents live.",
            )
        )
        return list(classes.values()), diags
    parsed = parse_yaml(sources_text, limits=limits)
    if parsed.problem is not None:
        p = parsed.problem
        if p.code != "yaml_syntax":
            diags.append(Diagnostic(
                severity="error", code=p.code, path=path, line=p.line, column=p.column,
                message="the source classes file is too large to load"
                f"{f' at line {p.line}' if p.line is not None else ''}: {p.message}. Until "
                "then only the built-in classes are used."))
            return list(classes.values()), diags
        diags.append(
            Diagnostic(
                severity="error",
                code="yaml_syntax",
                path=path,
                line=p.line,
                column=p.column,
                message="not valid YAML at "
                f"{f'line {p.line}, column {p.column}' if p.line is not None else 'an unknown line'}: "
                f"{p.message}. "
                "Fix the syntax; until then only the built-in classes are used.",
            )
        )
        return list(classes.values()), diags
    data = parsed.value
    entries = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        diags.append(
            Diagnostic(
                severity="error",
                code="sources_shape",
                path=path,
                message=f"field `sources` should be a list of classes ({', '.join(_CLASS_KEYS)}); "
                f"found {_type_word(entries)}. Only the built-in classes are used.",
            )
        )
        return list(classes.values()), diags
    for position, entry in enumerate(entries, start=1):
        where = f"class #{position}"
        if not isinstance(entry, dict):
            diags.append(
                Diagnostic(
                    severity="error",
                    code="sources_class",
                    path=path,
                    message=f"{where} should be a mapping with {', '.join(_CLASS_KEYS)}; found "
                    f"{_type_word(entry)}. It was skipped.",
                )
            )
            continue
        missing = [k for k in ("id", "kind", "pathspec") if not isinstance(entry.get(k), str)]
        if missing:
            diags.append(
                Diagnostic(
                    severity="error",
                    code="sources_class",
                    path=path,
                    message=f"{where} ({entry.get('id', 'no id')}) lacks the text "
                    f"field{'s' if len(missing) != 1 else ''} "
                    f"{', '.join(f'`{k}`' for k in missing)}. Add "
                    f"{'them' if len(missing) != 1 else 'it'}; the class was skipped.",
                )
            )
            continue
        discovery = entry.get("discovery", "vcs")
        if discovery != "vcs":
            diags.append(
                Diagnostic(
                    severity="warning",
                    code="sources_class",
                    path=path,
                    message=f"class `{entry['id']}` has discovery {_type_word(discovery)}; only "
                    "`vcs` is known. It is read as `vcs` (the files matching the pathspec).",
                )
            )
        spec = compile_pathspec(entry["pathspec"].strip())
        if not _is_safe(spec.pattern) or ".." in spec.pattern.split("/"):
            diags.append(
                Diagnostic(
                    severity="error",
                    code="sources_class",
                    path=path,
                    message=f"class `{entry['id']}` pathspec `{entry['pathspec']}` leaves the "
                    "repository. Use a repository-relative pathspec; the class was skipped.",
                )
            )
            continue
        classes[entry["id"]] = SourceClass(
            id=entry["id"],
            kind=entry["kind"].strip(),
            pathspec=spec,
            required=entry.get("required") is True,
            origin="repository",
        )
    return list(classes.values()), diags
