"""Build small layers in a temporary directory for tests."""

from __future__ import annotations

import textwrap
from pathlib import Path

MANIFEST = """\
schema: ai-repository/v1
repo:
  path: repo
local:
  path: local
  tracked: false
  implicit_context: false
sections:
  policy: repo/policy.yaml
  rules: repo/rules
  adrs: repo/adrs
  project: repo/project
  knowledge: repo/knowledge
context:
  documents: [README.md]
"""

SOURCES = """\
version: 1
sources:
  - id: library
    kind: implementation
    discovery: vcs
    pathspec: ':(glob)lib/*.sh'
    required: false
  - id: case
    kind: test
    discovery: vcs
    pathspec: ':(glob)test/cases/*.sh'
    required: false
"""


def write_layer(root: Path, files: dict[str, str | bytes], *, manifest: str | None = MANIFEST,
                sources: str | None = SOURCES) -> Path:
    """Write a layer: the manifest and sources (unless None) plus ``files``."""
    all_files: dict[str, str | bytes] = {}
    if manifest is not None:
        all_files[".ai/manifest.yaml"] = manifest
    if sources is not None:
        all_files[".ai/repo/knowledge/sources.yaml"] = sources
    all_files.update(files)
    for rel, content in all_files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


def issue(id: str, milestone: str = "m1", **extra: object) -> str:
    lines = [f"id: {id}", f"milestone: {milestone}", f"title: Issue {id}"]
    for key, value in extra.items():
        if isinstance(value, list):
            lines.append(f"{key}: [{', '.join(str(v) for v in value)}]")
        else:
            lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"
