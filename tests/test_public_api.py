"""The package's public API: ``generator.__all__`` is the library's interface, pinned here."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import generator

REPO_ROOT = Path(__file__).resolve().parents[1]

EXPECTED = [  # sorted as ruff's RUF022 wants it
    "BuildError",
    "CompileInput",
    "CompiledContext",
    "DevContextError",
    "Diagnostic",
    "ExplainInput",
    "Explanation",
    "GitInfo",
    "Hit",
    "Index",
    "InputError",
    "Layer",
    "LayerError",
    "LayerObject",
    "NotFoundError",
    "Provenance",
    "RequestError",
    "SiteInputs",
    "SiteStats",
    "SourceTree",
    "Trace",
    "Workspace",
    "__version__",
    "build_index",
    "build_site",
    "compile_context",
    "cross_ref_query",
    "explain",
    "explain_in",
    "load_layer",
    "load_repository",
    "read_source_tree",
    "text_query",
    "write_site",
]


def test_all_is_pinned():
    assert generator.__all__ == EXPECTED


def test_every_name_resolves_to_the_object_its_module_defines():
    from generator import engine, query, site, writer  # noqa: F401 - the modules the names live in
    from generator.engine import compile as compile_module
    from generator.site import build as site_build

    for name in EXPECTED:
        assert getattr(generator, name) is not None, name
    assert generator.compile_context is compile_module.compile_context
    assert generator.explain is engine.explain
    assert generator.text_query is query.text_query
    assert generator.cross_ref_query is query.cross_ref_query
    assert generator.build_site is site_build.build_site
    assert generator.write_site is writer.write_site
    assert set(EXPECTED) <= set(dir(generator))


def test_star_import_gives_exactly_all():
    namespace: dict[str, object] = {}
    exec("from generator import *", namespace)  # noqa: S102 - a fixed statement
    assert sorted(k for k in namespace if k != "__builtins__") == sorted(EXPECTED)


def test_an_unknown_name_is_an_attribute_error():
    try:
        generator.compile  # noqa: B018 - the access is the test
    except AttributeError as exc:
        assert str(exc) == "module 'generator' has no attribute 'compile'"
    else:  # pragma: no cover - the failure this test exists for
        raise AssertionError("generator.compile resolved")


def test_importing_the_package_leaves_engine_query_and_site_unimported():
    # They are exported lazily so every CLI verb's start-up stays what it was.
    code = (
        "import sys, generator\n"
        "print(sorted(m for m in ('generator.engine', 'generator.query', 'generator.site',"
        " 'jinja2') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout == "[]\n"


def test_the_docstring_example_runs():
    failed, attempted = doctest.testmod(generator, optionflags=doctest.ELLIPSIS)
    assert attempted >= 8
    assert failed == 0


def test_the_build_example_writes_the_demo_site(tmp_path):
    ws = generator.Workspace.open()
    stats = generator.write_site(generator.build_site(generator.SiteInputs(index=ws.index, files=ws.tree.files)),
                                 tmp_path / "site")
    assert isinstance(stats, generator.SiteStats)
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "api" / "v1" / "index.json").is_file()
