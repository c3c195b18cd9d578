"""The one Jinja environment: autoescape on, undefined names are errors, and a few filters
for numbers. Templates format; they never compute what the engine should."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ..engine.numbers import fmt_number

__all__ = ["TEMPLATES_DIR", "make_environment"]


def _bundled_templates() -> Path:
    """The templates shipped in the package, ``generator/_templates``: a copy in an installed
    wheel, a link to the repository's top-level ``templates/`` in a checkout (so an editable
    install renders, and ``serve`` watches, the files being edited). Resolved, so watchers and
    error messages see the real directory."""
    return Path(str(resources.files("generator") / "_templates")).resolve()


#: The bundled templates and static assets (found through the package, never the checkout).
TEMPLATES_DIR = _bundled_templates()


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
