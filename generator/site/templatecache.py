"""The compiled templates, kept between runs, as Python keeps ``.pyc`` files.

Compiling the site's fourteen templates takes about 0.4 s of CPU, a tenth of a real layer's
whole build and more than every page of the demo together, and every build, ``serve`` and
test did it again from the same sources. Jinja's own bytecode cache keeps each compiled
template in a file and uses it only while the template's source is the same (it checks a
SHA-1 of the source), so a changed template, bundled or ``--templates``, is compiled again.

What else decides the compiled code is named in the directory, so that no other setting
can load it: Jinja's and Python's versions, and the environment's configuration, which is
:mod:`.templating` (its bytes are hashed: a changed option there is a new directory).

The directory is ``$DEVCONTEXT_CACHE_DIR``, else ``$XDG_CACHE_HOME/devcontext``, else
``~/.cache/devcontext``; ``DEVCONTEXT_CACHE_DIR=off`` turns the cache off. Where the
directory cannot be made or written (a read-only home, a sandbox), templates are compiled
as before: the cache is never the reason a build fails. Writes are atomic (Jinja writes a
temporary file and renames it), so builds running at once share it safely.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import jinja2
from jinja2 import BytecodeCache, FileSystemBytecodeCache

__all__ = ["bytecode_cache", "cache_root"]

#: The value of ``DEVCONTEXT_CACHE_DIR`` that turns the cache off.
OFF = "off"


def cache_root() -> Path | None:
    """Where devcontext keeps what it can make again (None: the cache is off)."""
    chosen = os.environ.get("DEVCONTEXT_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in (OFF, "") else Path(chosen)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) / "devcontext" if xdg else Path.home() / ".cache" / "devcontext"


def _compiled_by() -> str:
    """What, besides a template's source, decides its compiled code."""
    from . import templating  # the environment's options live there

    digest = hashlib.sha256()
    digest.update(f"jinja2 {jinja2.__version__}; python {sys.version}\n".encode())
    digest.update(Path(templating.__file__).read_bytes())
    return digest.hexdigest()[:16]


def bytecode_cache() -> BytecodeCache | None:
    """A bytecode cache in a directory only this configuration uses, or None where there
    is none to be had."""
    root = cache_root()
    if root is None:
        return None
    directory = root / f"templates-{_compiled_by()}"
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not os.access(directory, os.W_OK | os.X_OK):
            return None
    except OSError:
        return None
    return _QuietCache(str(directory))


class _QuietCache(FileSystemBytecodeCache):
    """Jinja's file cache, except that a file it cannot read or write (a full disk, a
    directory removed meanwhile) or a damaged one (Jinja refuses a wrong magic or source
    checksum, but a truncated file fails its unpickling) means "compile it", never a
    failed build."""

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # whatever a damaged file raises, the source is still there
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass
