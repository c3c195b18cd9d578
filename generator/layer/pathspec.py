"""Git ``:(glob)`` pathspecs, matched against repository-relative paths.

Semantics (git's glob magic): ``*`` and ``?`` never cross ``/``; ``**/`` matches zero or
more directories; a trailing ``/**`` matches everything below; ``[...]`` is a character
class. A pathspec without magic is read the same way (we never need git's prefix
semantics, and one meaning is easier to explain). Compiled patterns are cached.

Pathspecs come from the layer's own ``sources.yaml``, so they may be hostile: a regex for
``*a*a*a*a*b`` or ``**/**/**/x`` backtracks in time polynomial of the pattern's degree in the
path's length (minutes on one 40-character name). Such patterns — two wildcards in one name,
more than one ``**/``, or ``**`` inside a name next to another wildcard — are matched name by
name instead (:class:`_SegmentMatcher`): time proportional to pattern x path, always.
There ``**`` inside a name is an ordinary ``*`` (git's own reading of it).
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

    #: Set for patterns the regex could take super-linear time on (see the module doc).
    segments: "_SegmentMatcher | None" = None

    def matches(self, rel_path: str) -> bool:
        if self.segments is not None:
            return self.segments.matches(rel_path)
        return self.regex.fullmatch(rel_path) is not None


_STAR = object()
_DIRS = object()  # a whole ``**`` name: zero or more directories


def _name_tokens(name: str) -> list:
    """One name's glob as tokens: _STAR, a literal character, or a one-character regex."""
    out: list = []
    i, n = 0, len(name)
    while i < n:
        c = name[i]
        if c == "*":
            while i < n and name[i] == "*":
                i += 1
            out.append(_STAR)
            continue
        if c == "?":
            out.append(re.compile("[^/]"))
        elif c == "[":
            end = name.find("]", i + 2 if name[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end != -1:
                body = name[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(re.compile("[" + body.replace("\\", "\\\\") + "]"))
                i = end + 1
                continue
            out.append(c)
        else:
            out.append(c)
        i += 1
    return out


def _name_matches(tokens: list, name: str) -> bool:
    """Glob match of one name, greedy with one backtrack point: O(len(tokens) * len(name))."""
    ti = si = 0
    star_ti, star_si = -1, 0
    nt, ns = len(tokens), len(name)
    while si < ns:
        token = tokens[ti] if ti < nt else None
        if token is _STAR:
            star_ti, star_si = ti, si
            ti += 1
        elif token is not None and (token == name[si] if isinstance(token, str)
                                    else token.fullmatch(name[si]) is not None):
            ti += 1
            si += 1
        elif star_ti != -1:
            ti, star_si = star_ti + 1, star_si + 1
            si = star_si
        else:
            return False
    while ti < nt and tokens[ti] is _STAR:
        ti += 1
    return ti == nt


@dataclass(frozen=True)
class _SegmentMatcher:
    """A pattern matched name by name: the reachable positions after each pattern name."""

    parts: tuple

    def matches(self, rel_path: str) -> bool:
        names = rel_path.split("/")
        reach = {0}
        for part in self.parts:
            if part is _DIRS:
                reach = set(range(min(reach), len(names) + 1))
            else:
                reach = {i + 1 for i in reach if i < len(names) and _name_matches(part, names[i])}
            if not reach:
                return False
        return len(names) in reach


def _risky(pattern: str) -> bool:
    names = pattern.split("/")
    if sum(1 for name in names if name == "**") > 1:
        return True
    for name in names:
        if name == "**":
            continue
        runs = len([r for r in re.split(r"[^*]+", name) if r])
        if runs > 1 or ("**" in name and (runs > 1 or "?" in name or "[" in name)):
            return True
    return False


def _segment_matcher(pattern: str) -> _SegmentMatcher:
    parts: list = []
    for name in pattern.split("/"):
        if name == "**":
            if not parts or parts[-1] is not _DIRS:  # `**/**` is `**`
                parts.append(_DIRS)
        else:
            parts.append(_name_tokens(name))
    return _SegmentMatcher(tuple(parts))


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
        segments=_segment_matcher(pattern) if _risky(pattern) else None,
    )
