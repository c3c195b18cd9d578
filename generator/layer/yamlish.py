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
from yaml.composer import Composer

from ..phrases import Phrase, say

from .fastyaml import fast_parse
from .limits import DEFAULT_LIMITS, LIMIT_FLAGS, Limits

__all__ = ["YamlProblem", "YamlResult", "parse_yaml"]

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LimitExceeded(Exception):
    """A document met one of the :class:`Limits` while being composed."""

    def __init__(self, problem: "YamlProblem") -> None:
        super().__init__(problem.message)
        self.problem = problem


class _CountingComposer(Composer):
    """PyYAML's composer (in Python, over libyaml's events) that counts as it goes.

    libyaml's own composer cannot be interrupted, and it happily composes an alias bomb
    (its nodes are shared, so it is cheap) whose *value* then costs billions of steps to
    walk. Here every node is counted with aliases expanded (an alias adds the expanded size
    of what it names, recorded when the anchored node was composed), and collections are
    counted in depth, so composition stops as soon as a limit is passed: at most
    ``max_yaml_nodes`` nodes of work, whatever the file says.
    """

    limits: Limits = DEFAULT_LIMITS

    def _start_counting(self, limits: Limits) -> None:
        self.limits = limits
        self._nodes = 0
        self._depth = 0
        self._sizes: dict[str, int] = {}

    def _over(self, code: str, event: Any, found: Phrase, limit_name: str) -> _LimitExceeded:
        limit = getattr(self.limits, limit_name)
        mark = event.start_mark
        return _LimitExceeded(YamlProblem(
            mark.line + 1, mark.column + 1,
            say("{found}, over the limit of {limit}. The file was not loaded; if it is genuine, "
                "raise the limit with {flag} N", found=found, limit=limit,
                flag=LIMIT_FLAGS[limit_name]),
            code=code,
        ))

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        start = self._nodes
        if isinstance(event, yaml.AliasEvent):
            node = super().compose_node(parent, index)  # raises for an undefined alias
            self._nodes += self._sizes.get(event.anchor, 1)
            if self._nodes > self.limits.max_yaml_nodes:
                raise self._over("yaml_too_many_nodes", event,
                                 say("aliases expand the document to {n} nodes", n=self._nodes),
                                 "max_yaml_nodes")
            return node
        self._nodes += 1
        if self._nodes > self.limits.max_yaml_nodes:
            raise self._over("yaml_too_many_nodes", event,
                             say("the document reaches {n} nodes (aliases expanded)",
                                 n=self._nodes),
                             "max_yaml_nodes")
        nests = isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent))
        if nests:
            self._depth += 1
            if self._depth > self.limits.max_yaml_depth:
                raise self._over("yaml_too_deep", event,
                                 say("collections nest {depth} deep", depth=str(self._depth)),
                                 "max_yaml_depth")
        node = super().compose_node(parent, index)
        if nests:
            self._depth -= 1
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self._sizes[anchor] = self._nodes - start
        return node


class _LayerLoader(_CountingComposer, _BaseLoader):  # type: ignore[misc, valid-type]
    """Safe loader with core-schema scalars, duplicate-key detection and limits."""

    def __init__(self, stream: str, limits: Limits = DEFAULT_LIMITS) -> None:
        _BaseLoader.__init__(self, stream)
        Composer.__init__(self)
        self._start_counting(limits)
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


def _construct_int(loader: Any, node: Any) -> int | str:
    text = loader.construct_scalar(node)
    if len(text) > 4000:
        # Python refuses to convert more than 4,300 digits (and a number that long is no
        # count or id anyone meant): it stays the text it is.
        return text
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


_LayerLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


@dataclass(frozen=True)
class YamlProblem:
    """YAML that no dialect accepts: 1-based line and column, and the parser's words (a
    limit's, ours: a phrase; PyYAML's own words are English text, said as they are)."""

    line: int | None
    column: int | None
    #: What is wrong, as a sentence a page can translate (``message`` is its English).
    said: str | Phrase
    #: ``yaml_syntax``, or the code of the limit the document met (``yaml_too_deep``, ...).
    code: str = "yaml_syntax"

    @property
    def message(self) -> str:
        return str(self.said)


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


def _load(text: str, limits: Limits = DEFAULT_LIMITS) -> tuple[Any, list[tuple[str, int]]]:
    loader = _LayerLoader(text, limits)
    try:
        return loader.get_single_data(), loader.duplicate_keys
    finally:
        loader.dispose()


_MAX_REPAIRS = 200
#: Each repair parses the whole text again, so repairs are also bounded by the bytes they
#: re-read (a large file gets fewer): the parse stays proportional to the file's size.
_REPAIR_BYTES = 8_000_000


def parse_yaml(text: str, *, line_offset: int = 0, limits: Limits = DEFAULT_LIMITS) -> YamlResult:
    """Parse one YAML document in the layer's dialect.

    ``line_offset`` is added to every reported line (front matter starts below its ``---``).
    A document beyond ``limits`` is a problem whose ``code`` names the limit.
    """
    fast = fast_parse(text, max_nodes=limits.max_yaml_nodes, max_depth=limits.max_yaml_depth)
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
    for _ in range(max(8, min(_MAX_REPAIRS, _REPAIR_BYTES // max(1, len(text))))):
        try:
            value, dups = _load(current, limits)
        except _LimitExceeded as exc:
            first_problem = exc.problem
            break
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
            first_problem = YamlProblem(
                None, None, say("collections nest too deep to parse, more than the limit of "
                                "{limit} allows here. The file was not loaded; lower {flag}",
                                limit=limits.max_yaml_depth, flag=LIMIT_FLAGS["max_yaml_depth"]),
                code="yaml_too_deep")
            break
        result.value = value
        result.duplicate_keys = sorted((k, line + line_offset) for k, line in dups)
        return result
    assert first_problem is not None
    result.dialect_lines = []
    result.problem = YamlProblem(
        None if first_problem.line is None else first_problem.line + line_offset,
        first_problem.column,
        first_problem.said,
        code=first_problem.code,
    )
    return result
