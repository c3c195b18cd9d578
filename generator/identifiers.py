"""What a name a user types means in the index: every identifier form any output shows.

The outputs print an object as its full URI (``majordomus://adr/adr-0070``: ``list``, the
query traces, the site), as ``kind/identity`` (``adr/adr-0070``: ``compile``'s text view),
or by a bare id or slug (``adr-0070``, ``I2001``, a rule's stem without its ``@version``).
:func:`candidates` turns any of them into the objects it names; the callers decide what
several candidates mean (``explain`` and ``compile --uri`` refuse to guess, ``query
cross-ref`` takes the first issue or milestone and records the others). :func:`nearest`
suggests what a name that names nothing was probably meant to be.
"""

from __future__ import annotations

import difflib

from .errors import NotFoundError, RequestError
from .index import Index
from .model import URI_SCHEME, LayerObject

__all__ = ["PREFERRED_KINDS", "candidates", "nearest", "resolve_identifier", "short_form"]

#: Kinds tried first for a bare name (the ones a plan's ids name most).
PREFERRED_KINDS = ("issue", "milestone")

_PREFIX = f"{URI_SCHEME}://"


def short_form(uri: str) -> str:
    """``kind/identity``: the form the terminal views print."""
    return uri.split("://", 1)[-1]


def _bare(index: Index, kind: str, name: str) -> list[LayerObject]:
    obj = index.lookup(kind, name)
    if obj is not None:
        return [obj]
    if "@" not in name:  # a rule's or skill's stem names every version of it
        return [index.objects[u] for u in index.by_stem.get((kind, name), ())]
    return []


def candidates(index: Index, name: str) -> list[LayerObject]:
    """Every object ``name`` names: by URI, by ``kind/identity``, else by bare id or slug of
    any kind (issues and milestones first, then the other kinds alphabetically)."""
    name = name.strip()
    if not name:
        return []
    obj = index.get(name)
    if obj is not None:
        return [obj]
    rest = name[len(_PREFIX):] if name.startswith(_PREFIX) else name
    kind, sep, identity = rest.partition("/")
    if sep and kind in index.by_kind:
        found = _bare(index, kind, identity)
        if found or name.startswith(_PREFIX):
            return found
    elif name.startswith(_PREFIX):
        return []
    kinds = [k for k in PREFERRED_KINDS if k in index.by_kind]
    kinds += [k for k in index.kinds() if k not in PREFERRED_KINDS]
    out: list[LayerObject] = []
    for kind in kinds:
        for obj in _bare(index, kind, name):
            if obj not in out:
                out.append(obj)
    return out


def nearest(index: Index, name: str, n: int = 3) -> list[str]:
    """The URIs of the ``n`` objects whose ``kind/identity`` or bare id is closest to
    ``name`` (:func:`difflib.get_close_matches`), closest first, without repeats."""
    name = name.strip()
    name = name[len(_PREFIX):] if name.startswith(_PREFIX) else name
    if not name:
        return []
    # Compared without the scheme every URI shares (it would make every URI look alike).
    forms: dict[str, str] = {}
    for uri, obj in sorted(index.objects.items()):
        for form in (short_form(uri), obj.identity):
            forms.setdefault(form, uri)
    # difflib.get_close_matches's filters and cutoff, with ties broken by name (it breaks
    # them in reverse order).
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(name)
    scored = []
    for form in forms:
        matcher.set_seq1(form)
        if (matcher.real_quick_ratio() >= 0.6 and matcher.quick_ratio() >= 0.6
                and (ratio := matcher.ratio()) >= 0.6):
            scored.append((-ratio, form))
    out: list[str] = []
    for _, form in sorted(scored):
        uri = forms[form]
        if uri not in out:
            out.append(uri)
            if len(out) == n:
                break
    return out


def _listing(uris: list[str]) -> str:
    return ", ".join(f"`{u}`" for u in uris)


def resolve_identifier(index: Index, name: str, *, flag: str, strict: bool = True) -> str:
    """The URI ``name`` names, for the option ``flag`` the user gave it with.

    Several candidates are an error naming each (the user says which). None is an error
    with the nearest identifiers when ``strict``; otherwise ``name`` comes back unchanged,
    for the engine to answer about (``explain`` answers ``unknown``).
    """
    found = candidates(index, name)
    if len(found) == 1:
        return found[0].uri
    trimmed = name.strip()
    if found:
        uris = [o.uri for o in found]
        raise RequestError(
            f"{flag} `{trimmed}` is ambiguous: it names {len(uris)} objects — "
            f"{_listing(uris)}; give one of them in full, or as `kind/identity` "
            f"(`{short_form(uris[0])}`)", field=flag)
    if not strict:
        return name
    close = nearest(index, trimmed)
    hint = f"; the nearest it holds: {_listing(close)}" if close else ""
    raise NotFoundError(
        f"{flag} `{trimmed}` names nothing the layer holds (tried it as an identifier, as "
        f"`kind/identity` and as a bare id of every kind){hint}; list identifiers with "
        "`devcontext list`", field=flag)
