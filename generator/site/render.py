"""The one Jinja environment: autoescape on, undefined names are errors, and a few filters
for numbers. Templates format; they never compute what the engine should."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ..engine.numbers import fmt_number

__all__ = ["TEMPLATES_DIR", "make_environment"]

#: The repository's ``templates/`` directory (fixed by the layout).
TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


def _thousands(n: int | float | None) -> str:
    if n is None:
        return ""
    if isinstance(n, float) and not n.is_integer():
        return fmt_number(n)
    return f"{int(n):,}"


def make_environment(templates: Path | None = None) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates or TEMPLATES_DIR)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["n"] = _thousands
    env.filters["num"] = fmt_number
    return env
