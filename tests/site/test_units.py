"""The site as build units: every file of a build is made by exactly one unit, and the
build's lookup of the object units an edit reaches is the scan of their declared reads."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.compile import GitInfo
from generator.site import urls
from generator.site.build import SiteInputs, page_kit
from generator.site.pipeline import SiteBuild
from generator.site.templating import TEMPLATES_DIR
from generator.site.units import (
    Key,
    diagnostics_key,
    object_key,
    object_unit,
    path_key,
    standings_key,
    template_key,
    template_keys,
)
from generator.workspace import Workspace

_BUILT: dict = {}


def _built() -> SiteBuild:
    if not _BUILT:
        ws = Workspace.open(None)
        kit = page_kit(SiteInputs(index=ws.index, files=ws.tree.files))
        build = SiteBuild(kit, GitInfo(), TEMPLATES_DIR)
        _BUILT["files"] = [rel for rel, _ in build.files()]
        _BUILT["build"] = build
    return _BUILT["build"]


def _object_units(build: SiteBuild):
    index, state = build.kit.index, build.state
    return {uri: object_unit(uri, obj.provenance.path, state.links.get(uri, ()), lambda: [])
            for uri, obj in index.objects.items()}


def test_a_full_build_makes_each_file_once_and_every_page_file():
    build = _built()
    files = _BUILT["files"]
    assert len(files) == len(set(files))
    assert build.state.pages_files <= set(files)
    for uri in build.kit.index.objects:
        assert urls.object_page(uri) in files


def _keys(build: SiteBuild):
    index, state = build.kit.index, build.state
    uris = sorted(index.objects)
    paths = sorted({o.provenance.path for o in index.objects.values()}
                   | {p for ps in state.links.values() for p in ps})
    return st.one_of(
        st.sampled_from(uris).map(object_key), st.sampled_from(uris).map(standings_key),
        st.sampled_from(paths).map(diagnostics_key), st.sampled_from(paths).map(path_key),
        st.sampled_from([Key("kind", "issue"), Key("layer"), Key("pages"), Key("templates")]))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_object_units_looked_up_are_those_whose_reads_meet_the_changed_keys(data):
    build = _built()
    changed = set(data.draw(st.lists(_keys(build), max_size=6)))
    units = _object_units(build)
    scanned = sorted(uri for uri, unit in units.items() if not unit.reads.isdisjoint(changed))
    assert build._objects_reading(changed, build.state) == scanned


def test_a_template_change_is_read_by_the_units_of_its_pages():
    assert template_keys(["object.html"]) == {Key("templates"), template_key("object.html")}
    assert template_keys(["static/style.css"]) == {Key("templates")}
    assert template_keys(["base.html"]) >= {template_key("context.html"), template_key("object.html")}
    build = _built()
    units = _object_units(build)
    assert all(not unit.reads.isdisjoint(template_keys(["macros.html"])) for unit in units.values())
    assert build._objects_reading(template_keys(["object.html"]), build.state) == sorted(units)
