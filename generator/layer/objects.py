"""One record's fields made into a :class:`LayerObject`: checked, identified (or indexed
under its path when it has no identity), titled, summarised; and a list file's items, one
object each."""

from __future__ import annotations

from ..model import LayerObject, uri_for
from ..phrases import Phrase, say
from .bodytext import first_heading, section_paragraph
from .fieldchecks import check_paths, check_self_references, check_types
from .filecontext import Claim, FileContext
from .kinds import FACT_KEYS, KindSpec, kind_spec, say_a_kind
from .naming import expected_stem
from .scalars import as_text_list, first_text, say_words, scalar_text

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
              label_where: Phrase, member: str | None, member_line: int | None) -> str | None:
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
        found = [say("`{field}` is {found}", field=k, found=say_words(fields.get(k)))
                 for k in missing]
        ctx.diag(
            "error",
            "missing_identity",
            say("{label} has no identity: {found}; {a_kind} is identified by {fields}. Add "
                "{add}; until then it is indexed under its path.",
                label=label_where, found=_joined(found), a_kind=say_a_kind(kind),
                fields=_and(f"`{k}`" for k in spec.identity_fields),
                add=", ".join(f"`{k}:`" for k in missing)),
            member_line if member_line is not None else lines.get(missing[0]),
        )
        return None
    identity = "@".join(parts)
    naming = expected_stem(spec, ctx.rel_path, fields) if member is None else None
    if naming is not None and not naming[0]:
        ctx.diag(
            "warning",
            "id_mismatch",
            say("{kind} `{identity}` lives in a file whose name disagrees with its id; "
                "expected {expected}. Rename the file or correct the id (the id is used).",
                kind=kind, identity=identity, expected=naming[1]),
            lines.get(spec.identity_fields[0]),
        )
    return identity


def _joined(parts: list[Phrase]) -> Phrase:
    """Sentences listed with commas, each said in the page's language."""
    return Phrase(", ".join("{p%d}" % i for i in range(len(parts))),
                  tuple((f"p{i}", p) for i, p in enumerate(parts)))


def _and(names) -> Phrase:
    """Names joined with "and" (said in the page's language)."""
    names = list(names)
    if len(names) == 1:
        return Phrase("{name}", (("name", names[0]),))
    return say("{names} and {last}", names=_and(names[:-1]), last=names[-1])


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
    label_where = (say("{kind} in {path} ({member})", kind=kind, path=ctx.rel_path, member=member)
                   if member else say("{kind} in {path}", kind=kind, path=ctx.rel_path))
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
            say("{a_kind} file should hold a `{key}:` list; found {found}. Add `{key}:` with "
                "one item per `- id:`.", a_kind=say_a_kind(claim.kind), key=spec.list_key or "",
                found=say_words(items)),
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
                say("item {position} of `{key}` should be a mapping with `id`; found {found}. "
                    "It was skipped.", position=str(position), key=spec.list_key or "",
                    found=say_words(item)),
                lines.get(spec.list_key or ""),
            )
            continue
        ident = scalar_text(item.get("id"))
        member_line = id_lines.get(ident) if ident is not None else None
        out.append(make_object(ctx, claim, {str(k): v for k, v in item.items()}, None, {},
                               member, member_line))
    return out
