"""Options and helpers shared by several verbs."""

from __future__ import annotations

import argparse

__all__ = ["add_repo_option", "plural"]


def add_repo_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--repo",
        metavar="DIR",
        help="repository root holding .ai/manifest.yaml (default: $DEVCONTEXT_REPO, else the "
        "bundled demo layer)",
    )


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else (words or word + 's')}"
