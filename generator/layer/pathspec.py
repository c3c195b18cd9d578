"""Git ``:(glob)`` pathspecs, matched against repository-relative paths.

Semantics (git's glob magic): ``*`` and ``?`` never cross ``/``; ``**/`` matches zero or
more directories; a trailing ``/**`` matches everything below; ``[...]`` is a character
class. A pathspec without magic is read the same way (we never need git's prefix
semantics, and one meaning is easier to explain). Compiled patterns are cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Pathspec", "compile_pathspec"]

_MAGIC = re.compile(r"^:\((?P<magic>[^)]*)\)")


@dataclass(frozen=True)
class Pathspec:
    """A compiled pathspec: its text, the regex, and the fixed directory it lies under."""

    text: str
    pattern: str
    regex: re.Pattern[str]
    #: The longest directory prefix with no wildcard: where a listing has to start.
    base_dir: str
    #: True when the pattern can match below more than one level (``**``).
    recursive: bool

    def matches(self, rel_path: str) -> bool:
        return self.regex.fullmatch(rel_path) is not None


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i) and (i == 0 or pattern[i - 1] == "/"):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == n:
            out.append("(?:/.*)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end == -1:
                out.append(re.escape(c))
                i += 1
                continue
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def compile_pathspec(text: str) -> Pathspec:
    """Compile ``:(glob)pattern`` (or a plain pattern) into a :class:`Pathspec`."""
    pattern = text
    magic = _MAGIC.match(text)
    if magic:
        pattern = text[magic.end() :]
    pattern = pattern.lstrip("/")
    if pattern.startswith("./"):
        pattern = pattern[2:]
    regex = re.compile(_translate(pattern))
    fixed: list[str] = []
    for part in pattern.split("/")[:-1]:
        if any(ch in part for ch in "*?["):
            break
        fixed.append(part)
    return Pathspec(
        text=text,
        pattern=pattern,
        regex=regex,
        base_dir="/".join(fixed),
        recursive="**" in pattern or any(ch in "/".join(pattern.split("/")[len(fixed) : -1]) for ch in "*?["),
    )
