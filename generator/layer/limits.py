"""How much one layer file may cost to read: the guard against hostile input.

A few hundred bytes of YAML aliases (ten levels of nine-fold ``*a``) expand to billions of
nodes; a thousand ``[`` nest deeper than Python's stack; a stray disk image in ``.ai/`` is
gigabytes. Each limit turns such a file into one diagnostic (the file, the line where known,
the limit, what was found and the flag that raises it) while the rest of the layer builds.

The defaults are far above anything a real layer holds. Measured (2026-12):

=====================  ==========================  ======================  =========
limit                  real layer (majordomus)     synthetic ``large``     default
=====================  ==========================  ======================  =========
file bytes             21,234 (``HARVEST.md``)     11,699                  8 MiB (~400x)
YAML nodes per file    427 (rules manifest)        126 (``sources.yaml``)  100,000 (~230x)
YAML nesting depth     5                           5                       64 (~13x)
=====================  ==========================  ======================  =========

YAML nodes are counted *expanded*: an alias counts as every node of what it repeats, so the
count is what a consumer walking the value would meet. Counting happens while the document
is composed, so a bomb stops after at most ``max_yaml_nodes`` nodes of work.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits", "DEFAULT_LIMITS", "LIMIT_FLAGS"]


@dataclass(frozen=True)
class Limits:
    """The most one file may hold; every field is a positive integer."""

    #: A file larger than this is not read (diagnostic ``file_too_large``).
    max_file_bytes: int = 8 * 1024 * 1024
    #: Nodes of one YAML document, aliases expanded (diagnostic ``yaml_too_many_nodes``).
    max_yaml_nodes: int = 100_000
    #: Nesting of collections in one YAML document (diagnostic ``yaml_too_deep``).
    max_yaml_depth: int = 64

    def __post_init__(self) -> None:
        for name, flag in LIMIT_FLAGS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"limit {flag} must be a positive whole number; found {value!r}")


#: The command-line flag that sets each limit (named in every limit diagnostic).
LIMIT_FLAGS: dict[str, str] = {
    "max_file_bytes": "--max-file-bytes",
    "max_yaml_nodes": "--max-yaml-nodes",
    "max_yaml_depth": "--max-yaml-depth",
}

DEFAULT_LIMITS = Limits()
