"""``.ai/manifest.yaml`` read into a :class:`Manifest`: the layer's tracked and local
directories, its sections and the names of its context documents.

Pure: text and the repository's paths in, a manifest and diagnostics out. Every problem
is a diagnostic and a built-in default stands in for what could not be read.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..diagnostics import Diagnostic
from ..phrases import Phrase, say
from ..paths import is_within
from .limits import DEFAULT_LIMITS, Limits
from .scalars import say_type_word
from .yamlish import parse_yaml

__all__ = ["LAYER_DIR", "MANIFEST_PATH", "MANIFEST_SCHEMA", "Manifest", "parse_manifest",
           "layer_path", "is_safe"]

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


def layer_path(relative: str) -> str:
    """A manifest path (relative to ``.ai/``) as a repo-relative path."""
    cleaned = posixpath.normpath(posixpath.join(LAYER_DIR, str(relative).strip().strip("/")))
    return cleaned


def is_safe(rel_path: str) -> bool:
    """False for a path that is absolute or climbs out of the repository."""
    return not (rel_path.startswith("/") or rel_path == ".." or rel_path.startswith("../"))


class _Report:
    """The manifest's diagnostics, collected in order."""

    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []

    def __call__(self, severity: str, code: str, message: Phrase, line: int | None = None) -> None:
        self.diags.append(
            Diagnostic(severity=severity, code=code, path=MANIFEST_PATH, line=line, message=message)
        )


def _read(text: str, limits: Limits, diag: _Report) -> tuple[bool, Any]:
    """(parsed, the manifest's YAML value); not parsed (and reported) on a YAML problem."""
    parsed = parse_yaml(text, limits=limits)
    if parsed.problem is None:
        return True, parsed.value
    p = parsed.problem
    if p.code != "yaml_syntax":
        diag("error", p.code,
             say("the manifest is too large to load at line {line}: {problem}. Until then only "
                 "the built-in section paths are used.", line=str(p.line), problem=p.said)
             if p.line is not None else
             say("the manifest is too large to load: {problem}. Until then only the built-in "
                 "section paths are used.", problem=p.said), p.line)
        return False, None
    diag(
        "error",
        "yaml_syntax",
        say("the manifest is not valid YAML at {where}: {problem}. Fix the syntax; until then "
            "only the built-in section paths are used.",
            where=(say("line {line}, column {column}", line=str(p.line), column=str(p.column))
                   if p.line is not None else say("an unknown line")), problem=p.said),
        p.line,
    )
    return False, None


def _check_keys(data: dict, lines: dict[str, int], diag: _Report) -> None:
    """Unknown top-level keys, and a schema other than ``ai-repository/v1``."""
    for key in data:
        if key not in _MANIFEST_KEYS:
            diag(
                "error",
                "manifest_unknown_key",
                say("unknown manifest key `{key}`; the manifest allows only {keys}. Remove it "
                    "or move it under the section that owns it.", key=str(key),
                    keys=", ".join(f"`{k}`" for k in _MANIFEST_KEYS)),
                lines.get(str(key)),
            )
    schema = data.get("schema")
    if schema != MANIFEST_SCHEMA:
        diag(
            "warning",
            "manifest_schema",
            say("field `schema` should be `{schema}`; found {found}. Set `schema: {schema}` "
                "(the layer is read as that format regardless).", schema=MANIFEST_SCHEMA,
                found=say_type_word(schema)),
            lines.get("schema"),
        )


def _sub_path(data: dict, lines: dict[str, int], key: str, default: str, diag: _Report) -> str:
    block = data.get(key)
    if block is None:
        return default
    if isinstance(block, dict) and isinstance(block.get("path"), str) and block["path"].strip():
        return block["path"]
    diag(
        "warning",
        "manifest_field",
        say("field `{key}.path` should be a directory relative to .ai/; found {found}. Write "
            "`{key}: {{path: {default}}}`.", key=key, default=default,
            found=say_type_word(block.get("path") if isinstance(block, dict) else block)),
        lines.get(key),
    )
    return default


def _sub_dir(data: dict, lines: dict[str, int], key: str, default: str, diag: _Report) -> str:
    """``repo:`` or ``local:``'s directory, repo-relative; the default when it is not one
    inside ``.ai/``."""
    raw = _sub_path(data, lines, key, default, diag)
    rel = layer_path(raw)
    if is_safe(rel) and rel.startswith(LAYER_DIR + "/"):
        return rel
    diag(
        "error",
        "manifest_field",
        say("field `{key}.path` points at `{raw}`, which is not a directory inside .ai/ (below "
            "it, not .ai/ itself); `{default}` is used. Write `{key}: {{path: {default}}}`.",
            key=key, raw=raw, default=default),
        lines.get(key),
    )
    return layer_path(default)


def _dirs_of(existing: set[str]) -> set[str]:
    """Every directory holding one of the ``existing`` paths."""
    dirs: set[str] = set()
    for p in existing:
        parent = posixpath.dirname(p)
        while parent and parent not in dirs:
            dirs.add(parent)
            parent = posixpath.dirname(parent)
    return dirs


def _sections(data: dict, text: str, lines: dict[str, int], existing: set[str],
              diag: _Report) -> dict[str, str]:
    """``sections:`` as name -> repo-relative path; a section outside ``.ai/`` is dropped."""
    sections: dict[str, str] = {}
    raw_sections = data.get("sections")
    if raw_sections is None:
        diag(
            "warning",
            "manifest_field",
            say("the manifest declares no `sections:`; built-in locations under .ai/repo/ are "
                "used. Declare `sections:` (policy, rules, adrs, project, ...) to make discovery "
                "explicit."),
        )
        return sections
    if not isinstance(raw_sections, dict):
        diag(
            "error",
            "manifest_field",
            say("field `sections` should be a mapping of section name to path; found {found}. "
                "Write one `name: path` line per section.", found=say_type_word(raw_sections)),
            lines.get("sections"),
        )
        return sections
    dirs = _dirs_of(existing)
    section_lines = _nested_lines(text, "sections")
    for name, target in raw_sections.items():
        line = section_lines.get(str(name), lines.get("sections"))
        if not isinstance(target, str) or not target.strip():
            diag(
                "error",
                "manifest_field",
                say("section `{name}` should name a path relative to .ai/; found {found}. "
                    "Write `{name}: repo/{name}`.", name=str(name), found=say_type_word(target)),
                line,
            )
            continue
        rel = layer_path(target)
        if not is_safe(rel) or not (rel == LAYER_DIR or rel.startswith(LAYER_DIR + "/")):
            diag(
                "error",
                "manifest_section_outside",
                say("section `{name}` points at `{target}`, outside .ai/; a section must lie "
                    "inside the layer. Move the files under .ai/ and point the section there.",
                    name=str(name), target=target),
                line,
            )
            continue
        sections[str(name)] = rel
        if rel not in existing and rel not in dirs:
            diag(
                "warning",
                "manifest_section_missing",
                say("section `{name}` points at `{path}`, which holds no files. Create it, fix "
                    "the path, or remove the section.", name=str(name), path=rel),
                line,
            )
    return sections


def _context_documents(data: dict, lines: dict[str, int], diag: _Report) -> tuple[str, ...]:
    """``context.documents``: the file names that carry directory contracts."""
    documents: tuple[str, ...] = ("README.md",)
    context = data.get("context")
    if context is None:
        return documents
    raw_docs = context.get("documents") if isinstance(context, dict) else None
    if isinstance(raw_docs, str):
        raw_docs = [raw_docs]
    if isinstance(raw_docs, list) and all(isinstance(d, str) for d in raw_docs):
        return tuple(raw_docs)
    diag(
        "warning",
        "manifest_field",
        say("field `context.documents` should be a list of file names; found {found}. Write "
            "`context: {{documents: [README.md]}}`.", found=say_type_word(raw_docs)),
        lines.get("context"),
    )
    return documents


def parse_manifest(text: str, existing_paths: Iterable[str], *,
                   limits: Limits = DEFAULT_LIMITS) -> tuple[Manifest, list[Diagnostic]]:
    """Read ``.ai/manifest.yaml``; every problem is a diagnostic, never an exception."""
    diag = _Report()
    parsed, data = _read(text, limits, diag)
    if not parsed:
        return Manifest(), diag.diags
    if not isinstance(data, dict):
        diag(
            "error",
            "manifest_shape",
            say("the manifest should be a mapping with keys {keys}; found {found}. Start from "
                "`schema: {schema}` and a `sections:` map.", keys=", ".join(_MANIFEST_KEYS),
                found=say_type_word(data), schema=MANIFEST_SCHEMA),
        )
        return Manifest(), diag.diags
    lines = _top_level_lines(text)
    _check_keys(data, lines, diag)
    repo_dir = _sub_dir(data, lines, "repo", "repo", diag)
    local_dir = _sub_dir(data, lines, "local", "local", diag)
    sections = _sections(data, text, lines, set(existing_paths), diag)
    documents = _context_documents(data, lines, diag)
    schema = data.get("schema")
    return (
        Manifest(
            schema=schema if isinstance(schema, str) else None,
            repo_dir=repo_dir,
            local_dir=local_dir,
            sections=sections,
            context_documents=documents,
        ),
        diag.diags,
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
