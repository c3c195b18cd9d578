"""The layer's own YAML dialect.

The `ai-repository/v1` layers are written in a YAML subset that differs from standard YAML
in one way that matters in practice: a plain (unquoted) scalar may contain ``": "`` —
``title: Phase 4: the shell tool's knowledge``. A standard parser refuses that line. We parse
standard YAML first (fast, with libyaml when available); when the parser stops at such a
line we quote that one value, fold its continuation lines into it, and parse again. Each
repair is reported so the caller can turn it into an info diagnostic. YAML that no dialect
accepts is returned as a :class:`YamlProblem` with line and column.

Scalars follow the YAML 1.2 core schema rather than PyYAML's 1.1 defaults, because the
layer's authors write it that way: dates and datetimes stay text (``updated_at`` is a
version string, not a datetime), ``yes``/``no``/``on``/``off`` stay words, and ``0052``
is the text ``0052``, not the octal number 42.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from .fastyaml import fast_parse

__all__ = ["YamlProblem", "YamlResult", "parse_yaml"]

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LayerLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe loader with core-schema scalars and duplicate-key detection."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.duplicate_keys: list[tuple[str, int]] = []

    def construct_mapping(self, node: Any, deep: bool = False) -> dict:  # noqa: D401
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)
            seen: set = set()
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode):
                    if key_node.value in seen:
                        self.duplicate_keys.append((key_node.value, key_node.start_mark.line + 1))
                    seen.add(key_node.value)
        return super().construct_mapping(node, deep=deep)


# Replace PyYAML's YAML 1.1 implicit resolvers with the 1.2 core schema.
_LayerLoader.yaml_implicit_resolvers = {}
_LayerLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_LayerLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int",
    re.compile(r"^(?:[-+]?(?:0|[1-9][0-9]*)|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    list("-+0123456789"),
)
_LayerLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"^(?:[-+]?(?:(?:0|[1-9][0-9]*)\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?(?:0|[1-9][0-9]*)[eE][-+]?[0-9]+"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)
_LayerLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)
_LayerLoader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^<<$"), ["<"])


def _construct_int(loader: Any, node: Any) -> int:
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


_LayerLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


@dataclass(frozen=True)
class YamlProblem:
    """YAML that no dialect accepts: 1-based line and column, and the parser's words."""

    line: int | None
    column: int | None
    message: str


@dataclass
class YamlResult:
    value: Any = None
    problem: YamlProblem | None = None
    #: 1-based lines where a plain scalar containing ": " was accepted by the dialect.
    dialect_lines: list[int] = field(default_factory=list)
    #: (key, 1-based line) for every key that repeats inside one mapping; the last wins.
    duplicate_keys: list[tuple[str, int]] = field(default_factory=list)
    #: 1-based line of each top-level key, when the fast reader knew it (else None).
    key_lines: dict[str, int] | None = None


# `indent [- ] key: value` where the value is a plain scalar (not quoted, not a flow
# collection, block scalar, anchor, alias or tag) that itself contains ": ".
_PLAIN_WITH_COLON = re.compile(
    r"^(?P<lead>[ \t]*(?:-[ \t]+)*)(?P<key>[^\s#'\"\[\]{}&*!|>%@`][^:#]*?):[ \t]+"
    r"(?P<value>[^\s'\"\[\]{}&*!|>%@`#].*?:[ \t].*?)[ \t]*$"
)


def _quote_plain_value(lines: list[str], index: int) -> bool:
    """Quote the plain value on ``lines[index]`` (folding continuations); False if not one."""
    match = _PLAIN_WITH_COLON.match(lines[index])
    if not match:
        return False
    value = match.group("value")
    # A trailing comment is not part of a plain scalar.
    comment = re.search(r"[ \t]#", value)
    if comment:
        value = value[: comment.start()]
    key_column = len(match.group("lead"))
    parts = [value.strip()]
    end = index + 1
    while end < len(lines):
        nxt = lines[end]
        stripped = nxt.strip()
        indent = len(nxt) - len(nxt.lstrip(" \t"))
        if not stripped or stripped.startswith("#") or indent <= key_column:
            break
        parts.append(stripped)
        end += 1
    folded = " ".join(parts).replace("'", "''")
    lines[index] = f"{match.group('lead')}{match.group('key')}: '{folded}'"
    for i in range(index + 1, end):
        lines[i] = ""  # keep line numbers stable for later diagnostics
    return True


def _problem_from(exc: yaml.YAMLError, line_offset: int) -> YamlProblem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    words = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    if context:
        words = f"{words} ({context})"
    if mark is None:
        return YamlProblem(None, None, words)
    return YamlProblem(mark.line + 1 + line_offset, mark.column + 1, words)


def _load(text: str) -> tuple[Any, list[tuple[str, int]]]:
    loader = _LayerLoader(text)
    try:
        return loader.get_single_data(), loader.duplicate_keys
    finally:
        loader.dispose()


_MAX_REPAIRS = 200


def parse_yaml(text: str, *, line_offset: int = 0) -> YamlResult:
    """Parse one YAML document in the layer's dialect.

    ``line_offset`` is added to every reported line (front matter starts below its ``---``).
    """
    fast = fast_parse(text)
    if fast is not None:
        value, dialect, dups, key_lines = fast
        return YamlResult(
            value=value,
            dialect_lines=[n + line_offset for n in dialect],
            duplicate_keys=sorted((k, n + line_offset) for k, n in dups),
            key_lines={k: n + line_offset for k, n in key_lines.items()},
        )
    result = YamlResult()
    lines: list[str] | None = None
    current = text
    first_problem: YamlProblem | None = None
    for _ in range(_MAX_REPAIRS):
        try:
            value, dups = _load(current)
        except yaml.YAMLError as exc:
            problem = _problem_from(exc, 0)
            if first_problem is None:
                first_problem = problem
            is_colon_case = "mapping values are not allowed" in (problem.message or "")
            if not is_colon_case or problem.line is None:
                break
            if lines is None:
                lines = current.split("\n")
            index = problem.line - 1
            if index >= len(lines) or not _quote_plain_value(lines, index):
                break
            result.dialect_lines.append(problem.line + line_offset)
            current = "\n".join(lines)
            continue
        except RecursionError:
            first_problem = YamlProblem(None, None, "nesting is too deep to parse")
            break
        result.value = value
        result.duplicate_keys = sorted((k, line + line_offset) for k, line in dups)
        return result
    assert first_problem is not None
    result.dialect_lines = []
    result.problem = YamlProblem(
        None if first_problem.line is None else first_problem.line + line_offset,
        first_problem.column,
        first_problem.message,
    )
    return result
