"""One record's fields made into a :class:`LayerObject`: checked, identified (or indexed
under its path when it has no identity), titled, summarised; and a list file's items, one
object each."""

from __future__ import annotations

from ..model import LayerObject, uri_for
from .bodytext import first_heading, section_paragraph
from .fieldchecks import check_paths, check_self_references, check_types
from .filecontext import Claim, FileContext
from .kinds import FACT_KEYS, KindSpec, a_kind, kind_spec
from .naming import expected_stem
from .scalars import as_text_list, first_text, scalar_text, words

__all__ = ["make_object", "list_members"]


def _facts(fields: dict) -> dict[str, str]:
    facts: dict[str, str] = {}
    for key in FACT_KEYS:
        text = scalar_text(fields.get(key))
        if text is not None:
            facts[key] = text
    for key in ("tags", "scope"):
        items = as_text_list(fields.get(key))
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


def _identity(ctx: FileContext, spec: KindSpec, fields: dict, lines: dict[str, int],
              label_where: str, member: str | None, member_line: int | None) -> str | None:
    """The identity the kind's fields give (joined with ``@``), or None when one is missing
    (an error); a file name that disagrees with it is a warning."""
    kind = spec.kind
    parts: list[str] = []
    missing: list[str] = []
    for key in spec.identity_fields:
        text = scalar_text(fields.get(key))
        if text is None or not text.strip():
            missing.append(key)
        else:
            parts.append(text.strip())
    if missing:
        found = ", ".join(f"`{k}` is {words(fields.get(k))}" for k in missing)
        ctx.diag(
            "error",
            "missing_identity",
            f"{label_where} has no identity: {found}; {a_kind(kind)} is identified by "
            f"{' and '.join(f'`{k}`' for k in spec.identity_fields)}. Add "
            f"{', '.join(f'`{k}:`' for k in missing)}; until then it is indexed under its path.",
            member_line if member_line is not None else lines.get(missing[0]),
        )
        return None
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
    return identity


def make_object(
    ctx: FileContext,
    claim: Claim,
    fields: dict,
    body: str | None,
    lines: dict[str, int],
    member: str | None = None,
    member_line: int | None = None,
) -> LayerObject:
    """The object ``claim`` makes of ``fields`` (and ``body``), its problems on ``ctx``."""
    kind = claim.kind
    spec = kind_spec(kind)
    label_where = f"{kind} in {ctx.rel_path}" + (f" ({member})" if member else "")
    fields = check_types(ctx, kind, fields, lines, label_where)
    check_paths(ctx, fields, lines, label_where)
    identity: str | None = None
    if spec.identity_fields:
        identity = _identity(ctx, spec, fields, lines, label_where, member, member_line)
    if identity is not None:
        check_self_references(ctx, kind, identity, fields, lines, label_where)
    if identity is None:
        identity = ctx.rel_path if member is None else f"{ctx.rel_path}#{member}"
    title = first_text(fields, spec.title_fields) if spec.title_fields else None
    if title is None and body is not None:
        title = first_heading(body)
    summary = first_text(fields, spec.summary_fields) if spec.summary_fields else None
    if summary is None and kind == "adr":
        summary = section_paragraph(body, "Decision")
    status = scalar_text(fields.get("status"))
    version = first_text(fields, ("updated_at", "version", "date", "created_at"))
    tags = tuple(t.strip() for t in as_text_list(fields.get("tags")) if t.strip())
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


def list_members(ctx: FileContext, claim: Claim, spec: KindSpec, data: dict, text: str,
                 lines: dict[str, int]) -> list[LayerObject]:
    """One object per item of the list file's ``spec.list_key`` list."""
    items = data.get(spec.list_key or "")
    if not isinstance(items, list):
        ctx.diag(
            "error",
            "list_file_shape",
            f"{a_kind(claim.kind)} file should hold a `{spec.list_key}:` list; found "
            f"{words(items)}. Add `{spec.list_key}:` with one item per `- id:`.",
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
                f"{words(item)}. It was skipped.",
                lines.get(spec.list_key or ""),
            )
            continue
        ident = scalar_text(item.get("id"))
        member_line = id_lines.get(ident) if ident is not None else None
        out.append(make_object(ctx, claim, {str(k): v for k, v in item.items()}, None, {},
                               member, member_line))
    return out
