"""Build the site: every file of it as a stream of ``(relative path, bytes)`` (pure;
:mod:`generator.writer` writes it). The build itself is :class:`.pipeline.SiteBuild` —
the same one ``devcontext serve`` runs for its first build and every rebuild.

Pages: the dashboard, a context page per issue and milestone, an object page per object,
the plan, diagnostics, search, 404, sitemap (one module each under :mod:`.pages`). JSON
under ``api/v1/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Mapping

from ..benchresults import BenchResults
from ..engine.compile import GitInfo
from ..index import Index
from . import i18n
from .markdown import MarkdownRenderer
from .overview import OVERVIEW_TEMPLATES, STATIC_FILES
from .pages.kit import PageKit
from .pipeline import site_files
from .templating import TEMPLATES_DIR, make_environment

__all__ = ["SiteInputs", "Progress", "build_site", "page_kit", "STATIC_FILES", "OVERVIEW_TEMPLATES"]


@dataclass
class Progress:
    """Callbacks a terminal can draw a progress bar from; all optional."""

    stage: Callable[[str, int], None] = lambda name, total: None
    step: Callable[[], None] = lambda: None


@dataclass
class SiteInputs:
    index: Index
    git: GitInfo = field(default_factory=GitInfo)
    #: How to name the repository on pages (never an absolute path).
    label: str = "repository"
    templates: Path = TEMPLATES_DIR
    base_url: str | None = None
    #: The source tree the index was built from (``Workspace.tree.files``): each context's
    #: pack carries its selected entries' own bytes.
    files: Mapping[str, bytes] | None = None
    #: The ``make bench`` results the reference and performance pages show (``--bench-results``).
    bench: BenchResults | None = None
    #: The interface languages (:data:`.i18n.LANGUAGES`): the first at the site's root, each
    #: other one as a whole site of its own under ``<lang>/``.
    languages: tuple[str, ...] = (i18n.DEFAULT_LANGUAGE,)


def page_kit(inputs: SiteInputs) -> PageKit:
    return PageKit(index=inputs.index, env=make_environment(inputs.templates),
                   md=MarkdownRenderer(), label=inputs.label, files=inputs.files,
                   bench=inputs.bench)


def build_site(inputs: SiteInputs, progress: Progress | None = None) -> Iterator[tuple[str, bytes]]:
    """Every file of the site, in a fixed order: every context, every object, the overview.

    Each answer is compiled, rendered and dropped: only its standings, its digest and the
    dashboard's counts are kept (holding every answer does not fit a large layer)."""
    progress = progress or Progress()
    site = inputs.languages
    for code in site:
        prefix = "" if code == site[0] else f"{code}/"
        one = replace(inputs, base_url=_language_url(inputs.base_url, prefix))
        # several languages: each stage says whose it is (the bar, and --timings)
        said = progress if len(site) == 1 else Progress(
            stage=lambda name, total, code=code: progress.stage(f"{name} ({code})", total),
            step=progress.step)
        files = i18n.translated(code, _one_language(one, said), site)
        for rel, data in files:
            yield prefix + rel, data


def _one_language(inputs: SiteInputs, progress: Progress) -> Iterator[tuple[str, bytes]]:
    """The site in the active language (its JSON is the same in every language)."""
    return site_files(page_kit(inputs), inputs.git, inputs.templates, inputs.base_url,
                      on_stage=progress.stage, on_step=progress.step)


def _language_url(base_url: str | None, prefix: str) -> str | None:
    """The absolute URL a language's site is served at: the site's own under ``<lang>/``."""
    if base_url is None or not prefix:
        return base_url
    return base_url.rstrip("/") + "/" + prefix.rstrip("/")
