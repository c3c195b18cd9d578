"""Options and helpers shared by several verbs."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable

from ..layer.limits import DEFAULT_LIMITS, LIMIT_FLAGS, Limits

__all__ = ["add_repo_option", "limits_from_args", "plural", "share_options"]


def _positive(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number; found {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number; found {text!r}")
    return value


_LIMIT_HELP = {
    "max_file_bytes": "skip (with an error diagnostic) any layer file larger than N bytes",
    "max_yaml_nodes": "refuse a YAML document of more than N nodes, aliases expanded",
    "max_yaml_depth": "refuse a YAML document whose collections nest more than N deep",
}


def add_repo_option(parser: argparse.ArgumentParser) -> None:
    """``--repo`` and, in their own help group, the limits every layer read obeys."""
    parser.add_argument(
        "--repo",
        metavar="DIR",
        help="repository root holding .ai/manifest.yaml (default: $DEVCONTEXT_REPO, else the "
        "bundled demo layer)",
    )
    group = parser.add_argument_group(
        "limits", "guards against hostile layer files; a file beyond one is a diagnostic and "
        "the rest of the layer still loads")
    for name, flag in LIMIT_FLAGS.items():
        default = getattr(DEFAULT_LIMITS, name)
        group.add_argument(flag, dest=name, type=_positive, default=default, metavar="N",
                           help=f"{_LIMIT_HELP[name]} (default: {default:,})")


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` the command line asked for (the defaults where it did not)."""
    return Limits(**{name: getattr(args, name, getattr(DEFAULT_LIMITS, name)) for name in LIMIT_FLAGS})


def share_options(parent: argparse.ArgumentParser, children: Iterable[argparse.ArgumentParser],
                  add: Callable[[argparse.ArgumentParser], None]) -> None:
    """Give ``parent`` (a verb) and each of ``children`` (its sub-verbs) the options ``add``
    makes, so that they work before or after the sub-verb.

    argparse copies a sub-verb's whole namespace over its parent's, defaults included; the
    children's copies therefore default to :data:`argparse.SUPPRESS` (absent unless given),
    and the parent's copy holds the default.
    """
    add(parent)
    for child in children:
        before = len(child._actions)
        add(child)
        for action in child._actions[before:]:
            action.default = argparse.SUPPRESS


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else (words or word + 's')}"
