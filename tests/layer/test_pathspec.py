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
