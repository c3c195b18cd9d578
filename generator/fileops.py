"""Small file-system steps the writer is made of: a file written whole, a file replaced
atomically, a directory locked, two directories exchanged in one rename, a flush to disk,
and whether two paths hold the same file. Linux facilities (``renameat2``, ``syncfs``)
through libc, with a portable fallback where there is one."""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import os
import secrets
import stat
import sys

from .outdir import IN_SITE_TEMP

__all__ = ["FILE_MODE", "DIR_MODE", "write_new", "replace_file", "unlink", "lock", "is_locked",
           "exchange", "flush", "fsync_dir", "same_file"]

FILE_MODE = 0o666  # less the umask, as any file a program writes
DIR_MODE = 0o777


def write_new(path: str, data: bytes) -> None:
    """Create (or truncate) ``path`` and write all of ``data``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0),
                 FILE_MODE)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def replace_file(path: str, data: bytes) -> None:
    """Write ``path`` atomically: a temporary file beside it, then one rename."""
    tmp = os.path.join(os.path.dirname(path), IN_SITE_TEMP + secrets.token_hex(6))
    try:
        write_new(tmp, data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def unlink(path: str) -> None:
    """Remove ``path``; already gone is fine."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def lock(directory: str) -> int:
    """An open descriptor holding an exclusive ``flock`` on ``directory`` (released when the
    process ends, however it ends)."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def is_locked(directory: str) -> bool:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return True  # cannot tell: leave it
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing releases the probe's lock
    return False


_libc = None


def _libc_fn(name: str):
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        except OSError:
            _libc = False
    return getattr(_libc, name, None) if _libc else None


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def exchange(a: str, b: str) -> bool:
    """Swap the directories ``a`` and ``b`` in one step; False when the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    renameat2 = _libc_fn("renameat2")
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), b)


def flush(directory: str) -> None:
    """Put every written byte of the file system holding ``directory`` on disk."""
    syncfs = _libc_fn("syncfs") if sys.platform.startswith("linux") else None
    if syncfs is None:
        os.sync()
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        syncfs(fd)
    finally:
        os.close(fd)


def fsync_dir(directory: str) -> None:
    """Flush ``directory``'s entries (a rename in it); best effort."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def same_file(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` (a hard link) or an identical copy of it."""
    try:
        sa, sb = os.lstat(a), os.lstat(b)
    except OSError:
        return False
    if (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino):
        return True
    if stat.S_ISLNK(sa.st_mode) and stat.S_ISLNK(sb.st_mode):
        return os.readlink(a) == os.readlink(b)
    if stat.S_ISREG(sa.st_mode) and stat.S_ISREG(sb.st_mode) and sa.st_size == sb.st_size:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            while True:
                x, y = fa.read(1 << 20), fb.read(1 << 20)
                if x != y:
                    return False
                if not x:
                    return True
    return False
