"""Diagnostics shown outside the site: one line each on a terminal (``check``), the first few
above a build's summary line (``build``), and GitHub workflow commands that CI turns into
annotations on the pull request (``check --format github``).

Diagnostic paths are relative to the layer's repository root (``--repo``); GitHub resolves
an annotation's ``file`` against the root of the git checkout, which can be higher up (a
layer in a subdirectory, or the demo inside this project), so :func:`checkout_prefix` says
what to put in front.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from ..diagnostics import Diagnostic, Severity
from .common import plural

__all__ = [
    "BUILD_SHOWN",
    "GITHUB_COMMANDS",
    "checkout_prefix",
    "diagnostic_line",
    "first_few",
    "github_command",
    "github_escape_data",
    "github_escape_property",
]

#: How many errors and how many warnings ``build`` shows under its summary.
BUILD_SHOWN = 5

#: Severity -> GitHub workflow command.
GITHUB_COMMANDS: dict[str, str] = {"error": "error", "warning": "warning", "info": "notice"}


def diagnostic_line(d: Diagnostic) -> str:
    """``path:line:col: severity: [code] message`` — what ``check`` prints for each."""
    return f"{d.location()}: {d.severity}: [{d.code}] {d.message}"


def first_few(diagnostics: Iterable[Diagnostic], severity: Severity,
              limit: int = BUILD_SHOWN) -> list[str]:
    """The first ``limit`` diagnostics of one severity, then how many more there are and
    where to see them all."""
    chosen = [d for d in diagnostics if d.severity == severity]
    lines = [diagnostic_line(d) for d in chosen[:limit]]
    if len(chosen) > limit:
        rest = len(chosen) - limit
        lines.append(f"… and {plural(rest, 'more ' + severity)}: devcontext check lists them all")
    return lines


def github_escape_data(text: str) -> str:
    """A command's message: GitHub reads ``%``, CR and LF as syntax there."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(text: str) -> str:
    """A property value (``file=``): also ``:`` and ``,``, which end a property."""
    return github_escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(d: Diagnostic, prefix: str = "") -> str:
    """``::error file=<path>,line=<n>,col=<c>::[code] message`` for one diagnostic, with
    ``prefix`` (see :func:`checkout_prefix`) put before its path."""
    props: list[str] = []
    if d.path is not None:
        props.append(f"file={github_escape_property(prefix + d.path)}")
        if d.line is not None:
            props.append(f"line={d.line}")
            if d.column is not None:
                props.append(f"col={d.column}")
    head = "::" + GITHUB_COMMANDS[d.severity] + (" " + ",".join(props) if props else "")
    return f"{head}::{github_escape_data(f'[{d.code}] {d.message}')}"


def checkout_prefix(root: Path) -> str:
    """The path from the enclosing git checkout's root to ``root`` with a trailing ``/``
    (``""`` when ``root`` is that root, or when no directory above it holds ``.git``)."""
    real = Path(os.path.realpath(root))
    for top in (real, *real.parents):
        if (top / ".git").exists():
            rel = real.relative_to(top).as_posix()
            return "" if rel == "." else rel + "/"
    return ""
