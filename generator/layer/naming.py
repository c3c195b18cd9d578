"""Whether a file's name agrees with the identity its record declares (``I0201.yaml`` for
issue ``I0201``), per the kind's naming rule in :mod:`generator.layer.kinds`."""

from __future__ import annotations

import posixpath
import re

from ..phrases import Phrase, say
from .kinds import KindSpec
from .scalars import scalar_text

__all__ = ["expected_stem"]


def expected_stem(spec: KindSpec, rel_path: str, identity_fields: dict) -> tuple[bool, Phrase] | None:
    """(matches, expectation) for kinds whose file name follows the identity; else None."""
    name = posixpath.basename(rel_path)
    stem = name.rsplit(".", 1)[0]
    ident = scalar_text(identity_fields.get(spec.identity_fields[0])) if spec.identity_fields else None
    if ident is None:
        return None
    if spec.file_naming == "stem":
        return stem == ident, _name(f"{ident}{name[len(stem):]}")
    if spec.file_naming == "stem_or_slug":
        slug = scalar_text(identity_fields.get("slug"))
        return stem in (ident, slug), _name(f"{ident}{name[len(stem):]}")
    if spec.file_naming == "adr":
        number = re.match(r"^(\d+)-", name)
        id_number = re.search(r"(\d+)$", ident)
        if not number or not id_number:
            return None
        return int(number.group(1)) == int(id_number.group(1)), say("a name starting `{prefix}`", prefix=f"{id_number.group(1)}-")
    if spec.file_naming == "rule":
        match = re.match(r"^(?P<slug>.+)\.v(?P<v>\d+)\.md$", name)
        version = scalar_text(identity_fields.get("version"))
        if not match:
            return None
        tail = ident.rsplit(".", 1)[-1]
        ok = match.group("slug") == tail and (version is None or match.group("v") == version)
        return ok, _name(f"{tail}.v{version}.md")
    if spec.file_naming == "skill":
        parent = posixpath.basename(posixpath.dirname(rel_path))
        return parent == ident, say("a directory named `{name}`", name=ident)
    return None


def _name(name: str) -> Phrase:
    # A file name alone, quoted as code: the same in every language (no catalogue entry).
    return Phrase("`{name}`", (("name", name),))
