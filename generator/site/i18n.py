"""The interface language of a build: one active gettext catalogue that templates and page
code both translate through.

Python code marks its interface strings with :func:`_` / :func:`ngettext` (translated when
called, so call them while rendering, not at import) or :func:`N_` (marked for extraction,
translated later by whoever shows it). Until a catalogue is installed every string is its
English self.
"""

from __future__ import annotations

import gettext
from contextvars import ContextVar

__all__ = ["N_", "_", "active", "ngettext"]

_ACTIVE: ContextVar[gettext.NullTranslations] = ContextVar(
    "devcontext_translations", default=gettext.NullTranslations())


def active() -> gettext.NullTranslations:
    """The catalogue the current build renders with."""
    return _ACTIVE.get()


def _(message: str) -> str:
    return _ACTIVE.get().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _ACTIVE.get().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it here."""
    return message
