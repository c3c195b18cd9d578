"""The compiled templates kept between runs (generator/site/templatecache.py): used only for
the same source and configuration, never the reason a build fails."""

from __future__ import annotations

import shutil

import jinja2
import pytest
from jinja2 import Environment

from generator.site import templatecache
from generator.site.templatecache import bytecode_cache, cache_root
from generator.site.templating import make_environment

from sitekit import build, tree_bytes


def _render(env: Environment) -> str:
    return env.get_template("page.html").render(n=3)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DEVCONTEXT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def compiles(monkeypatch):
    """The names of the templates compiled from source."""
    names: list[str] = []
    real = Environment.compile

    def counted(self, source, name=None, *args, **kwargs):
        names.append(name)
        return real(self, source, name, *args, **kwargs)

    monkeypatch.setattr(Environment, "compile", counted)
    return names


@pytest.fixture
def templates(tmp_path):
    """Two templates, one extending the other, with a translated sentence."""
    made = tmp_path / "templates"
    made.mkdir()
    (made / "frame.html").write_text("<p>{% block main %}{% endblock %}</p>\n", encoding="utf-8")
    (made / "page.html").write_text(
        '{% extends "frame.html" %}{% block main %}'
        "{% trans count=n %}{{ count }} entry{% pluralize %}{{ count }} entries{% endtrans %}"
        "{% endblock %}", encoding="utf-8")
    return made


def test_a_second_environment_compiles_nothing_and_renders_the_same(cache_dir, compiles,
                                                                    templates):
    first = _render(make_environment(templates))
    assert first == "<p>3 entries</p>\n"
    assert sorted(compiles) == ["frame.html", "page.html"]
    assert list(cache_dir.glob("templates-*/__jinja2_*.cache"))
    compiles.clear()
    assert _render(make_environment(templates)) == first
    assert compiles == []


def test_a_changed_template_is_compiled_again(cache_dir, compiles, templates):
    _render(make_environment(templates))
    page = templates / "page.html"
    page.write_text(page.read_text(encoding="utf-8").replace("{% block main %}",
                                                             "{% block main %}EDITED "),
                    encoding="utf-8")
    compiles.clear()
    assert _render(make_environment(templates)) == "<p>EDITED 3 entries</p>\n"
    assert compiles == ["page.html"]


def test_another_jinja_or_configuration_uses_another_directory(cache_dir, monkeypatch):
    first = bytecode_cache().directory
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    assert bytecode_cache().directory != first


def test_off_means_no_cache(monkeypatch):
    monkeypatch.setenv("DEVCONTEXT_CACHE_DIR", "off")
    assert cache_root() is None and bytecode_cache() is None


def test_the_default_place_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("DEVCONTEXT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "devcontext"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / ".cache" / "devcontext"


def test_a_cache_that_cannot_be_made_leaves_templates_compiled_as_before(tmp_path, monkeypatch,
                                                                         compiles, templates):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("DEVCONTEXT_CACHE_DIR", str(blocked / "cache"))
    assert bytecode_cache() is None
    assert _render(make_environment(templates))
    assert "page.html" in compiles


def test_a_damaged_or_vanished_cache_is_compiled_around(cache_dir, compiles, templates):
    expected = _render(make_environment(templates))
    for cached in cache_dir.glob("templates-*/__jinja2_*.cache"):
        cached.write_bytes(cached.read_bytes()[:40])
    compiles.clear()
    assert _render(make_environment(templates)) == expected
    assert sorted(compiles) == ["frame.html", "page.html"]
    env = make_environment(templates)
    shutil.rmtree(cache_dir)  # removed between the cache's making and its first write
    assert _render(env) == expected


def test_the_directory_is_named_by_what_compiles(cache_dir):
    assert bytecode_cache().directory == str(
        cache_dir / f"templates-{templatecache._compiled_by()}")


def test_the_demo_site_is_the_same_built_from_the_cache_and_without(tmp_path, monkeypatch):
    monkeypatch.setenv("DEVCONTEXT_CACHE_DIR", "off")
    without = tree_bytes(build(None, tmp_path / "without", label="demo"))
    monkeypatch.setenv("DEVCONTEXT_CACHE_DIR", str(tmp_path / "cache"))
    build(None, tmp_path / "filling", label="demo")
    assert list((tmp_path / "cache").glob("templates-*/__jinja2_*.cache"))
    assert tree_bytes(build(None, tmp_path / "cached", label="demo")) == without
