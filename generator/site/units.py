"""The site as a list of build units.

A unit names the files it makes, the inputs it reads — as typed :class:`Key` values — and
a function that makes its bytes from them (the page modules under :mod:`.pages`). A full
build runs every unit; after an edit a build works out which keys changed and runs only
the units that read one (:func:`reading`). The keys:

``answer:<uri>``       a context's compiled answer (beyond its fingerprint)
``object:<uri>``       an object's own values, edges and state — and those of every
                       object within its cross-reference walk, which its page shows
``standings:<uri>``    an object's standing in every context
``diagnostics:<path>`` the diagnostics about one file
``path:<path>``        what lies at a repository path (a Markdown link resolved there)
``source:<path>``      the bytes of one file of the tree (a pack carries them)
``kind:<kind>``        the objects of one kind: their values, states and standing counts
``template:<name>``    one template; ``templates``: any template or static asset
``objects``            every object's own values; ``pages``: the set of pages
``layer``              the layer as a whole (fingerprint, counts, every context): read by
                       the files that show it, which every build makes again
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from . import urls
from .contexts import ContextKey
from .overview import OVERVIEW_TEMPLATES, OverviewFile

__all__ = ["Key", "Unit", "LAYER", "OBJECTS", "PAGES", "ANY_TEMPLATE", "answer_key", "object_key",
           "standings_key", "diagnostics_key", "path_key", "kind_key", "template_key",
           "template_keys", "source_key", "context_unit", "pack_unit", "object_unit", "overview_unit", "reading",
           "CONTEXT_TEMPLATE", "OBJECT_TEMPLATE"]


@dataclass(frozen=True, slots=True, order=True)
class Key:
    """One input a unit reads."""

    kind: str
    name: str = ""


LAYER = Key("layer")
OBJECTS = Key("objects")
PAGES = Key("pages")
ANY_TEMPLATE = Key("templates")


def answer_key(key: ContextKey) -> Key:
    return Key("answer", key.uri)


def object_key(uri: str) -> Key:
    return Key("object", uri)


def standings_key(uri: str) -> Key:
    return Key("standings", uri)


def diagnostics_key(path: str) -> Key:
    return Key("diagnostics", path)


def path_key(path: str) -> Key:
    return Key("path", path)


def source_key(path: str) -> Key:
    return Key("source", path)


def kind_key(kind: str) -> Key:
    return Key("kind", kind)


def template_key(name: str) -> Key:
    return Key("template", name)


#: The templates of the pages of one context and of one object.
CONTEXT_TEMPLATE, OBJECT_TEMPLATE = "context.html", "object.html"


def template_keys(names: Iterable[str]) -> set[Key]:
    """The keys that changed with these templates (names relative to the templates
    directory): a page template is read by its pages; the overview templates and the
    static assets by the overview files; anything else (``base.html``, ``macros.html``, a
    new file) by every page."""
    keys: set[Key] = set()
    for name in names:
        name = name.replace("\\", "/")
        keys.add(ANY_TEMPLATE)
        if name in (CONTEXT_TEMPLATE, OBJECT_TEMPLATE):
            keys.add(template_key(name))
        elif not (name.startswith("static/") or name in OVERVIEW_TEMPLATES):
            keys |= {template_key(CONTEXT_TEMPLATE), template_key(OBJECT_TEMPLATE)}
    return keys


Made = list[tuple[str, bytes]]


@dataclass(frozen=True)
class Unit:
    """Files, the keys they are made from, and how to make them."""

    files: tuple[str, ...]
    reads: frozenset[Key]
    make: Callable[[], Made]


def context_unit(key: ContextKey, make: Callable[[], Made]) -> Unit:
    """A context's JSON and page, made from its answer."""
    return Unit((urls.context_json(key.kind, key.identity), urls.context_page(key.kind, key.identity)),
                frozenset({answer_key(key), template_key(CONTEXT_TEMPLATE)}), make)


def pack_unit(key: ContextKey, paths: Iterable[str], make: Callable[[], Made]) -> Unit:
    """A context's pack and its script: its answer and the bytes of the files of the entries
    it selected (an edit can change a file's bytes and not the answer: a comment in a YAML
    record, a code file edited in place). No template: the pack is not a page."""
    reads = {answer_key(key)} | {source_key(p) for p in paths}
    return Unit((urls.context_pack(key.kind, key.identity), urls.context_pack_script(key.kind, key.identity)),
                frozenset(reads), make)


def object_unit(uri: str, path: str, linked: Iterable[str], make: Callable[[], Made]) -> Unit:
    """An object's JSON and page: its values and walk, its standings, its file's
    diagnostics, the paths its Markdown links (as found when the page was last made)."""
    reads = {object_key(uri), standings_key(uri), diagnostics_key(path), template_key(OBJECT_TEMPLATE)}
    reads.update(path_key(p) for p in linked)
    return Unit((urls.object_json(uri), urls.object_page(uri)), frozenset(reads), make)


def overview_unit(part: OverviewFile) -> Unit:
    """An overview file, reading what it shows (:class:`OverviewFile`)."""
    shows = part.shows
    reads = {ANY_TEMPLATE}
    if shows == "layer":
        reads.add(LAYER)
    elif shows == "objects":
        reads.add(OBJECTS)
    elif shows == "plan":
        reads |= {kind_key("issue"), kind_key("milestone"), PAGES}
    elif shows.startswith("kind:"):
        reads |= {kind_key(shows[len("kind:"):]), PAGES}
    elif shows == "pages":
        reads.add(PAGES)
    elif shows != "templates":  # something new: made every time
        reads.add(LAYER)
    return Unit((part.rel,), frozenset(reads), lambda: [(part.rel, part.make())])


def reading(units: Sequence[Unit], changed: set[Key] | None) -> Iterator[Unit]:
    """The units that read a changed key (every unit when ``changed`` is None)."""
    for unit in units:
        if changed is None or not unit.reads.isdisjoint(changed):
            yield unit
