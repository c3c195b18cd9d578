"""Which files are the layer: the manifest, the source classes, and matching them.

Pure: everything here takes text and paths and returns values. Discovery reads the
manifest's sections (:mod:`.manifest`) and the source classes (:mod:`.sourceclasses`); it
never decides from an arbitrary walk. This module is the one place the rest of the
package imports discovery from.
"""

from __future__ import annotations

from .manifest import LAYER_DIR, MANIFEST_PATH, MANIFEST_SCHEMA, Manifest, parse_manifest
from .sourceclasses import SourceClass, resolve_classes, sources_path

__all__ = [
    "LAYER_DIR",
    "MANIFEST_PATH",
    "MANIFEST_SCHEMA",
    "Manifest",
    "SourceClass",
    "parse_manifest",
    "resolve_classes",
    "sources_path",
]
