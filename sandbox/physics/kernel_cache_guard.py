"""numba's kernel cache, read and written so that no state of its files stops a run.

numba trusts its cache: an empty, cut or garbled file raises on every start, a FIFO
blocks its read forever, a link to a device is read without end, a flipped bit in
the machine code is run as it is, and a failed write (full disk) raises. Here each
cache file is opened without following links or blocking, must be a regular file of
at most MAX_FILE_BYTES, and carries a SHA-256 of its content. Anything else is
damage: the function's files are removed and it is compiled again. A cache that
cannot be written is not written for the rest of the run. Each is said once, on
stderr. Only the cache's files are checked: compiling itself is untouched.

Each data file also holds the key it was saved under, and is a miss when read under
another key. Runs that compile at the same time (a test suite's processes) can each
give a new function the same free data file name, and the last write of the data can
then sit under another function's key: loaded, that would run another function's code
(a crash).

A kernel that calls a parallel kernel, compiled in a run that loaded that parallel
kernel from the cache, is saved without numba's note to start its parallel threads
on load (numba/numba#8578). A later run whose first parallel code is that kernel
then calls into threads never started: a crash. So the threads are started before
any kernel is loaded.

This is the only module that touches numba's private cache classes (it replaces them
for the whole process, `install`); `numba_changes` lists what a numba release changed
of what it relies on, and the tests fail on any.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import pickle
import shutil
import stat
from pathlib import Path

import numba
from numba.core import caching
from numba.np.ufunc.parallel import _launch_threads

from .kernel_cache import DAMAGED, say_once

MAX_FILE_BYTES = 64 * 2**20
"""The largest cache file read: the largest kernel's data file is about 250 KB and an
index 2 KB, so a bigger file is damage (or a device), never read to its end."""
MAGIC = b"car-sandbox kernel cache 2\n"
DIGEST_BYTES = 32
KEYED = "car-sandbox keyed entry"
"""The first item of each data file's (KEYED, key, data)."""

_NUMBA_FILE = caching.IndexDataCacheFile
"""numba's own class, before `install` puts CheckedCacheFile in its place."""

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_writing = True


class Damaged(Exception):
    """A cache file that is not as it was written."""


def read_checked(path: str) -> bytes | None:
    """The content `path` was written with, None if there is no such file; Damaged
    if it is a link, not a regular file, too big, or its content is not as written."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):  # a link, FIFO, device or folder is never opened
            raise Damaged(f"{path} is not a file")
        fd = os.open(path, _READ_FLAGS)  # and if one took its place since: no blocking, no following
    except FileNotFoundError:
        return None
    except OSError as error:
        raise Damaged(f"{path}: {error.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Damaged(f"{path} is not a file")
        if info.st_size > MAX_FILE_BYTES:
            raise Damaged(f"{path} is too big")
        blob = _read_at_most(fd, MAX_FILE_BYTES + 1)
    except OSError as error:
        raise Damaged(f"{path}: {error.strerror}") from None
    finally:
        os.close(fd)
    head, digest = blob[: len(MAGIC)], blob[len(MAGIC) : len(MAGIC) + DIGEST_BYTES]
    body = blob[len(MAGIC) + DIGEST_BYTES :]
    if len(blob) > MAX_FILE_BYTES or head != MAGIC or hashlib.sha256(body).digest() != digest:
        raise Damaged(f"{path} is not as written")
    return body


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(1 << 20, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _sealed(body: bytes) -> bytes:
    return MAGIC + hashlib.sha256(body).digest() + body


def remove(path: str) -> None:
    """Remove whatever is at `path` (a file, a link, a FIFO, a folder), never following a link."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except FileNotFoundError:  # gone already (another run repairing the same entry)
        pass


class CheckedCacheFile(caching.IndexDataCacheFile):
    """numba's index and data files, each sealed with a digest and read as checked."""

    def _load_index(self):
        body = read_checked(self._index_path)
        if body is None:
            return {}
        try:
            version, stamp, overloads = pickle.loads(body)
        except Exception as error:  # the digest matched, so only another format lands here
            raise Damaged(f"{self._index_path}: {error}") from None
        if version != self._version or stamp != self._source_stamp:
            return {}  # another numba, or a changed source: overwritten when saved
        return overloads

    def _save_index(self, overloads):
        body = self._dump((self._version, self._source_stamp, overloads))
        with self._open_for_write(self._index_path) as f:
            f.write(_sealed(body))

    def save(self, key, data):
        """numba's save, the data file holding its key too (see the module's docstring)."""
        super().save(key, (KEYED, key, data))

    def load(self, key):
        """numba's load; a data file saved under another key is a miss."""
        entry = super().load(key)
        if entry is None:
            return None
        if not (isinstance(entry, tuple) and len(entry) == 3 and entry[0] == KEYED) or entry[1] != key:
            return None  # another function's code under this name: compiled again, then saved over it
        return entry[2]

    def _load_data(self, name):
        body = read_checked(self._data_path(name))
        if body is None:
            raise FileNotFoundError(name)  # numba's load: an index entry without its data is a miss
        return pickle.loads(body)

    def _save_data(self, name, data):
        with self._open_for_write(self._data_path(name)) as f:
            f.write(_sealed(self._dump(data)))

    def files(self) -> list[str]:
        """This function's index and data files."""
        folder = Path(self._cache_path)
        stem = self._index_name[: -len(".nbi")]
        return [self._index_path] + [str(path) for path in folder.glob(f"{_glob_escape(stem)}.*.nbc")]


def _glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


class Locator(caching.UserProvidedCacheLocator):
    """numba's cache folder for one source folder, inside NUMBA_CACHE_DIR only: never
    beside the sources nor in numba's own user folder, where a folder or file other
    than a folder stands it is replaced, and where it cannot be written the run goes
    without writing its cache."""

    def ensure_cache_path(self):
        path = self.get_cache_path()
        if os.path.lexists(path) and not stat.S_ISDIR(os.lstat(path).st_mode):
            remove(path)
            say_once("damaged", DAMAGED)
        super().ensure_cache_path()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not caching.config.CACHE_DIR or not os.path.exists(py_file):
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError as error:
            give_up_writing(self.get_cache_path(), error)
        return self


def give_up_writing(folder: str, error: Exception) -> None:
    """Stop writing the cache for this run, saying why once."""
    global _writing
    _writing = False
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    say_once(
        "writing",
        f"cannot write the compiled-kernel cache in {Path(folder).parent} ({reason}); "
        "the kernels it lacks are compiled again at each start until it can be written",
    )


_load_overload = caching.Cache.load_overload
_save_overload = caching.Cache.save_overload


def load_overload(self, sig, target_context):
    """numba's load, numba's parallel threads started first (see the module's
    docstring); whatever fails in it (a damaged file, a rebuild that raises) removes
    the function's files and is a miss: the function is compiled again."""
    _launch_threads()  # at once when started: numba keeps them for the run
    try:
        return _load_overload(self, sig, target_context)
    except Exception:  # noqa: BLE001 - any state of the files: compile instead
        cache_file = self._cache_file
        try:
            for path in cache_file.files():
                remove(path)
        except OSError as failure:  # a read-only folder: compiled for this run only, as said
            give_up_writing(cache_file._cache_path, failure)
        else:
            say_once("damaged", DAMAGED)
        return None


def save_overload(self, sig, data):
    """numba's save, given up for the run at its first failure (a full disk, a folder
    that cannot be written): the cache is only a shortcut."""
    if not _writing:
        return
    try:
        _save_overload(self, sig, data)
    except Exception as error:  # noqa: BLE001 - OSError mostly, or an index damaged under us
        give_up_writing(self._cache_path, error)


def install() -> None:
    """Read and write numba's cache as above, for every function cached from now on."""
    if caching.IndexDataCacheFile is CheckedCacheFile:
        return
    caching.IndexDataCacheFile = CheckedCacheFile  # numba's Cache builds its files by this name
    caching.Cache.load_overload = load_overload
    caching.Cache.save_overload = save_overload
    caching.CacheImpl._locator_classes = [Locator, caching.IPythonCacheLocator, caching.ZipCacheLocator]


_NUMBA_CACHE = {"__init__": caching.Cache.__init__, "load_overload": _load_overload, "save_overload": _save_overload}
"""numba's Cache methods, as they were before `install`."""
RELIED_ON = {
    # numba's classes and the methods used or replaced here, with their parameters then
    "IndexDataCacheFile": (
        _NUMBA_FILE,
        {
            "__init__": "(self, cache_path, filename_base, source_stamp)",
            "load": "(self, key)",
            "save": "(self, key, data)",
            "_load_index": "(self)",
            "_save_index": "(self, overloads)",
            "_load_data": "(self, name)",
            "_save_data": "(self, name, data)",
            "_dump": "(self, obj)",
            "_open_for_write": "(self, filepath)",
            "_data_path": "(self, name)",
        },
    ),
    "UserProvidedCacheLocator": (
        caching.UserProvidedCacheLocator,
        {
            "__init__": "(self, py_func, py_file)",
            "ensure_cache_path": "(self)",
            "get_cache_path": "(self)",
            "from_function": "(py_func, py_file)",
        },
    ),
    "Cache": (
        _NUMBA_CACHE,
        {
            "__init__": "(self, py_func)",
            "load_overload": "(self, sig, target_context)",
            "save_overload": "(self, sig, data)",
        },
    ),
}
SAVED_FILE_ATTRIBUTES = ("_cache_path", "_index_name", "_index_path", "_source_stamp", "_version")
"""What CheckedCacheFile reads of the state numba's file class keeps."""
CALLS = {
    # whose source must still say what: the names `install` swaps are looked up there
    "Cache.__init__": (_NUMBA_CACHE["__init__"], ("IndexDataCacheFile(", "self._cache_file =", "self._cache_path =")),
    "IndexDataCacheFile.load": (_NUMBA_FILE.load, ("self._load_index()", "self._load_data(")),
    "IndexDataCacheFile.save": (_NUMBA_FILE.save, ("self._load_index()", "self._save_index(", "self._save_data(")),
}


def numba_changes() -> list[str]:
    """What this numba changed of what the guard relies on: a class, method or name
    gone, other parameters, or a method that no longer calls what is replaced. Empty
    when the guard fits this numba."""
    changes = []
    for owner_name, (owner, methods) in RELIED_ON.items():
        for name, expected in methods.items():
            method = owner.get(name) if isinstance(owner, dict) else getattr(owner, name, None)
            if method is None:
                changes.append(f"{owner_name}.{name} is gone")
            elif str(inspect.signature(method)) != expected:
                changes.append(f"{owner_name}.{name} takes {inspect.signature(method)}, not {expected}")
    for where, (function, needed) in CALLS.items():
        source = inspect.getsource(function)
        changes += [f"{where} no longer has `{text}`" for text in needed if text not in source]
    made = _NUMBA_FILE(cache_path="folder", filename_base="base", source_stamp=None)
    changes += [f"IndexDataCacheFile keeps no {name}" for name in SAVED_FILE_ATTRIBUTES if not hasattr(made, name)]
    for name in ("IPythonCacheLocator", "ZipCacheLocator", "CacheImpl", "config"):
        if not hasattr(caching, name):
            changes.append(f"numba.core.caching.{name} is gone")
    if not isinstance(getattr(getattr(caching, "CacheImpl", None), "_locator_classes", None), list):
        changes.append("CacheImpl._locator_classes is no longer a list")
    if str(inspect.signature(_launch_threads)) != "()":
        changes.append(f"numba.np.ufunc.parallel._launch_threads takes {inspect.signature(_launch_threads)}, not ()")
    if not hasattr(getattr(caching, "config", None), "CACHE_DIR"):
        changes.append("numba.core.caching.config.CACHE_DIR is gone")
    return changes


def numba_changes_said() -> str:
    """numba_changes as one message naming the numba version, empty if none."""
    changes = numba_changes()
    if not changes:
        return ""
    return (
        f"numba {numba.__version__} changed what sandbox/physics/kernel_cache_guard.py relies on "
        "(numba's private cache classes, replaced for the whole process): " + "; ".join(changes)
    )
