"""``make messages``: bring the catalogues in step with the code's marked strings.

``python -m generator.site.messages`` extracts them as ``pybabel extract -F babel.cfg`` does
(with the phrase makers ``say``/``say_n`` as keywords, so the test that every extracted
message is translated sees the same set), writes ``generator/locale/messages.pot``, and
updates each ``generator/locale/<lang>/LC_MESSAGES/messages.po`` from it. Unlike ``pybabel update`` it never loses a translation: a
translated message the code does not have (yet) stays in the catalogue with the note
:data:`NOT_YET`, so a catalogue can be written ahead of the templates that will use it
(strings of branches still being written) and works the moment they land. No fuzzy
guesses: a new message arrives untranslated, and ``tests/site/test_catalogue.py`` says
which.

:func:`extract_registry` is the extraction method ``babel.cfg`` names for the operation
registry: the descriptions of every operation's input and output schema, keyed by their
exact English text, so the reference pages can show them in the reader's language.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any, Iterator

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

__all__ = ["LOCALE_DIR", "NOT_YET", "extract", "extract_registry", "update", "main"]

#: The extracted comment of a translated message no code uses (yet).
NOT_YET = "Not in the code yet: kept for strings being written (make messages keeps it)."

#: The catalogues, shipped as package data.
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The project's checkout (babel.cfg's paths are relative to it).
ROOT = LOCALE_DIR.parent.parent


def schema_descriptions() -> list[str]:
    """Every description in the registry's input and output schemas, in a fixed order."""
    from ..operations.registry import OPERATIONS
    from ..operations.schemas import input_schema, output_schema

    found: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in sorted(node):
                value = node[key]
                if key == "description" and isinstance(value, str):
                    found.setdefault(value, None)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    ops = OPERATIONS.values() if isinstance(OPERATIONS, dict) else OPERATIONS
    for op in ops:
        walk(input_schema(op))
        walk(output_schema(op))
    return list(found)


def extract_registry(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:
    """Babel extraction method: the registry module's own marked strings, then every schema
    description (as if marked on its first line)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    for text in schema_descriptions():
        yield 1, "_", text, ["A description in the operations' JSON Schemas."]


def extract(root: Path = ROOT) -> Catalog:
    """What ``pybabel extract -F babel.cfg`` finds under ``root``, as a catalogue."""
    with open(root / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    template = Catalog(project="devcontext-site", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=_keywords(), comment_tags=("NOTE:",)):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def _keywords() -> dict:
    """gettext's names, and the phrase makers of :mod:`generator.phrases` (``say``'s
    template; ``say_n``'s singular and plural)."""
    from babel.messages.extract import DEFAULT_KEYWORDS
    return {**DEFAULT_KEYWORDS, "say": None, "say_n": (1, 2)}


def write_template(template: Catalog, pot_path: Path) -> None:
    """``template`` as ``messages.pot``, written as ``pybabel extract`` writes it."""
    buf = io.BytesIO()
    write_po(buf, template, width=100, sort_output=True, omit_header=True)
    pot_path.write_bytes(buf.getvalue())


def update(po_path: Path, template: Catalog) -> Catalog:
    """The catalogue at ``po_path`` updated from ``template``: what the code has, with the
    translations it had; a translated message the code does not have is kept, noted
    :data:`NOT_YET`. No fuzzy matching."""
    with open(po_path, "rb") as fh:
        catalog = read_po(fh)
    for key, message in list(catalog.obsolete.items()):  # from a plain `pybabel update`
        if key not in catalog:
            catalog[message.id] = message
    catalog.obsolete = {}
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False,
                   update_creation_date=False)
    for message in catalog.obsolete.values():
        if _translated(message):
            message.auto_comments = [NOT_YET]
            message.locations = []
            catalog[message.id] = message
    catalog.obsolete = {}
    return catalog


def write(catalog: Catalog, po_path: Path) -> None:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, sort_output=True, ignore_obsolete=False,
             include_previous=False)
    po_path.write_bytes(buf.getvalue())


def main(argv: list[str] | None = None) -> int:
    """Extract the marked strings into ``messages.pot`` and update every language's
    catalogue from it (with a ``.pot`` path given: update from that file instead)."""
    args = sys.argv[1:] if argv is None else argv
    if args:
        with open(args[0], "rb") as fh:
            template = read_po(fh)
    else:
        template = extract()
        write_template(template, LOCALE_DIR / "messages.pot")
    for po_path in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po")):
        catalog = update(po_path, template)
        write(catalog, po_path)
        missing = sum(1 for m in catalog if m.id and not _translated(m))
        ahead = sum(1 for m in catalog if NOT_YET in m.auto_comments)
        print(f"{po_path.relative_to(ROOT)}: {len(catalog) - 1} messages, "
              f"{missing} untranslated, {ahead} not in the code yet")
    return 0


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
    return all(strings)


if __name__ == "__main__":  # pragma: no cover - the Makefile's entry point
    raise SystemExit(main())
