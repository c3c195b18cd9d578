"""What every object parsed from one file shares: the file's path, size and section, the
claim it is parsed under, and the list its diagnostics are collected in."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..model import Provenance
from ..phrases import Phrase

__all__ = ["Claim", "FileContext"]


@dataclass(frozen=True)
class Claim:
    """A source class's claim on a file: the class id and the kind it produces."""

    class_id: str
    kind: str


class FileContext:
    """What every object of one file shares, and the file's diagnostics."""

    def __init__(self, rel_path: str, size: int, section: str | None) -> None:
        self.rel_path = rel_path
        self.size = size
        self.section = section
        self.diagnostics: list[Diagnostic] = []

    def diag(self, severity: str, code: str, message: Phrase, line: int | None = None,
             column: int | None = None) -> None:
        self.diagnostics.append(
            Diagnostic(severity=severity, code=code, path=self.rel_path, line=line,
                       column=column, message=message)
        )

    def provenance(self, source_class: str, member: str | None = None) -> Provenance:
        directory = posixpath.dirname(self.rel_path) or "."
        return Provenance(path=self.rel_path, directory=directory, source_class=source_class,
                          section=self.section, bytes=self.size, member=member)
