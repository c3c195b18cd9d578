"""The pack in three formats (pure: a :class:`Pack` in, bytes out), each stating its own
measured size.

- **Markdown**, for pasting: each body in a backtick fence longer than any backtick run
  inside it, so a file's own text cannot close the fence or break the structure.
- **XML** in the style agent prompts use (``<context>``, ``<document uri=… tier=…>``): each
  body in CDATA, split around ``]]>`` and carriage returns (which a parser would otherwise
  end the section at, or normalise away), so it parses with a real XML parser whatever the
  body holds. XML 1.0 cannot carry a few control characters (NUL among them) in any form;
  those are written as U+FFFD and counted on the document (``unrepresentable``).
- **JSON**, for programs: :class:`Pack`, serialised the product's one way.

The size a pack states is of its own bytes, so it is found as a fixed point: render with a
guess, measure, render again with the measurement, until the two agree (the length only
grows with the digits, so it settles in a few rounds).
"""

from __future__ import annotations

import re
from typing import Callable

from ..engine.numbers import BYTES_PER_TOKEN, fmt_number, tokens_for
from ..jsonio import canonical_json
from .memo import Memo
from .models import Pack, PackEntry, PackFormat, PackSize

__all__ = ["render", "render_markdown", "render_xml", "render_json", "fence_for",
           "xml_text", "XML_UNREPRESENTABLE"]

_BACKTICKS = re.compile(r"`+")
#: Characters XML 1.0 cannot hold, not even as a character reference.
XML_UNREPRESENTABLE = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

_LANG = {".yaml": "yaml", ".yml": "yaml", ".md": "markdown", ".py": "python", ".json": "json",
         ".sh": "sh", ".toml": "toml", ".js": "javascript", ".ts": "typescript", ".rs": "rust",
         ".go": "go", ".html": "html", ".css": "css", ".txt": "text"}


def _one_line(text: str | None) -> str:
    """``text`` on one line, its whitespace runs one space each, none at its ends."""
    if text and " " not in text and text.isprintable():
        return text  # no whitespace at all (every other whitespace character is unprintable)
    return " ".join((text or "").split())


def _seed_words(pack: Pack) -> str:
    r = pack.request
    words = [f"issue {r.issue}"] if r.issue else []
    words += [f"milestone {r.milestone}"] if r.milestone else []
    words += [f"uri {u}" for u in r.uris] + [f"path {p}" for p in r.paths]
    words += [f"intent {r.intent!r}"] if r.intent else []
    return ", ".join(words) or "no seeds (governance only)"


def _request_words(pack: Pack) -> str:
    r = pack.request
    return (f"{_seed_words(pack)}; budget {r.budget_tokens:,} tokens, floor {fmt_number(r.floor)}, "
            f"max depth {r.max_depth}" + (", all blocking rules" if r.all_blocking_rules else ""))


def _budget_words(pack: Pack) -> str:
    b = pack.budget
    words = f"{b.used_tokens:,} of {b.limit_tokens:,} tokens used ({b.required_tokens:,} required)"
    if b.over_budget:
        words += "; over budget: the entries it may not drop alone exceed the limit"
    return words


def _left_out_words(pack: Pack) -> str:
    total = sum(pack.left_out.values())
    if not total:
        return "nothing reached was left out"
    parts = ", ".join(f"{n} {r.value}" for r, n in pack.left_out.items())
    return f"{total} entr{'y' if total == 1 else 'ies'} reached and not given ({parts})"


def _explain_words(pack: Pack) -> str:
    if pack.explain_page:
        return f"{pack.explain_page} (relative to the site root)"
    return "none: the site has a page per issue and per milestone; `devcontext explain` answers for this request"


def _size_words(pack: Pack, what: str) -> str:
    s = pack.size
    return (f"{s.bytes:,} bytes, ~{s.tokens:,} tokens at {s.bytes_per_token} bytes per token: "
            f"the entries' own text is {s.text_bytes:,} bytes (the {pack.budget.used_tokens:,} "
            f"tokens the budget counted), the other {s.overhead_bytes:,} bytes "
            f"(~{tokens_for(s.overhead_bytes) if s.overhead_bytes else 0:,} tokens) are {what}")


# -- Markdown ---------------------------------------------------------------------------------

def fence_for(text: str) -> str:
    """A backtick fence longer than any backtick run in ``text`` (at least three).

    Found by asking whether ever longer runs occur (``in`` is a C search, and most texts
    have none or short ones), not by matching every run: this is the pack render's
    hottest line."""
    if "`" not in text:
        return "```"
    run = "``"
    while run in text:
        run += "`"
    return run if len(run) > 3 else "```"


def _lang(path: str) -> str:
    dot = path.rfind(".")
    return _LANG.get(path[dot:].lower(), "") if dot > path.rfind("/") else ""


def _markdown_head(pack: Pack) -> str:
    """The header: the only part that states the pack's size."""
    return "\n".join([
        f"# Development context: {_one_line(_seed_words(pack))}", "",
        f"- request: {_one_line(_request_words(pack))}",
        f"- budget: {_budget_words(pack)}",
        f"- left out: {_left_out_words(pack)}",
        f"- explain page: {_explain_words(pack)}",
        f"- size: {_size_words(pack, 'this header, the entry headings and the fences')}",
        f"- entries: {len(pack.entries)}, in the order the budget spent them, each the "
        "file's own text in a fence", "", ""])


#: How many objects' Markdown entries a process keeps (:func:`_markdown_entry`): a build's
#: packs repeat the same objects (50 consecutive packs of a large layer hold ~5,600 entries
#: of ~600 files), and each costs its text's size.
ENTRY_MEMO_SIZE = 5000
_ENTRIES: Memo[tuple, bytes] = Memo(ENTRY_MEMO_SIZE)


def _markdown_entry(e: PackEntry) -> bytes:
    """An entry under its heading, in a fence, but for its position (``## 3. ``): the
    same bytes in every pack that gives the object for the same reason, so made once."""
    # everything the entry shows (its text last: compared only when the rest is equal),
    # read from the model's __dict__ (a pydantic attribute is ~50 ns: see assemble)
    f = e.__dict__
    key = (f["uri"], f["tier"], f["cost_tokens"], f["required"], f["path"], f["reason"],
           f["replaced_bytes"], f["text"])
    block = _ENTRIES.get(key)
    if block is None:
        fence = fence_for(e.text)
        flags = " · required" if e.required else ""
        replaced = (f" ({e.replaced_bytes} byte(s) not UTF-8 shown as U+FFFD)"
                    if e.replaced_bytes else "")
        # the path, unless the identifier already is it (source files, documents, policy)
        where = "" if e.uri.endswith("/" + e.path) else f"{_one_line(e.path)} — "
        body = e.text if e.text.endswith("\n") or not e.text else e.text + "\n"
        block = _ENTRIES[key] = (
            f"{_one_line(e.uri)} · {e.tier} · {e.cost_tokens:,} tokens{flags}\n"  # StrEnum
            f"{where}reached by {_one_line(e.reason)}{replaced}\n\n"
            f"{fence}{_lang(e.path)}\n{body}{fence}\n").encode("utf-8")
    return block


def _markdown_body(pack: Pack) -> bytes:
    """Every entry under its heading, in a fence, a blank line between two: the same
    whatever size the head states. Joined once, as bytes (a large pack's body is ~100
    entries and most of its bytes)."""
    parts: list[bytes] = []
    for e in pack.entries:
        parts += (b"## %d. " % e.position, _markdown_entry(e), b"\n")
    if parts:
        parts.pop()  # no blank line after the last
    return b"".join(parts)


def render_markdown(pack: Pack) -> str:
    body = _markdown_body(pack)
    # the head ends in the blank line before the first entry; without entries the document
    # ends there too (the head's last newline is the join's, which has nothing to join)
    if not body:
        return _markdown_head(pack)[:-1]
    return (_markdown_head(pack).encode("utf-8") + body).decode("utf-8")


# -- XML ---------------------------------------------------------------------------------------

def _attr(value: object) -> str:
    text = XML_UNREPRESENTABLE.sub("\ufffd", str(value))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;")
            .replace("\r", "&#13;"))


def xml_text(text: str) -> tuple[str, int]:
    """``text`` as XML character data: CDATA sections split around ``]]>`` and ``\\r``, and
    how many characters XML cannot hold (written as U+FFFD)."""
    safe, unrepresentable = XML_UNREPRESENTABLE.subn("\ufffd", text)
    if not safe:
        return "", unrepresentable
    parts = []
    for i, piece in enumerate(safe.split("\r")):
        if i:
            parts.append("&#13;")
        if piece:
            parts.append("<![CDATA[" + piece.replace("]]>", "]]]]><![CDATA[>") + "]]>")
    return "".join(parts), unrepresentable


def render_xml(pack: Pack) -> str:
    b, s = pack.budget, pack.size
    left = " ".join(f'{r.value}="{n}"' for r, n in pack.left_out.items())
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<context schema="{pack.schema_}" fingerprint="{_attr(pack.fingerprint)}">',
           "<header>",
           f"<request>{_attr(_request_words(pack))}</request>",
           f'<budget used_tokens="{b.used_tokens}" limit_tokens="{b.limit_tokens}" '
           f'required_tokens="{b.required_tokens}" over_budget="{str(b.over_budget).lower()}">'
           f"{_attr(_budget_words(pack))}</budget>",
           f'<left_out total="{sum(pack.left_out.values())}"{" " + left if left else ""}>'
           f"{_attr(_left_out_words(pack))}</left_out>",
           f"<explain_page>{_attr(pack.explain_page or '')}</explain_page>",
           f'<size bytes="{s.bytes}" tokens="{s.tokens}" text_bytes="{s.text_bytes}" '
           f'overhead_bytes="{s.overhead_bytes}" bytes_per_token="{s.bytes_per_token}">'
           f"{_attr(_size_words(pack, 'this header, the document tags and the CDATA markup'))}"
           "</size>",
           "</header>",
           "<documents>"]
    for e in pack.entries:
        body, unrepresentable = xml_text(e.text)
        attrs = [f'index="{e.position}"', f'uri="{_attr(e.uri)}"', f'kind="{_attr(e.kind)}"',
                 f'tier="{e.tier.value}"', f'path="{_attr(e.path)}"',
                 f'cost_tokens="{e.cost_tokens}"', f'required="{str(e.required).lower()}"']
        if e.title:
            attrs.append(f'title="{_attr(e.title)}"')
        attrs.append(f'reason="{_attr(e.reason)}"')
        if e.replaced_bytes:
            attrs.append(f'replaced_bytes="{e.replaced_bytes}"')
        if unrepresentable:
            attrs.append(f'unrepresentable="{unrepresentable}"')
        out.append(f"<document {' '.join(attrs)}>{body}</document>")
    out.append("</documents>")
    out.append("</context>")
    return "\n".join(out) + "\n"


# -- JSON and the size ------------------------------------------------------------------------

def render_json(pack: Pack) -> str:
    return canonical_json(pack).decode("utf-8")


_RENDERERS: dict[PackFormat, Callable[[Pack], str]] = {
    PackFormat.markdown: render_markdown,
    PackFormat.xml: render_xml,
    PackFormat.json: render_json,
}


def _sized(pack: Pack, n_bytes: int, text_bytes: int) -> Pack:
    size = PackSize(bytes=n_bytes, tokens=tokens_for(n_bytes) if n_bytes else 0,
                    text_bytes=text_bytes, overhead_bytes=max(0, n_bytes - text_bytes),
                    bytes_per_token=BYTES_PER_TOKEN)
    return pack.model_copy(update={"size": size})


def _parts(pack: Pack, fmt: PackFormat) -> tuple[Callable[[Pack], bytes], bytes]:
    """How the pack, once its size is filled in, becomes bytes: a head made of the sized
    pack, then a body that does not depend on it. Markdown states its size in the head
    alone, so its body (most of the bytes and the time) is rendered once, and each round
    of the size's fixed point renders only the head (and measures, without joining)."""
    if fmt is PackFormat.markdown and pack.entries:
        return (lambda sized: _markdown_head(sized).encode("utf-8")), _markdown_body(pack)
    renderer = _RENDERERS[fmt]
    return (lambda sized: renderer(sized).encode("utf-8")), b""


def _text_bytes(e) -> int:
    # a text decoded whole encodes back to the very bytes measured; one with U+FFFD does not
    return len(e.text.encode("utf-8")) if e.replaced_bytes else e.cost_bytes


def render(pack: Pack, fmt: PackFormat) -> tuple[Pack, bytes]:
    """The pack in ``fmt``, stating its own size; and the pack with that size filled in."""
    fmt = PackFormat(fmt)
    text_bytes = sum(_text_bytes(e) for e in pack.entries)
    head_of, body = _parts(pack, fmt)
    n = text_bytes
    for _ in range(16):
        sized = _sized(pack, n, text_bytes)
        head = head_of(sized)
        if len(head) + len(body) == n:
            return sized, head + body
        n = len(head) + len(body)
    raise AssertionError(f"the pack's size did not settle (last {n} bytes)")  # pragma: no cover
