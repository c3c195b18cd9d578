"""Turn one file's text into layer objects: pure, one diagnostic per problem.

A file reaches here with the kinds that claim it (from its source classes, or ``context``
when it is a directory contract). YAML records, Markdown with front matter, list files
(one object per item) and plain text (source files) are all handled here; what a kind's
identity, title and summary are comes from :mod:`generator.layer.kinds`.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic
from ..model import LayerObject, Provenance, uri_for
from .frontmatter import split_front_matter
from .kinds import FACT_KEYS, KindSpec, a_kind, kind_name, kind_spec
from .limits import DEFAULT_LIMITS, Limits
from .yamlish import YamlResult, parse_yaml

__all__ = ["Claim", "ParsedFile", "parse_file", "decode_text", "CONTEXT_SCHEMA"]

CONTEXT_SCHEMA = "context/v1"

_YAML_SUFFIXES = (".yaml", ".yml")
_MARKDOWN_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True)
class Claim:
    """A source class's claim on a file: the class id and the kind it produces."""

    class_id: str
    kind: str


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
            message=f"is not UTF-8: byte 0x{data[exc.start]:02x} at line {line}, column "
            f"{column} cannot be decoded. Re-save the file as UTF-8; it was not loaded.",
        )
    return text.replace("\r\n", "\n"), None


def _words(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def scalar_text(value: Any) -> str | None:
    """A scalar as text (``true``, ``3``, ``0.5``); None for lists, mappings and null."""
    if value is None or isinstance(value, (list, dict)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    return str(value)


def _top_level_lines(text: str, offset: int) -> dict[str, int]:
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        head = line[:1]
        if head and (head.isalnum() or head in "_-\"'") and not line.startswith("- "):
            key = line.split(":", 1)[0].strip().strip("\"'")
            if key and key not in lines:
                lines[key] = number + offset - 1
    return lines


def _item_lines(text_lines: list[str], at: int, count: int) -> list[int]:
    """0-based lines of the ``count`` items of the block list whose key is on line ``at``
    (nothing when the list is written inline, ``key: [a, b]``: its key line is theirs)."""
    head = text_lines[at]
    if head.partition(":")[2].split(" #", 1)[0].strip():
        return []
    key_indent = len(head) - len(head.lstrip())
    out: list[int] = []
    item_indent = None
    for number in range(at + 1, len(text_lines)):
        line = text_lines[number]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        is_item = stripped == "-" or stripped.startswith("- ")
        if indent < key_indent or (indent == key_indent and not is_item):
            break
        if is_item and (item_indent is None or indent == item_indent):
            item_indent = indent
            out.append(number)
            if len(out) == count:
                break
    return out


def _with_item_lines(fields: dict[str, Any], lines: dict[str, int], text: str,
                     offset: int) -> dict[str, int]:
    """``lines`` plus ``key[i]`` -> the line of each item of a list field, so a diagnostic
    about one reference points at it rather than at its key."""
    lists = [(key, len(value)) for key, value in fields.items()
             if isinstance(value, list) and value and key in lines]
    if not lists:
        return lines
    text_lines = text.split("\n")
    out = dict(lines)
    for key, count in lists:
        at = lines[key] - offset
        if not 0 <= at < len(text_lines):
            continue
        for i, number in enumerate(_item_lines(text_lines, at, count)):
            out[f"{key}[{i}]"] = number + offset
    return out


_H1 = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.M)


def _first_heading(body: str | None) -> str | None:
    if not body:
        return None
    in_fence = False
    for line in body.split("\n"):
        if line.startswith("```") or line.startswith("~~~"):
            in_fence = not in_fence
            continue
        if not in_fence:
            match = _H1.match(line)
            if match:
                return match.group(1).strip()
    return None


def _section_paragraph(body: str | None, heading: str) -> str | None:
    """The first paragraph under ``## <heading>`` (an ADR's decision, say)."""
    if not body:
        return None
    pattern = re.compile(rf"^##[ \t]+{re.escape(heading)}[ \t]*$", re.M | re.I)
    match = pattern.search(body)
    if not match:
        return None
    rest = body[match.end() :].lstrip("\n")
    paragraph = []
    for line in rest.split("\n"):
        if not line.strip() or line.startswith("#"):
            break
        paragraph.append(line.strip())
    text = " ".join(paragraph).strip()
    if not text:
        return None
    return text if len(text) <= 400 else text[:397].rstrip() + "..."


class _FileContext:
    """What every object of one file shares, and the file's diagnostics."""

    def __init__(self, rel_path: str, size: int, section: str | None) -> None:
        self.rel_path = rel_path
        self.size = size
        self.section = section
        self.diagnostics: list[Diagnostic] = []

    def diag(self, severity: str, code: str, message: str, line: int | None = None,
             column: int | None = None) -> None:
        self.diagnostics.append(
            Diagnostic(severity=severity, code=code, path=self.rel_path, line=line,
                       column=column, message=message)
        )

    def provenance(self, source_class: str, member: str | None = None) -> Provenance:
        directory = posixpath.dirname(self.rel_path) or "."
        return Provenance(path=self.rel_path, directory=directory, source_class=source_class,
                          section=self.section, bytes=self.size, member=member)


def _yaml_problem(ctx: _FileContext, result: YamlResult, what: str) -> None:
    p = result.problem
    assert p is not None
    if p.code != "yaml_syntax":  # a limit: the message says which, and the flag to raise it
        where = f" at line {p.line}" if p.line is not None else ""
        ctx.diag("error", p.code, f"{what} is too large to load{where}: {p.message}.", p.line,
                 p.column)
        return
    where = f"line {p.line}, column {p.column}" if p.line is not None else "an unknown line"
    ctx.diag(
        "error",
        "yaml_syntax",
        f"{what} is not valid YAML (in any dialect) at {where}: {p.message}. Fix the syntax; "
        "the file was not loaded.",
        p.line,
        p.column,
    )


def _yaml_notes(ctx: _FileContext, result: YamlResult) -> None:
    for line in result.dialect_lines:
        ctx.diag(
            "info",
            "yaml_dialect",
            f"line {line} has an unquoted value containing ': ', which the layer's YAML dialect "
            "accepts and standard YAML refuses. Quote the value to make the file portable.",
            line,
        )
    for key, line in result.duplicate_keys:
        ctx.diag(
            "warning",
            "duplicate_key",
            f"key `{key}` appears twice in one mapping (line {line}); the last value is used. "
            "Remove the repetition.",
            line,
        )


# Per kind, the fields whose value is a list of text (references or paths); a single text
# is accepted as a list of one. Fields every kind may carry are under "*".
_LIST_FIELDS: dict[str, frozenset[str]] = {
    "*": frozenset({"tags", "tracks"}),
    "issue": frozenset({"depends_on", "scope", "non_scope", "serves"}),
    "milestone": frozenset({"depends_on", "scope", "non_scope", "claims"}),
    "rule": frozenset({"depends_on"}),
    "adr": frozenset({"related", "supersedes"}),
    "skill": frozenset({"related"}),
    "use-case": frozenset({"commands", "doctrines", "claims", "applications", "mcp_tools"}),
    "application": frozenset({"use_cases", "doctrines"}),
    "session": frozenset({"changed_files", "issues", "milestones"}),
    "context": frozenset({"paths"}),
    "intent": frozenset({"milestones", "governance"}),
    "feature": frozenset({"related", "doctrines", "use_cases", "claims", "rules"}),
    "moment": frozenset({"related", "doctrines", "use_cases", "claims"}),
}
_TEXT_FIELDS = frozenset({"id", "title", "milestone", "slug", "status", "class", "name", "branch",
                          "description", "summary", "objective", "outcome", "statement",
                          "session_id"})


def _check_types(ctx: _FileContext, kind: str, fields: dict, lines: dict[str, int],
                 label: str) -> dict:
    """Report wrongly typed well-known fields; return the fields as they will be used."""
    out = dict(fields)
    list_fields = _LIST_FIELDS["*"] | _LIST_FIELDS.get(kind, frozenset())
    for key, value in fields.items():
        if key in list_fields and value is not None and not isinstance(value, (list, str)):
            ctx.diag(
                "warning",
                "field_type",
                f"field `{key}` of {label} should be a list of text; found {_words(value)}. "
                f"Write `{key}: [a, b]` or one `- item` per line; the field was ignored.",
                lines.get(key),
            )
            out[key] = None
        elif key in list_fields and isinstance(value, list):
            bad = [item for item in value if isinstance(item, (list, dict)) or item is None]
            if bad and key not in ("related", "claims", "governance"):
                ctx.diag(
                    "warning",
                    "field_type",
                    f"field `{key}` of {label} should list text items; found "
                    f"{_words(bad[0])} among them. Write each item as plain text; "
                    + (f"{len(bad)} items were ignored." if len(bad) != 1 else "1 item was ignored."),
                    lines.get(key),
                )
                out[key] = [item for item in value if item not in bad]
        elif key in _TEXT_FIELDS and isinstance(value, (list, dict)):
            ctx.diag(
                "warning",
                "field_type",
                f"field `{key}` of {label} should be text; found {_words(value)}. "
                f"Write `{key}: <text>`; the field was ignored.",
                lines.get(key),
            )
            out[key] = None
    return out


#: Fields whose items are repository paths (or path globs) matched against the repository.
_PATH_FIELDS = frozenset({"scope", "non_scope", "paths", "changed_files"})
_DRIVE = re.compile(r"^[A-Za-z]:")


def _foreign_path(path: str) -> str | None:
    """Why ``path`` is not a repository-relative path with forward slashes, or None."""
    if path.startswith("/"):
        return "is absolute"
    if _DRIVE.match(path) or "\\" in path:
        return "is a Windows path"
    if ".." in path.split("/"):
        return "climbs out with `..`"
    return None


def _check_paths(ctx: _FileContext, fields: dict, lines: dict[str, int], label: str) -> None:
    """Warn about path items that can never name a file of the repository."""
    for key in sorted(_PATH_FIELDS & fields.keys()):
        value = fields[key]
        for item in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            why = _foreign_path(item) if isinstance(item, str) else None
            if why is not None:
                ctx.diag(
                    "warning",
                    "foreign_path",
                    f"field `{key}` of {label} names `{item}`, which {why}; paths are relative to "
                    "the repository root, with `/` between names, so it matches nothing. Write "
                    "it as a repository path (e.g. `lib/tool.sh`).",
                    lines.get(key),
                )


#: Reference fields whose items name other objects of the same kind (an object naming
#: itself there is dropped by the index: it can neither wait for nor replace itself).
_SELF_FIELDS = ("depends_on", "supersedes")


def _check_self_references(ctx: _FileContext, kind: str, identity: str, fields: dict,
                           lines: dict[str, int], label: str) -> None:
    own = {identity, uri_for(kind, identity)}
    for key in _SELF_FIELDS:
        value = fields.get(key)
        items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        if any(scalar_text(item) is not None and scalar_text(item).strip() in own for item in items):
            ctx.diag(
                "warning",
                "self_reference",
                f"field `{key}` of {label} names `{identity}` itself; the reference is ignored. "
                f"Remove it from `{key}`.",
                lines.get(key),
            )


def _first_text(fields: dict, keys: tuple[str, ...]) -> str | None:
    for key in keys:
        text = scalar_text(fields.get(key))
        if text is not None and text.strip():
            return text.strip()
    return None


def _as_text_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for t in (scalar_text(v) for v in value) if t is not None]
    return []


def _facts(fields: dict) -> dict[str, str]:
    facts: dict[str, str] = {}
    for key in FACT_KEYS:
        text = scalar_text(fields.get(key))
        if text is not None:
            facts[key] = text
    for key in ("tags", "scope"):
        items = _as_text_list(fields.get(key))
        if items:
            facts[key] = ", ".join(items)
    commits = []
    evidence = fields.get("evidence")
    if isinstance(evidence, list):
        for item in evidence:
            if isinstance(item, dict) and isinstance(item.get("commit"), str):
                commits.append(item["commit"])
    if commits:
        facts["commits"] = ", ".join(sorted(set(commits)))
    return facts


def expected_stem(spec: KindSpec, rel_path: str, identity_fields: dict) -> tuple[bool, str] | None:
    """(matches, expectation) for kinds whose file name follows the identity; else None."""
    name = posixpath.basename(rel_path)
    stem = name.rsplit(".", 1)[0]
    ident = scalar_text(identity_fields.get(spec.identity_fields[0])) if spec.identity_fields else None
    if ident is None:
        return None
    if spec.file_naming == "stem":
        return stem == ident, f"`{ident}{name[len(stem):]}`"
    if spec.file_naming == "stem_or_slug":
        slug = scalar_text(identity_fields.get("slug"))
        return stem in (ident, slug), f"`{ident}{name[len(stem):]}`"
    if spec.file_naming == "adr":
        number = re.match(r"^(\d+)-", name)
        id_number = re.search(r"(\d+)$", ident)
        if not number or not id_number:
            return None
        return int(number.group(1)) == int(id_number.group(1)), f"a name starting `{id_number.group(1)}-`"
    if spec.file_naming == "rule":
        match = re.match(r"^(?P<slug>.+)\.v(?P<v>\d+)\.md$", name)
        version = scalar_text(identity_fields.get("version"))
        if not match:
            return None
        tail = ident.rsplit(".", 1)[-1]
        ok = match.group("slug") == tail and (version is None or match.group("v") == version)
        return ok, f"`{tail}.v{version}.md`"
    if spec.file_naming == "skill":
        parent = posixpath.basename(posixpath.dirname(rel_path))
        return parent == ident, f"a directory named `{ident}`"
    return None


def _make_object(
    ctx: _FileContext,
    claim: Claim,
    fields: dict,
    body: str | None,
    lines: dict[str, int],
    member: str | None = None,
    member_line: int | None = None,
) -> LayerObject:
    kind = claim.kind
    spec = kind_spec(kind)
    label_where = f"{kind} in {ctx.rel_path}" + (f" ({member})" if member else "")
    fields = _check_types(ctx, kind, fields, lines, label_where)
    _check_paths(ctx, fields, lines, label_where)
    identity: str | None = None
    if spec.identity_fields:
        parts: list[str] = []
        missing: list[str] = []
        for key in spec.identity_fields:
            text = scalar_text(fields.get(key))
            if text is None or not text.strip():
                missing.append(key)
            else:
                parts.append(text.strip())
        if missing:
            found = ", ".join(f"`{k}` is {_words(fields.get(k))}" for k in missing)
            ctx.diag(
                "error",
                "missing_identity",
                f"{label_where} has no identity: {found}; {a_kind(kind)} is identified by "
                f"{' and '.join(f'`{k}`' for k in spec.identity_fields)}. Add "
                f"{', '.join(f'`{k}:`' for k in missing)}; until then it is indexed under its path.",
                member_line if member_line is not None else lines.get(missing[0]),
            )
        else:
            identity = "@".join(parts)
            naming = expected_stem(spec, ctx.rel_path, fields) if member is None else None
            if naming is not None and not naming[0]:
                ctx.diag(
                    "warning",
                    "id_mismatch",
                    f"{kind} `{identity}` lives in a file whose name disagrees with its id; "
                    f"expected {naming[1]}. Rename the file or correct the id (the id is used).",
                    lines.get(spec.identity_fields[0]),
                )
    if identity is not None:
        _check_self_references(ctx, kind, identity, fields, lines, label_where)
    if identity is None:
        identity = ctx.rel_path if member is None else f"{ctx.rel_path}#{member}"
    title = _first_text(fields, spec.title_fields) if spec.title_fields else None
    if title is None and body is not None:
        title = _first_heading(body)
    summary = _first_text(fields, spec.summary_fields) if spec.summary_fields else None
    if summary is None and kind == "adr":
        summary = _section_paragraph(body, "Decision")
    status = scalar_text(fields.get("status"))
    version = _first_text(fields, ("updated_at", "version", "date", "created_at"))
    tags = tuple(t.strip() for t in _as_text_list(fields.get("tags")) if t.strip())
    line_map = dict(lines)
    if member_line is not None:
        line_map.setdefault("@member", member_line)
    return LayerObject(
        uri=uri_for(kind, identity),
        kind=kind,
        identity=identity,
        title=title,
        summary=summary,
        status=status.strip() if status else None,
        version=version,
        facts=_facts(fields),
        tags=tags,
        body=body,
        fields=fields,
        field_lines=line_map,
        provenance=ctx.provenance(claim.class_id, member),
    )


def _parse_mapping(ctx: _FileContext, text: str, offset: int, what: str,
                   limits: Limits = DEFAULT_LIMITS) -> tuple[dict | None, dict[str, int]]:
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
            f"{what} should be a mapping of fields; found {_words(result.value)}. "
            "Write one `key: value` per line; the file was not loaded.",
            offset,
        )
        return None, {}
    lines = result.key_lines if result.key_lines is not None else _top_level_lines(text, offset)
    fields = {str(k): v for k, v in result.value.items()}
    return fields, _with_item_lines(fields, lines, text, offset)


def _list_members(ctx: _FileContext, claim: Claim, spec: KindSpec, data: dict, text: str,
                  lines: dict[str, int]) -> list[LayerObject]:
    items = data.get(spec.list_key or "")
    if not isinstance(items, list):
        ctx.diag(
            "error",
            "list_file_shape",
            f"{a_kind(claim.kind)} file should hold a `{spec.list_key}:` list; found "
            f"{_words(items)}. Add `{spec.list_key}:` with one item per `- id:`.",
            lines.get(spec.list_key or ""),
        )
        return []
    # The line of each `id:` (first one per value), found in one pass: looking it up per
    # item was quadratic in a list of thousands.
    id_lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip().lstrip("- ").strip()
        if stripped.startswith("id:"):
            id_lines.setdefault(stripped[3:].strip().strip("\"'"), number)
    out = []
    for position, item in enumerate(items):
        member = f"{spec.list_key}.{position}"
        if not isinstance(item, dict):
            ctx.diag(
                "error",
                "list_item_shape",
                f"item {position} of `{spec.list_key}` should be a mapping with `id`; found "
                f"{_words(item)}. It was skipped.",
                lines.get(spec.list_key or ""),
            )
            continue
        ident = scalar_text(item.get("id"))
        member_line = id_lines.get(ident) if ident is not None else None
        out.append(_make_object(ctx, claim, {str(k): v for k, v in item.items()}, None, {},
                                member, member_line))
    return out


def _is_contract(fields: dict | None) -> bool:
    return bool(fields) and (fields.get("schema") == CONTEXT_SCHEMA or fields.get("kind") == "context")


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
    ctx = _FileContext(rel_path, len(data), section)
    objects: list[LayerObject] = []
    lower = rel_path.lower()
    is_yaml = lower.endswith(_YAML_SUFFIXES)
    is_markdown = lower.endswith(_MARKDOWN_SUFFIXES)
    if not (is_yaml or is_markdown or contract_name):
        # Source files and other text: the path is the identity, the bytes are only counted.
        seen: set[str] = set()
        for claim in claims:
            if claim.kind not in seen:
                seen.add(claim.kind)
                objects.append(_make_object(ctx, claim, {}, None, {}))
        return ParsedFile(tuple(objects), ())
    text, problem = decode_text(rel_path, data)
    if problem is not None:
        return ParsedFile((), (problem,))
    assert text is not None

    fields: dict | None = None
    body: str | None = None
    lines: dict[str, int] = {}
    has_front_matter = False
    parsed_ok = True
    if is_markdown:
        fm = split_front_matter(text)
        body = fm.body
        if fm.unclosed:
            ctx.diag("error", "front_matter_unclosed",
                     "front matter opens with `---` on line 1 and is never closed. Add a `---` "
                     "line after the last field; the file was not loaded.", 1)
            return ParsedFile((), tuple(ctx.diagnostics))
        if fm.yaml_text is not None:
            has_front_matter = True
            fields, lines = _parse_mapping(ctx, fm.yaml_text, fm.yaml_first_line, "the front matter",
                                           limits)
            parsed_ok = fields is not None
    elif is_yaml:
        fields, lines = _parse_mapping(ctx, text, 1, "the file", limits)
        parsed_ok = fields is not None
        if parsed_ok and not fields:
            ctx.diag("warning", "empty_file",
                     "is empty (no YAML fields); nothing was loaded. Add the record's fields or "
                     "remove the file.")
            return ParsedFile((), tuple(ctx.diagnostics))
    if not parsed_ok:
        return ParsedFile((), tuple(ctx.diagnostics))

    if contract_name:
        if _is_contract(fields):
            objects.append(_make_object(ctx, Claim("context", "context"), fields or {}, body, lines))
            claims = tuple(c for c in claims if c.kind == "document")
        else:
            ctx.diag(
                "error",
                "missing_contract",
                "is named like a context document (the manifest's `context.documents`) but "
                f"carries no `schema: {CONTEXT_SCHEMA}` front matter. Add the contract "
                "(schema, id, title, scope) or rename the file.",
                1,
            )
            if not claims:
                return ParsedFile((), tuple(ctx.diagnostics))

    seen_kinds: set[str] = set()
    for claim in claims:
        if claim.kind in seen_kinds:
            continue
        seen_kinds.add(claim.kind)
        spec = kind_spec(claim.kind)
        if spec.list_key is not None:
            if fields is None:
                ctx.diag("error", "list_file_shape",
                         f"{a_kind(claim.kind)} file should be YAML holding a `{spec.list_key}:` list; "
                         "it was not loaded.")
                continue
            objects.extend(_list_members(ctx, claim, spec, fields, text, lines))
            continue
        if is_markdown and spec.needs_front_matter and not has_front_matter:
            ctx.diag(
                "info",
                "no_front_matter",
                f"has no front matter, so it is indexed as a document, not as "
                f"{a_kind(claim.kind)}. Add {kind_name(claim.kind)} front matter (id, title, "
                "status, ...) to make it one.",
                1,
            )
            objects.append(_make_object(ctx, Claim(claim.class_id, "document"), {}, body, {}))
            continue
        objects.append(_make_object(ctx, claim, fields or {}, body, lines))
    return ParsedFile(tuple(objects), tuple(ctx.diagnostics))
