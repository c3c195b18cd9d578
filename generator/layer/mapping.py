"""A record's YAML read as a mapping of fields with the line of each, every YAML problem
(syntax, a limit, a dialect note, a repeated key) reported on the file's context."""

from __future__ import annotations

from ..phrases import Phrase, say
from .fieldlines import top_level_lines, with_item_lines
from .filecontext import FileContext
from .limits import DEFAULT_LIMITS, Limits
from .scalars import say_words
from .yamlish import YamlResult, parse_yaml

__all__ = ["parse_mapping"]


def _yaml_problem(ctx: FileContext, result: YamlResult, what: Phrase) -> None:
    p = result.problem
    assert p is not None
    if p.code != "yaml_syntax":  # a limit: the message says which, and the flag to raise it
        message = (say("{what} is too large to load at line {line}: {problem}.", what=what,
                       line=str(p.line), problem=p.said) if p.line is not None
                   else say("{what} is too large to load: {problem}.", what=what,
                            problem=p.said))
        ctx.diag("error", p.code, message, p.line, p.column)
        return
    where = (say("line {line}, column {column}", line=str(p.line), column=str(p.column))
             if p.line is not None else say("an unknown line"))
    ctx.diag(
        "error",
        "yaml_syntax",
        say("{what} is not valid YAML (in any dialect) at {where}: {problem}. Fix the syntax; "
            "the file was not loaded.", what=what, where=where, problem=p.said),
        p.line,
        p.column,
    )


def _yaml_notes(ctx: FileContext, result: YamlResult) -> None:
    for line in result.dialect_lines:
        ctx.diag(
            "info",
            "yaml_dialect",
            say("line {line} has an unquoted value containing ': ', which the layer's YAML "
                "dialect accepts and standard YAML refuses. Quote the value to make the file "
                "portable.", line=str(line)),
            line,
        )
    for key, line in result.duplicate_keys:
        ctx.diag(
            "warning",
            "duplicate_key",
            say("key `{key}` appears twice in one mapping (line {line}); the last value is "
                "used. Remove the repetition.", key=str(key), line=str(line)),
            line,
        )


def parse_mapping(ctx: FileContext, text: str, offset: int, what: Phrase,
                  limits: Limits = DEFAULT_LIMITS) -> tuple[dict | None, dict[str, int]]:
    """(fields, lines) of ``text`` whose first line is line ``offset`` of the file; None
    for the fields when it is not a loadable mapping (the diagnostic says why)."""
    result = parse_yaml(text, line_offset=offset - 1, limits=limits)
    if result.problem is not None:
        _yaml_problem(ctx, result, what)
        return None, {}
    _yaml_notes(ctx, result)
    if result.value is None:
        return {}, {}
    if not isinstance(result.value, dict):
        ctx.diag(
            "error",
            "not_a_mapping",
            say("{what} should be a mapping of fields; found {found}. Write one `key: value` "
                "per line; the file was not loaded.", what=what, found=say_words(result.value)),
            offset,
        )
        return None, {}
    lines = result.key_lines if result.key_lines is not None else top_level_lines(text, offset)
    fields = {str(k): v for k, v in result.value.items()}
    return fields, with_item_lines(fields, lines, text, offset)
