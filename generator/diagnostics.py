"""Diagnostics: every problem found in a layer, as a value.

A diagnostic never stops the work. It names the file, the line when known, the field, what
was expected, what was found and the fix, in one message. Lists of diagnostics are always
in one canonical order (see :func:`sort_diagnostics`).

Whoever makes a diagnostic gives its message as a :class:`~generator.phrases.Phrase`
(``message=say(...)``): ``message`` is then the phrase's English text (the wire, the
terminal, ``devcontext check``), and :attr:`Diagnostic.phrase` keeps the sentence itself, so
a page can say it in its reader's language. The phrase is a private attribute: it survives
pickling (the build's workers) and copying, is never serialised, and takes part in equality.
"""

from __future__ import annotations

from typing import Iterable, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr

from .phrases import Phrase

__all__ = ["Diagnostic", "Severity", "SEVERITY_RANK", "sort_diagnostics", "count_by_severity"]

Severity = Literal["error", "warning", "info"]

#: error > warning > info; lower rank sorts first.
SEVERITY_RANK: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


class Diagnostic(BaseModel):
    """One problem in the layer or in a request."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    severity: Severity
    code: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    message: str
    _phrase: Phrase | None = PrivateAttr(default=None)

    def __init__(self, **data: object) -> None:
        said = data.get("message")
        if isinstance(said, Phrase):
            data["message"] = str(said)
        super().__init__(**data)
        if isinstance(said, Phrase):
            self._phrase = said

    @property
    def phrase(self) -> Phrase | None:
        """The message as a sentence a page can translate; None for one made from a plain
        string (a test's, or one read back from JSON), which a page can only show in English."""
        return self._phrase

    def location(self) -> str:
        """``path:line:column`` with the parts that are known, or ``(layer)``."""
        if self.path is None:
            return "(layer)"
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where


def _key(d: Diagnostic) -> tuple:
    return (
        d.path is None,
        d.path or "",
        d.line if d.line is not None else 0,
        SEVERITY_RANK[d.severity],
        d.code,
        d.message,
    )


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """By path (layer-wide last), line, severity, code, message; exact duplicates removed."""
    out: list[Diagnostic] = []
    for d in sorted(diagnostics, key=_key):
        if not out or out[-1] != d:
            out.append(d)
    return out


def count_by_severity(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for d in diagnostics:
        counts[d.severity] += 1
    return counts
