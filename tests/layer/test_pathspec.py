import pytest

from generator.layer.pathspec import compile_pathspec


@pytest.mark.parametrize(
    "spec, path, expected",
    [
        (":(glob).ai/repo/rules/**/*.md", ".ai/repo/rules/x.md", True),
        (":(glob).ai/repo/rules/**/*.md", ".ai/repo/rules/a/b/x.md", True),
        (":(glob).ai/repo/rules/**/*.md", ".ai/repo/rulesx/x.md", False),
        (":(glob)*.md", "README.md", True),
        (":(glob)*.md", "docs/README.md", False),
        (":(glob)lib/*.sh", "lib/a.sh", True),
        (":(glob)lib/*.sh", "lib/sub/a.sh", False),
        (":(glob)bin/*", "bin/tool", True),
        (":(glob).ai/repo/adrs/[0-9][0-9][0-9][0-9]-*.md", ".ai/repo/adrs/0012-x.md", True),
        (":(glob).ai/repo/adrs/[0-9][0-9][0-9][0-9]-*.md", ".ai/repo/adrs/README.md", False),
        (":(glob)src/**", "src/a/b.py", True),
        ("docs/?.md", "docs/a.md", True),
    ],
)
def test_glob_semantics(spec, path, expected):
    assert compile_pathspec(spec).matches(path) is expected


def test_base_dir_is_the_fixed_prefix():
    assert compile_pathspec(":(glob).ai/repo/rules/**/*.md").base_dir == ".ai/repo/rules"
    assert compile_pathspec(":(glob)*.md").base_dir == ""
    assert compile_pathspec(":(glob)src/*/x.py").base_dir == "src"


# -- hostile pathspecs: matched name by name, in linear time, with the same answers ------------

import re  # noqa: E402
import time  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from generator.layer.pathspec import _segment_matcher  # noqa: E402


@pytest.mark.parametrize("spec", [
    ":(glob)lib/*a*a*a*a*a*a*a*a*a*a*b",
    ":(glob)**/**/**/**/**/**/**/**/**/**/zz",
    ":(glob)a/**/b/**/c/**/d/**/e",
])
def test_patterns_the_regex_would_backtrack_on_answer_at_once(spec):
    compiled = compile_pathspec(spec)
    assert compiled.segments is not None
    started = time.perf_counter()
    for path in ("lib/" + "a" * 250, "/".join(["a"] * 400), "a/" + "b/" * 300 + "c"):
        assert compiled.matches(path) is False
    assert time.perf_counter() - started < 1.0  # the regex takes minutes on these


def test_common_patterns_keep_the_regex():
    for spec in (":(glob).ai/repo/rules/**/*.md", ":(glob)lib/*.sh", ":(glob)src/**", "*.md"):
        assert compile_pathspec(spec).segments is None


_NAME = st.lists(st.sampled_from(["a", "b", "*", "?", "[ab]", "[!a]", "."]), min_size=1, max_size=4)
_PATTERN = st.lists(st.one_of(_NAME.map("".join), st.just("**")), min_size=1, max_size=4).map("/".join)
_PATH = st.lists(st.text("ab.", min_size=1, max_size=4), min_size=1, max_size=5).map("/".join)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_PATTERN, _PATH)
def test_the_name_by_name_matcher_agrees_with_the_regex(pattern, path):
    # Patterns without `**` inside a name mean the same to both readers.
    if any("**" in name and name != "**" for name in pattern.split("/")):
        return
    if pattern.endswith("/**"):
        return  # the regex reads a trailing /** as "the directory itself or below"
    regex = compile_pathspec(pattern).regex
    assert _segment_matcher(pattern).matches(path) is (regex.fullmatch(path) is not None), (
        pattern, path, regex.pattern)
    assert re.compile(regex.pattern)  # the regex itself is well-formed
