"""Load a layer: from a :class:`SourceTree` (pure) or from a repository on disk.

``load_layer`` is the pure half: manifest, classes, every file parsed, identities made
unique, every problem a diagnostic. ``load_repository`` reads the tree first.
"""

from __future__ import annotations

import hashlib
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, MutableMapping

from ..diagnostics import Diagnostic, sort_diagnostics
from ..model import LayerObject
from ..paths import is_within
from ..phrases import say
from .discovery import (
    LAYER_DIR,
    MANIFEST_PATH,
    Manifest,
    SourceClass,
    parse_manifest,
    resolve_classes,
    sources_path,
)
from .limits import DEFAULT_LIMITS, Limits
from .reader import SourceTree, read_source_tree
from .records import Claim, ParsedFile, parse_file

__all__ = [
    "Layer",
    "load_layer",
    "load_repository",
    "fingerprint_of",
    "ParseCache",
    "LayerSetup",
    "FileLoad",
    "layer_setup",
    "load_file",
    "assemble_layer",
    "Limits",
    "DEFAULT_LIMITS",
]

#: Per-file parse results keyed by everything the parse depends on; lets a rebuild re-parse
#: only the files whose bytes (or claims) changed.
ParseCache = MutableMapping[tuple, ParsedFile]


@dataclass(frozen=True)
class Layer:
    """A loaded layer: its objects (by URI order), diagnostics and fingerprint."""

    manifest: Manifest
    classes: tuple[SourceClass, ...]
    objects: tuple[LayerObject, ...]
    diagnostics: tuple[Diagnostic, ...]
    fingerprint: str
    #: Every file read (repo-relative path -> size), the denominator of "every file is
    #: an object or a diagnostic".
    files: dict[str, int] = field(default_factory=dict)

    def counts_by_kind(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for obj in self.objects:
            counts[obj.kind] = counts.get(obj.kind, 0) + 1
        return dict(sorted(counts.items()))


#: Bytes handed to the hash at a time: one call per megabyte, not five per file (a large
#: layer's 31,000 files took a quarter of the time in the calls).
_HASH_CHUNK = 1 << 20


def fingerprint_of(files: dict[str, bytes]) -> str:
    """SHA-256 over the sorted paths and contents (each file as ``path NUL size NUL
    bytes``): any changed byte changes it."""
    digest = hashlib.sha256()
    parts: list[bytes] = []
    size = 0
    for path in sorted(files):
        data = files[path]
        parts.append(b"%s\0%d\0" % (path.encode("utf-8"), len(data)))
        parts.append(data)
        size += len(data)
        if size >= _HASH_CHUNK:
            digest.update(b"".join(parts))
            parts.clear()
            size = 0
    digest.update(b"".join(parts))
    return "sha256:" + digest.hexdigest()


def _in_layer(rel_path: str) -> bool:
    return rel_path.startswith(LAYER_DIR + "/")


@dataclass(frozen=True)
class LayerSetup:
    """What the manifest and ``sources.yaml`` decide for every file: the manifest, the
    classes, their diagnostics. Depends on the manifest's text, the sources file's text and
    the set of paths (for the manifest's "section holds no files" check) only."""

    manifest: Manifest
    classes: tuple[SourceClass, ...]
    src_path: str
    #: The manifest's and the classes' diagnostics, in that order.
    diagnostics: tuple[Diagnostic, ...]
    #: What one file may cost to parse (every file of the layer is parsed under these).
    limits: Limits = DEFAULT_LIMITS

    def discovery_key(self) -> tuple:
        """Everything a per-file result (:func:`load_file`) depends on besides the file."""
        return (self.manifest.local_dir, self.manifest.context_documents,
                tuple(self.manifest.sections.items()), self.classes, self.limits)


@dataclass(frozen=True)
class FileLoad:
    """One file's part of the layer: the classes that claim it, and its objects and
    diagnostics (an ``unclassified`` note for a layer file nothing discovers)."""

    claims: tuple[Claim, ...]
    objects: tuple[LayerObject, ...]
    diagnostics: tuple[Diagnostic, ...]


def layer_setup(files: dict[str, bytes], *, limits: Limits = DEFAULT_LIMITS) -> LayerSetup:
    """Parse the manifest and resolve the classes (pure); ``limits`` bound every file's parse."""
    manifest_bytes = files.get(MANIFEST_PATH)
    manifest_text = manifest_bytes.decode("utf-8", "replace") if manifest_bytes is not None else ""
    manifest, manifest_diags = parse_manifest(manifest_text, files, limits=limits)
    src_path = sources_path(manifest)
    src_bytes = files.get(src_path)
    classes, class_diags = resolve_classes(
        manifest, None if src_bytes is None else src_bytes.decode("utf-8", "replace"), src_path,
        limits=limits,
    )
    return LayerSetup(manifest, tuple(classes), src_path, tuple(manifest_diags) + tuple(class_diags),
                      limits)


def _class_prefixes(setup: LayerSetup) -> list[tuple[SourceClass, str]]:
    # A cheap prefix test first: most classes cannot match most paths.
    return [(c, c.pathspec.base_dir + "/" if c.pathspec.base_dir else "") for c in setup.classes]


def load_file(setup: LayerSetup, rel_path: str, data: bytes, *, cache: ParseCache | None = None,
              _prefixes: list[tuple[SourceClass, str]] | None = None) -> FileLoad | None:
    """One file's objects and diagnostics (pure); None for this checkout's local state."""
    manifest = setup.manifest
    if is_within(rel_path, manifest.local_dir):  # local_dir is under .ai/, never the root
        return None
    prefixes = _prefixes if _prefixes is not None else _class_prefixes(setup)
    claims = tuple(
        Claim(c.id, c.kind)
        for c, prefix in prefixes
        if rel_path.startswith(prefix) and c.pathspec.matches(rel_path)
    )
    contract_name = _in_layer(rel_path) and posixpath.basename(rel_path) in manifest.context_documents
    if not claims and not contract_name:
        if _in_layer(rel_path):
            return FileLoad(claims, (), (Diagnostic(
                severity="info",
                code="unclassified",
                path=rel_path,
                message=say("is in the layer but no source class discovers it, so it is not "
                            "an object. Add a class for it to sources.yaml, or move it."),
            ),))
        return FileLoad(claims, (), ())
    section = manifest.section_of(rel_path)
    key = (rel_path, hashlib.sha1(data).digest(), claims, section, contract_name, setup.limits)
    parsed = cache.get(key) if cache is not None else None
    if parsed is None:
        parsed = parse_file(rel_path, data, claims, section, contract_name=contract_name,
                            limits=setup.limits)
        if cache is not None:
            cache[key] = parsed
    return FileLoad(claims, parsed.objects, parsed.diagnostics)


def assemble_layer(setup: LayerSetup, problems: Iterable[Diagnostic],
                   loads: Iterable[FileLoad | None], *, fingerprint: str,
                   files: dict[str, int]) -> Layer:
    """The layer from its files' parts, given in path order (pure)."""
    diagnostics: list[Diagnostic] = list(problems)
    diagnostics.extend(setup.diagnostics)
    discovered: dict[str, int] = {c.id: 0 for c in setup.classes}
    candidates: list[LayerObject] = []
    for load in loads:
        if load is None:
            continue
        for claim in load.claims:
            discovered[claim.class_id] += 1
        candidates.extend(load.objects)
        diagnostics.extend(load.diagnostics)

    for source_class in setup.classes:
        if source_class.required and discovered[source_class.id] == 0:
            diagnostics.append(
                Diagnostic(
                    severity="warning",
                    code="required_class_empty",
                    path=setup.src_path,
                    message=say("class `{id}` is required but discovers no file (pathspec "
                                "`{pathspec}`). Add the file, fix the pathspec, or mark the "
                                "class `required: false`.", id=source_class.id,
                                pathspec=source_class.pathspec.text),
                )
            )

    objects = _unique_identities(candidates, diagnostics)
    _case_clashes(objects, files, diagnostics)
    return Layer(
        manifest=setup.manifest,
        classes=setup.classes,
        objects=tuple(sorted(objects, key=lambda o: o.uri)),
        diagnostics=tuple(sort_diagnostics(diagnostics)),
        fingerprint=fingerprint,
        files=files,
    )


def load_layer(tree: SourceTree, *, cache: ParseCache | None = None,
               limits: Limits = DEFAULT_LIMITS) -> Layer:
    """Parse every file of ``tree`` into objects; never raises for bad input (a file beyond
    ``limits`` is a diagnostic)."""
    setup = layer_setup(tree.files, limits=limits)
    prefixes = _class_prefixes(setup)
    loads = [load_file(setup, rel_path, data, cache=cache, _prefixes=prefixes)
             for rel_path, data in tree.files.items()]
    return assemble_layer(setup, tree.problems, loads, fingerprint=fingerprint_of(tree.files),
                          files={p: len(b) for p, b in tree.files.items()})


def _unique_identities(candidates: list[LayerObject], diagnostics: list[Diagnostic]) -> list[LayerObject]:
    """One object per URI: the first by (path, member) keeps it; each other is reported."""
    by_uri: dict[str, list[LayerObject]] = {}
    for obj in candidates:
        by_uri.setdefault(obj.uri, []).append(obj)
    kept: list[LayerObject] = []
    for uri, group in by_uri.items():
        if len(group) == 1:
            kept.append(group[0])
            continue
        group.sort(key=lambda o: (o.provenance.path, o.provenance.member or ""))
        winner = group[0]
        kept.append(winner)
        for loser in group[1:]:
            diagnostics.append(
                Diagnostic(
                    severity="error",
                    code="duplicate_identity",
                    path=loser.provenance.path,
                    line=loser.line_of(_identity_field(loser)) or loser.line_of("@member"),
                    message=say("claims identity `{uri}`, which {path} already holds; only "
                                "the first (by path) is indexed. Give this {kind} a new, unused "
                                "id (above the highest one in use).", uri=uri,
                                path=winner.provenance.path, kind=loser.kind),
                )
            )
    return kept


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _case_clashes(objects: list[LayerObject], files: dict[str, int],
                  diagnostics: list[Diagnostic]) -> None:
    """Warn where two names differ only in ASCII letter case: a case-insensitive disk (macOS,
    Windows) holds only one of the two files, and the site's pages for two such identities
    (their file names keep letters as they are) overwrite each other there."""
    seen: dict[str, str] = {}
    for rel_path in sorted(files):
        key = rel_path.translate(_ASCII_LOWER)
        if key in seen:
            diagnostics.append(Diagnostic(
                severity="warning", code="case_clash", path=rel_path,
                message=say("differs from {path} only in letter case; a case-insensitive "
                            "disk (macOS, Windows) keeps only one of them. Rename one of the "
                            "two files.", path=seen[key])))
        else:
            seen[key] = rel_path
    holders: dict[tuple[str, str], LayerObject] = {}
    for obj in sorted(objects, key=lambda o: (o.provenance.path, o.uri)):
        key = (obj.kind, obj.identity.translate(_ASCII_LOWER))
        other = holders.get(key)
        if other is None:
            holders[key] = obj
            continue
        if other.provenance.path.translate(_ASCII_LOWER) == obj.provenance.path.translate(_ASCII_LOWER):
            continue  # the same clash, already reported for the files
        diagnostics.append(Diagnostic(
            severity="warning", code="case_clash", path=obj.provenance.path,
            line=obj.line_of(_identity_field(obj)) or None,
            message=say("{kind} `{identity}` differs from `{other}` (in {path}) only in letter "
                        "case; on a case-insensitive disk their pages in the built site "
                        "overwrite each other. Give one of them another id.", kind=obj.kind,
                        identity=obj.identity, other=other.identity,
                        path=other.provenance.path)))


def _identity_field(obj: LayerObject) -> str:
    from .kinds import kind_spec

    fields = kind_spec(obj.kind).identity_fields
    return fields[0] if fields else ""


def load_repository(
    root: Path | str, *, exclude: Iterable[Path | str] = (), cache: ParseCache | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[SourceTree, Layer]:
    """Read the repository at ``root`` and load its layer, both under ``limits``."""
    tree = read_source_tree(root, exclude=exclude, limits=limits)
    return tree, load_layer(tree, cache=cache, limits=limits)
