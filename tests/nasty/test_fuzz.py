"""Fuzzing on top of the fixed corpus: random YAML-ish text and random bytes in a layer's
files never raise, every problem names a file of the layer, no fuzzed file is silently
dropped; the fast YAML reader agrees with PyYAML on whatever it accepts; and a few random
layers build into a whole site.

Bounded and deterministic (``derandomize=True``): the example counts below are the cost.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.engine.compile import GitInfo
from generator.index import build_index
from generator.layer.loader import load_layer
from generator.layer.reader import SourceTree
from generator.site.build import SiteInputs, build_site
from generator.site.urls import object_page
from generator.writer import write_site
from layerkit import MANIFEST, SOURCES
from layer.test_fastyaml import agree
from nastykit import BASE

LOADER_EXAMPLES = 300
FAST_EXAMPLES = 300
BUILD_EXAMPLES = 6

# Pieces YAML (and Markdown front matter) give meaning to, and a few that break things.
_PIECES = [
    "id: ", "title: ", "depends_on: ", "scope: ", "milestone: ", "status: ", "k: ", "? ", ": ",
    "- ", "-", "[", "]", "{", "}", ", ", "&a ", "*a", "&b ", "*b", "<<: ", "!!str ", "!x ", "|",
    ">", "'", '"', "\\", "# ", "\n", "\n  ", "\n    ", "  ", "\t", "\r\n", "\r", "---", "...",
    "%YAML 1.2", "~", "null", "true", "0x1F", "0o17", "1e3", ".inf", "0052", "I0001", "m1",
    "majordomus://issue/I0001", "../", "/etc", "C:\\", "\x00", "\ufeff", "\u202e", "é", "😀",
    "\x85", "\u2028", "\ud800",
]
YAMLISH = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)
FILE_BYTES = st.one_of(
    YAMLISH.map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=200),
    YAMLISH.map(lambda t: ("---\n" + t + "\n---\n# Body\n").encode("utf-8", "surrogatepass")),
)
#: Files a fuzzed layer may replace or add: records, front matter, the class file, the manifest.
TARGETS = [
    ".ai/repo/project/issues/I0001.yaml", ".ai/repo/project/issues/I0077.yaml",
    ".ai/repo/project/milestones/m1.yaml", ".ai/repo/adrs/0001-first.md",
    ".ai/repo/rules/project/alpha.v2.md", ".ai/repo/knowledge/curated/notes.md",
    ".ai/repo/use-cases/taxonomy.yaml", ".ai/repo/knowledge/sources.yaml", ".ai/manifest.yaml",
    "README.md",
]
FUZZED = st.dictionaries(st.sampled_from(TARGETS), FILE_BYTES, min_size=1, max_size=4)


def _base_files() -> dict[str, bytes]:
    files = {rel: text.encode("utf-8") for rel, text in BASE.items()}
    files[".ai/manifest.yaml"] = MANIFEST.encode("utf-8")
    files[".ai/repo/knowledge/sources.yaml"] = SOURCES.encode("utf-8")
    return files


def _files(fuzzed: dict[str, bytes]) -> dict[str, bytes]:
    files = _base_files()
    files.update(fuzzed)
    return dict(sorted(files.items()))


def _layer(fuzzed: dict[str, bytes]):
    return load_layer(SourceTree(files=_files(fuzzed)))


@settings(max_examples=LOADER_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(FUZZED)
def test_fuzzed_files_load_with_every_problem_naming_a_file(fuzzed):
    layer = _layer(fuzzed)
    index = build_index(layer)
    paths = set(layer.files)
    for d in index.diagnostics:
        assert d.path is None or d.path in paths or d.path.startswith(".ai/"), d
        assert d.message.strip(), d
    # Nothing silently dropped: a fuzzed file in the layer is an object or has a diagnostic.
    named = {d.path for d in index.diagnostics}
    held = {o.provenance.path for o in layer.objects}
    for rel in fuzzed:
        if rel.startswith(".ai/") or rel == "README.md":
            assert rel in held or rel in named, rel


@settings(max_examples=FAST_EXAMPLES, deadline=None, derandomize=True)
@given(YAMLISH)
def test_the_fast_reader_agrees_with_pyyaml_on_what_it_accepts(text):
    assert agree(text)


@settings(max_examples=BUILD_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(FUZZED)
def test_fuzzed_layers_build_whole_sites(tmp_path_factory, fuzzed):
    layer = _layer(fuzzed)
    index = build_index(layer)
    out = tmp_path_factory.mktemp("site")
    write_site(build_site(SiteInputs(index=index, git=GitInfo(), label="fuzz",
                                      files=_files(fuzzed))), out)
    for obj in layer.objects:
        assert (out / object_page(obj.uri)).is_file(), obj.uri
