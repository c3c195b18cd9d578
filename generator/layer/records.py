"""Turn one file's text into layer objects: pure, one diagnostic per problem.

A file reaches here with the kinds that claim it (from its source classes, or ``context``
when it is a directory contract). YAML records, Markdown with front matter, list files
(one object per item) and plain text (source files) are all handled here; what a kind's
identity, title and summary are comes from :mod:`generator.layer.kinds`, and making one
object of a record's fields is :mod:`generator.layer.objects`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..model import LayerObject
from ..phrases import say
from .filecontext import Claim, FileContext
from .frontmatter import split_front_matter
from .kinds import kind_name, kind_spec, say_a_kind
from .limits import DEFAULT_LIMITS, Limits
from .mapping import parse_mapping
from .naming import expected_stem
from .objects import list_members, make_object
from .scalars import scalar_text

__all__ = ["Claim", "ParsedFile", "parse_file", "decode_text", "CONTEXT_SCHEMA",
           "expected_stem", "scalar_text"]

CONTEXT_SCHEMA = "context/v1"

_YAML_SUFFIXES = (".yaml", ".yml")
_MARKDOWN_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True)
class ParsedFile:
    objects: tuple[LayerObject, ...]
    diagnostics: tuple[Diagnostic, ...]


def decode_text(rel_path: str, data: bytes) -> tuple[str | None, Diagnostic | None]:
    """UTF-8 text, or a diagnostic naming the line and byte of the first bad sequence."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, Diagnostic(
            severity="error",
            code="not_utf8",
            path=rel_path,
            line=line,
            column=column,
            message=say("is not UTF-8: byte {byte} at line {line}, column {column} cannot be "
                        "decoded. Re-save the file as UTF-8; it was not loaded.",
                        byte=f"0x{data[exc.start]:02x}", line=str(line), column=str(column)),
        )
    return text.replace("\r\n", "\n"), None


def _is_contract(fields: dict | None) -> bool:
    return bool(fields) and (fields.get("schema") == CONTEXT_SCHEMA or fields.get("kind") == "context")


@dataclass(frozen=True)
class _Record:
    """A text file read as a record: its fields (None when YAML was expected and absent),
    the Markdown body, the line of each field, and whether front matter was there."""

    text: str
    fields: dict | None
    body: str | None
    lines: dict[str, int]
    has_front_matter: bool
    is_markdown: bool


def _plain_objects(ctx: FileContext, claims: tuple[Claim, ...]) -> ParsedFile:
    """Source files and other text: the path is the identity, the bytes are only counted."""
    objects: list[LayerObject] = []
    seen: set[str] = set()
    for claim in claims:
        if claim.kind not in seen:
            seen.add(claim.kind)
            objects.append(make_object(ctx, claim, {}, None, {}))
    return ParsedFile(tuple(objects), ())


def _read_record(ctx: FileContext, text: str, is_markdown: bool, is_yaml: bool,
                 limits: Limits) -> _Record | None:
    """The record ``text`` holds, or None when it cannot be loaded (a diagnostic says why)."""
    fields: dict | None = None
    body: str | None = None
    lines: dict[str, int] = {}
    has_front_matter = False
    if is_markdown:
        fm = split_front_matter(text)
        body = fm.body
        if fm.unclosed:
            ctx.diag("error", "front_matter_unclosed",
                     say("front matter opens with `---` on line 1 and is never closed. Add a "
                         "`---` line after the last field; the file was not loaded."), 1)
            return None
        if fm.yaml_text is not None:
            has_front_matter = True
            fields, lines = parse_mapping(ctx, fm.yaml_text, fm.yaml_first_line, say("the front matter"),
                                          limits)
            if fields is None:
                return None
    elif is_yaml:
        fields, lines = parse_mapping(ctx, text, 1, say("the file"), limits)
        if fields is None:
            return None
        if not fields:
            ctx.diag("warning", "empty_file",
                     say("is empty (no YAML fields); nothing was loaded. Add the record's "
                         "fields or remove the file."))
            return None
    return _Record(text, fields, body, lines, has_front_matter, is_markdown)


def _contract_objects(ctx: FileContext, record: _Record, claims: tuple[Claim, ...]
                      ) -> tuple[list[LayerObject], tuple[Claim, ...] | None]:
    """A context document's contract object, and the claims still to parse it under (None:
    nothing more to make of it)."""
    if _is_contract(record.fields):
        contract = make_object(ctx, Claim("context", "context"), record.fields or {}, record.body,
                               record.lines)
        return [contract], tuple(c for c in claims if c.kind == "document")
    ctx.diag(
        "error",
        "missing_contract",
        say("is named like a context document (the manifest's `context.documents`) but "
            "carries no `schema: {schema}` front matter. Add the contract (schema, id, title, "
            "scope) or rename the file.", schema=CONTEXT_SCHEMA),
        1,
    )
    return [], claims if claims else None


def _claimed_objects(ctx: FileContext, record: _Record, claims: tuple[Claim, ...]
                     ) -> list[LayerObject]:
    """The objects each claiming kind makes of the record (once per kind)."""
    objects: list[LayerObject] = []
    seen_kinds: set[str] = set()
    for claim in claims:
        if claim.kind in seen_kinds:
            continue
        seen_kinds.add(claim.kind)
        spec = kind_spec(claim.kind)
        if spec.list_key is not None:
            if record.fields is None:
                ctx.diag("error", "list_file_shape",
                         say("{a_kind} file should be YAML holding a `{key}:` list; it was "
                             "not loaded.", a_kind=say_a_kind(claim.kind), key=spec.list_key))
                continue
            objects.extend(list_members(ctx, claim, spec, record.fields, record.text,
                                        record.lines))
            continue
        if record.is_markdown and spec.needs_front_matter and not record.has_front_matter:
            ctx.diag(
                "info",
                "no_front_matter",
                say("has no front matter, so it is indexed as a document, not as {a_kind}. Add "
                    "{kind} front matter (id, title, status, ...) to make it one.",
                    a_kind=say_a_kind(claim.kind), kind=kind_name(claim.kind)),
                1,
            )
            objects.append(make_object(ctx, Claim(claim.class_id, "document"), {}, record.body,
                                       {}))
            continue
        objects.append(make_object(ctx, claim, record.fields or {}, record.body, record.lines))
    return objects


def parse_file(
    rel_path: str,
    data: bytes,
    claims: tuple[Claim, ...],
    section: str | None,
    *,
    contract_name: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> ParsedFile:
    """Parse one file claimed by ``claims``.

    ``contract_name`` is true when the file's name is one of the manifest's context
    documents: it must then carry a ``context/v1`` contract, and when it does it is a
    ``context`` object (claims of kind ``document`` index it a second time, as a document).
    """
    ctx = FileContext(rel_path, len(data), section)
    lower = rel_path.lower()
    is_yaml = lower.endswith(_YAML_SUFFIXES)
    is_markdown = lower.endswith(_MARKDOWN_SUFFIXES)
    if not (is_yaml or is_markdown or contract_name):
        return _plain_objects(ctx, claims)
    text, problem = decode_text(rel_path, data)
    if problem is not None:
        return ParsedFile((), (problem,))
    assert text is not None
    record = _read_record(ctx, text, is_markdown, is_yaml, limits)
    if record is None:
        return ParsedFile((), tuple(ctx.diagnostics))
    objects: list[LayerObject] = []
    if contract_name:
        objects, remaining = _contract_objects(ctx, record, claims)
        if remaining is None:
            return ParsedFile((), tuple(ctx.diagnostics))
        claims = remaining
    objects.extend(_claimed_objects(ctx, record, claims))
    return ParsedFile(tuple(objects), tuple(ctx.diagnostics))
