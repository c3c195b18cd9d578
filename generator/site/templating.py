"""The one Jinja environment: autoescape on, undefined names are errors, and a few filters
for numbers and for the engine's sentences. Templates format; they never compute what the
engine should."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context, select_autoescape
from markupsafe import Markup, escape

from ..errors import BuildError
from ..phrases import Phrase
from . import i18n
from .templatecache import bytecode_cache

__all__ = ["TEMPLATES_DIR", "inline_code", "spoken", "said_text", "make_environment",
           "templates_dir"]


def _bundled_templates() -> Path:
    """The templates shipped in the package, ``generator/_templates``: a copy in an installed
    wheel, a link to the repository's top-level ``templates/`` in a checkout (so an editable
    install renders, and ``serve`` watches, the files being edited). Resolved, so watchers and
    error messages see the real directory."""
    return Path(str(resources.files("generator") / "_templates")).resolve()


#: The bundled templates and static assets (found through the package, never the checkout).
TEMPLATES_DIR = _bundled_templates()


def templates_dir(option: str | None = None) -> Path:
    """``--templates DIR``, else the bundled templates — refused before any work when it
    holds no ``context.html``, rather than a ``TemplateNotFound`` traceback midway."""
    path = Path(option) if option else TEMPLATES_DIR
    if (path / "context.html").is_file():
        return path
    if option:
        raise BuildError(f"--templates {option}: expected a directory holding the site's Jinja "
                         f"templates (context.html, base.html, ...), found "
                         f"{'no context.html in it' if path.is_dir() else 'no such directory'}. "
                         "Give such a directory, or leave the option out to use the bundled ones.")
    raise BuildError(f"the bundled templates are missing: {path} holds no context.html. "
                     "Reinstall devcontext-site; in a checkout, generator/_templates must be the "
                     "link to ../templates (on Windows, clone with git's core.symlinks on).")


_INLINE_CODE = re.compile(r"`([^`\n]+)`")


def inline_code(text: str | None) -> Markup:
    """A detail sentence with its `` `quoted` `` names as inline code: escaped first, so
    nothing in the text can become markup but the ``<code>`` this adds."""
    if text is None:
        return Markup("")
    if "`" not in text:  # most sentences quote nothing: no pattern to run
        return escape(text)
    return Markup(_INLINE_CODE.sub(r"<code>\1</code>", str(escape(text))))


def spoken(phrase: Phrase) -> Markup:
    """A phrase said in the page's language, its `` `quoted` `` names as inline code (the
    translation keeps the backticks, so the names stay code in every language)."""
    return inline_code(i18n.speak(phrase))


def said_text(model, attr: str = "detail") -> Markup:
    """The sentence of a wire model (``detail``, a discovery's ``reason``, a diagnostic's
    ``message``) in the page's language, from the phrase it carries (:func:`i18n.speak_or`)."""
    return inline_code(i18n.speak_or(getattr(model, "phrase", None), getattr(model, attr)))


def _at_render(format_value):
    """A filter Jinja may not fold into a constant when it compiles a template (a literal
    ``{{ 1000|n }}`` would be formatted once, in whatever language was active then)."""
    @pass_context
    def apply(context, value):
        return format_value(value)

    apply.__doc__ = format_value.__doc__
    return apply


def _at_render_with(format_value):
    """:func:`_at_render` for a filter that takes arguments."""
    @pass_context
    def apply(context, value, *args):
        return format_value(value, *args)

    apply.__doc__ = format_value.__doc__
    return apply


def _template_gettext():
    """The templates' ``_`` / ``gettext``: what ``jinja2.ext.i18n``'s new-style gettext
    gives (the active catalogue's message, as markup when escaping, ``%``-formatted with the
    call's values), its message remembered per catalogue. A page says some thirty interface
    strings, most with no values; through the extension each cost two context calls, a
    catalogue lookup and a Markup, at every use on every one of a build's pages."""
    messages: dict[tuple, str] = {}

    @pass_context
    def gettext(context, __string: str, **variables):
        escaping = context.eval_ctx.autoescape
        key = (i18n.active(), __string, escaping, not variables)
        rv = messages.get(key)
        if rv is None:
            rv = Markup(i18n._(__string)) if escaping else i18n._(__string)
            if not variables:  # nothing to format in: the formatted text is remembered
                rv = rv % variables
            messages[key] = rv
        return rv % variables if variables else rv

    return gettext


def make_environment(templates: Path | None = None) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates or TEMPLATES_DIR)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
        bytecode_cache=bytecode_cache(),
    )
    # Interface strings are marked {{ _("...") }} / {% trans %} (gettext, new style): they go
    # through site/i18n.py at render time, so one environment (its compiled templates) serves
    # every language; English until a language is activated.
    env.install_gettext_callables(i18n._, i18n.ngettext, newstyle=True)
    env.globals["_"] = env.globals["gettext"] = _template_gettext()
    env.globals["language"] = i18n.language
    env.globals["language_links"] = i18n.language_links
    # numbers and dates for the language being rendered
    env.filters["n"] = _at_render(i18n.format_count)
    env.filters["num"] = _at_render(i18n.format_number)
    env.filters["date"] = _at_render(i18n.format_date)
    env.filters["code"] = inline_code
    # the engine's sentences, said in the page's language (a phrase, or a model carrying one)
    env.filters["spoken"] = _at_render(spoken)
    env.filters["said"] = _at_render_with(said_text)
    return env
