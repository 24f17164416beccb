"""Reading user files safely and writing them atomically, through our own temporary
files beside the target (the checks of where an output goes are in targets.py)."""

from __future__ import annotations

import errno
import functools
import itertools
import os
import shutil
import stat
import tempfile
import threading
import time
from pathlib import Path

from ..errors import UserError, printable
from .targets import (  # noqa: F401 (importers of the old single module read them from here)
    check_target,
    folder_problem,
    make_folder,
    write_failure,
)

READ_SECONDS = 10.0
"""A read that takes longer is given up (the window must not freeze on a stuck drive)."""


def _read_bytes(path: Path, size: int) -> bytes:
    with open(path, "rb") as f:
        return f.read(size)


def _read_within(path: Path, size: int, seconds: float) -> bytes:
    """At most `size` bytes of `path`, read on a helper thread; TimeoutError if that
    takes over `seconds` (the thread is left to finish or hang on its own: a blocked
    read cannot be interrupted, but the caller goes on)."""
    result: list = []

    def work() -> None:
        try:
            result.append(_read_bytes(path, size))
        except BaseException as exc:  # noqa: BLE001 (re-raised in the caller's thread)
            result.append(exc)

    reader = threading.Thread(target=work, name=f"read {path.name}", daemon=True)
    reader.start()
    reader.join(seconds)
    if not result:
        raise TimeoutError(str(path))
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]


def read_failure(path: Path, exc: OSError, error: type[UserError] = UserError) -> UserError:
    """The user's message for an OSError met reading `path`."""
    if isinstance(exc, FileNotFoundError):
        return error(f"{printable(path)}: no such file")
    if isinstance(exc, IsADirectoryError):
        return error(f"{printable(path)}: is a directory, not a file")
    if isinstance(exc, PermissionError):
        return error(f"{printable(path)}: permission denied")
    return error(f"{printable(path)}: cannot be read ({exc.strerror or exc})")


def _too_large(path: Path, limit: int, error: type[UserError]) -> UserError:
    return error(f"{printable(path)}: file is larger than {limit // 1024} KiB, too large for this kind of file")


def check_readable(path: Path, limit: int, error: type[UserError] = UserError) -> os.stat_result:
    """The stat of a regular file of at most `limit` bytes, or `error` naming the
    problem. Pipes and devices are refused unopened: reading them could block or never
    end; a larger file is refused unread."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise error(f"{printable(path)}: no such file") from None
    except OSError as exc:
        raise error(f"{printable(path)}: cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise error(f"{printable(path)}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{printable(path)}: not a regular file (a pipe, socket or device)")
    if info.st_size > limit:
        raise _too_large(path, limit, error)
    return info


def read_text(path: str | os.PathLike, limit: int, error: type[UserError] = UserError, keep_bom: bool = False) -> str:
    """Text of a regular UTF-8 file of at most `limit` bytes; `error` names the file and
    the problem. Pipes and devices are refused unopened: reading them could block or
    never end. A byte-order mark is dropped, or kept as the text's first character
    with `keep_bom` (for a file rewritten as it was)."""
    path = Path(path)
    check_readable(path, limit, error)
    try:
        data = _read_within(path, limit + 1, READ_SECONDS)
    except TimeoutError:
        raise error(
            f"{printable(path)}: still not read after {READ_SECONDS:g} s (a slow or stuck network drive?); "
            "nothing was changed"
        ) from None
    except OSError as exc:
        raise read_failure(path, exc, error) from None
    if len(data) > limit:  # the size on disk lied (a file still growing)
        raise _too_large(path, limit, error)
    try:
        return data.decode("utf-8" if keep_bom else "utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{printable(path)}: not UTF-8 text (bad byte at offset {exc.start})") from None


TEMP_MARK = ".car-sandbox-tmp"
"""In the name of every temporary file we write (and only ours are ever cleaned up)."""
STALE_SECONDS = 600
"""A temporary file of ours untouched for this long is left from a killed command: a
writer alive adds to its file far more often (each chunk of a trajectory, or once at
the end of a computation that made the whole of it first)."""
TEMP_STEM_CHARS = 40
"""At most this much of the target's name goes into its temporary file's name (a long
target name must not make the temporary one too long)."""


def temp_beside(path: Path, suffix: str, error: type[UserError] = UserError) -> tuple[int, str]:
    """(fd, name) of a new temporary file in `path`'s folder, with the permissions a
    plain `open` would give (mkstemp's are 0600), for writing then renaming. Our own
    temporary files left in that folder by a killed command are removed first
    (remove_stale). Its name is UTF-8 and short whatever the target's: image writers
    are given it as text."""
    remove_stale(path.parent)
    stem = "".join(ch for ch in path.stem[:TEMP_STEM_CHARS] if ch.isprintable() and not 0xD800 <= ord(ch) < 0xE000)
    safe_suffix = suffix if suffix.isascii() and suffix.isprintable() else ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{stem}.", suffix=TEMP_MARK + safe_suffix, dir=path.parent)
    except OSError as exc:
        raise error(f"{printable(path)}: {write_failure(path, exc)}; the old file is unchanged") from None
    umask = os.umask(0)
    os.umask(umask)
    os.fchmod(fd, 0o666 & ~umask)  # by the descriptor: the name could meanwhile be a link
    return fd, tmp


def _no_follow(name: str, flags: int) -> int:
    """`open`'s opener for a name we made: a symlink put in its place is refused (ELOOP),
    never written through."""
    return os.open(name, flags | os.O_NOFOLLOW, 0o666)


def remove_stale(folder: Path) -> list[Path]:
    """Remove our own temporary files that a killed command left in `folder`: the
    rule is hidden files named `.*.car-sandbox-tmp*` (the names temp_beside gives) that
    are plain files, not links, and untouched for STALE_SECONDS. Returns those removed."""
    now, removed = time.time(), []
    try:
        leftovers = list(Path(folder).glob(f".*{TEMP_MARK}*"))
    except OSError:
        return removed
    for old in leftovers:
        try:
            info = old.lstat()
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_SECONDS:
                old.unlink()
                removed.append(old)
        except OSError:
            pass
    return removed


def write_atomic(
    path: str | os.PathLike,
    write,
    error: type[UserError] = UserError,
    inputs=(),
    check=None,
    backup: str | os.PathLike | None = None,
) -> Path:
    """Write an output file so that a failure (a full disk, a crash, a writer that
    gives up) never leaves it half written or empty, and never loses the old one.

    `write(name)` fills a temporary file beside the target and returns False if it
    failed (anything else: it succeeded); the file must then be non-empty and pass
    `check(bytes)` when given. Only then does it replace the target: with the old
    file's permissions, through a symlink to its file (`check_target`), and in place
    for a file with other hard links (renaming would split them). With `backup`, the
    old file is first kept under that name, atomically too (a backup that is not a
    plain file, a symlink say, is refused, never followed); a failure at any step
    leaves the target and `backup` as they were. Returns the file written."""

    def keep(target: Path, temps: list[str]):
        return _keep_backup(path, target, Path(backup), error, temps), None

    return _write(path, write, error, inputs, check, keep if backup is not None else None)[0]


def write_text_keeping_old(
    path: str | os.PathLike, text: str, error: type[UserError], first_backup: str | os.PathLike
) -> Path | None:
    """`write_text_atomic`, keeping the file already there (if any) under the first
    free name of `backup_names(first_backup)`: a new file, so no earlier backup is ever
    replaced and no symlink followed. Returns the backup's name, or None when there
    was no old file."""
    data = text.encode("utf-8")

    def keep(target: Path, temps: list[str]):
        return _keep_numbered(path, target, Path(first_backup), error, temps)

    return _write(path, _bytes_writer(data), error, (), lambda written: written == data, keep)[1]


def backup_names(first: Path):
    """The names a file's backups take, oldest first: car.gd.bak, car.gd.bak2, car.gd.bak3, …"""
    yield first
    for n in itertools.count(2):
        yield first.with_name(f"{first.name}{n}")


def _write(path, write, error: type[UserError], inputs, check, keep) -> tuple[Path, Path | None]:
    """write_atomic's work; `keep(target, temps)`, when given, keeps the old file and
    returns (what undoes that, the backup's name). Returns (target, backup kept)."""
    target = check_target(path, inputs, error)
    temps: list[str] = []  # ours to remove, whatever happens
    kept = None
    try:
        tmp = _temp(target, target.suffix, error, temps)  # the real type last: image writers pick by it
        if write(tmp) is False:
            raise error(f"{printable(path)}: could not be written (the disk may be full); the old file is unchanged")
        with open(tmp, "r+b", opener=_no_follow) as f:
            os.fsync(f.fileno())
            data = f.read() if check is not None else b""
            size = os.fstat(f.fileno()).st_size
        if not (check(data) if check is not None else size > 0):
            raise error(
                f"{printable(path)}: came out empty or incomplete (the disk may be full); the old file is unchanged"
            )
        restore, kept = keep(target, temps) if keep is not None else (None, None)
        try:
            _replace(tmp, target, error)
        except BaseException:
            if restore is not None:
                restore()
            raise
        temps.remove(tmp)
    except OSError as exc:
        raise error(f"{printable(path)}: {write_failure(target, exc)}; the old file is unchanged") from None
    finally:
        for name in temps:
            try:
                os.unlink(name)
            except OSError:
                pass
    return target, kept


def _temp(beside: Path, suffix: str, error: type[UserError], temps: list[str]) -> str:
    """A new empty temporary file beside `beside`, listed in `temps`."""
    fd, name = temp_beside(beside, suffix, error)
    os.close(fd)
    temps.append(name)
    return name


def _copy_to_temp(source: Path, beside: Path, error: type[UserError], temps: list[str]) -> str:
    """A temporary copy of `source` beside `beside`, on the disk (fsync) before it is used."""
    name = _temp(beside, beside.suffix, error, temps)
    with open(source, "rb") as src, open(name, "wb", opener=_no_follow) as dst:
        os.fchmod(dst.fileno(), stat.S_IMODE(os.fstat(src.fileno()).st_mode))  # a private file's copy stays private
        shutil.copyfileobj(src, dst)
        dst.flush()
        os.fsync(dst.fileno())
        whole = os.fstat(src.fileno()).st_size  # the file read, even if renamed over meanwhile
    if os.path.getsize(name) != whole:
        raise OSError(errno.EIO, "the copy came out short")
    return name


def _keep_backup(path, target: Path, backup: Path, error: type[UserError], temps: list[str]):
    """Put a copy of the file at `target` (if any) in `backup`'s place, by renaming a
    whole copy (a reader or a second save never sees it half written). Returns what
    puts the previous backup back, or None when there was no old file."""
    try:
        if not stat.S_ISREG(target.stat().st_mode):
            return None
    except FileNotFoundError:
        return None
    try:
        try:
            kept = backup.lstat()
        except FileNotFoundError:
            kept = None
        if kept is not None and not stat.S_ISREG(kept.st_mode):
            raise error(
                f"{printable(path)}: cannot keep the old file as {printable(backup)}: that is not a plain "
                "file (it is left as it is); the old file is unchanged"
            )
        previous = _copy_to_temp(backup, backup, error, temps) if kept is not None else None
        copy = _copy_to_temp(target, backup, error, temps)
        os.replace(copy, backup)
        temps.remove(copy)
    except OSError as exc:
        raise error(
            f"{printable(path)}: cannot keep the old file as {printable(backup.name)}: "
            f"{write_failure(backup, exc)}; the old file is unchanged"
        ) from None

    def restore() -> None:
        if previous is not None:
            os.replace(previous, backup)
            temps.remove(previous)
        else:
            os.unlink(backup)

    return restore


def _keep_numbered(path, target: Path, first: Path, error: type[UserError], temps: list[str]):
    """Keep a copy of the file at `target` (if any) under the first of `backup_names(first)`
    that does not exist: a whole copy, given its name by a hard link, which never
    replaces a file or follows a link there. Returns (what removes it again, its name),
    or (None, None) when there was no old file."""
    try:
        if not stat.S_ISREG(target.stat().st_mode):
            return None, None
    except FileNotFoundError:
        return None, None
    try:
        copy = _copy_to_temp(target, first, error, temps)
        for name in backup_names(first):
            try:
                _link_new(copy, name)
            except FileExistsError:
                continue
            return functools.partial(os.unlink, name), name
    except OSError as exc:
        raise error(
            f"{printable(path)}: cannot keep the old file as {printable(first.name)}: "
            f"{write_failure(first, exc)}; the old file is unchanged"
        ) from None
    raise AssertionError("backup_names never ends")


def _link_new(source: str, name: Path) -> None:
    """`name` made a new file with `source`'s content; FileExistsError if anything (a
    file, a link, even a broken one) is there. A file system without hard links gets
    a new file created exclusively and copied into."""
    try:
        os.link(source, name)
        return
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.EXDEV):
            raise
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    with open(source, "rb") as src, os.fdopen(fd, "wb") as dst:
        shutil.copyfileobj(src, dst)
        dst.flush()
        os.fsync(dst.fileno())


def _replace(tmp: str, target: Path, error: type[UserError]) -> None:
    """Put the checked temporary file in the target's place."""
    try:
        old = target.stat()
    except FileNotFoundError:
        os.replace(tmp, target)
        return
    if old.st_nlink > 1:  # keep the hard links: rewrite the shared file in place
        with open(tmp, "rb") as f:
            data = f.read()
        with open(target, "r+b") as f:
            try:  # room for it first: a full disk fails here, before a byte changes
                os.posix_fallocate(f.fileno(), 0, max(len(data), 1))
            except OSError as exc:
                raise error(
                    f"{printable(target)}: cannot write ({exc.strerror or exc}); the old file is unchanged"
                ) from None
            except AttributeError:  # no posix_fallocate on this system
                pass
            f.write(data)
            f.truncate()
            f.flush()
            os.fsync(f.fileno())
        return
    with open(tmp, "rb", opener=_no_follow) as f:  # our temporary file, never a link put there
        os.fchmod(f.fileno(), stat.S_IMODE(old.st_mode))
    os.replace(tmp, target)


def write_text_atomic(
    path: str | os.PathLike,
    text: str,
    error: type[UserError] = UserError,
    inputs=(),
    backup: str | os.PathLike | None = None,
) -> Path:
    """`write_atomic` of UTF-8 text (checked: every byte reached the disk)."""
    data = text.encode("utf-8")
    return write_atomic(path, _bytes_writer(data), error, inputs, check=lambda written: written == data, backup=backup)


def _bytes_writer(data: bytes):
    """A `write(name)` for write_atomic that puts `data` in our temporary file."""

    def write(name: str) -> None:
        with open(name, "wb", opener=_no_follow) as f:
            f.write(data)
            f.flush()

    return write


def png_complete(data: bytes) -> bool:
    """A whole PNG: its signature first and its IEND chunk (with that chunk's fixed
    CRC) last. A writer stopped by a full disk leaves one without the end."""
    return data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")


def svg_complete(data: bytes) -> bool:
    return data.rstrip().endswith(b"</svg>")
