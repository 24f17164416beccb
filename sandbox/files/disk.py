"""Reading user files safely and writing them atomically."""

from __future__ import annotations

import os
import stat
import tempfile
import threading
from pathlib import Path

from ..errors import UserError


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


def read_text(path: str | os.PathLike, limit: int, error: type[UserError] = UserError) -> str:
    """Text of a regular UTF-8 file of at most `limit` bytes; `error` names the file and
    the problem. Pipes and devices are refused unopened: reading them could block or
    never end."""
    path = Path(path)
    try:
        info = path.stat()
        kind = info.st_mode
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(kind):
        raise error(f"{path}: is a directory, not a file")
    if not stat.S_ISREG(kind):  # a pipe or a device could block or never end
        raise error(f"{path}: not a regular file (a pipe, socket or device)")
    too_large = f"{path}: file is larger than {limit // 1024} KiB, too large for this kind of file"
    if info.st_size > limit:  # refused unread; the read below is bounded too, for sizes that lie
        raise error(too_large)
    try:
        data = _read_within(path, limit + 1, READ_SECONDS)
    except TimeoutError:
        raise error(f"{path}: still not read after {READ_SECONDS:g} s (a slow or stuck network drive?); "
                    "nothing was changed") from None
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, not a file") from None
    except PermissionError:
        raise error(f"{path}: permission denied") from None
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise error(too_large)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (bad byte at offset {exc.start})") from None


def temp_beside(path: Path, suffix: str, error: type[UserError] = UserError) -> tuple[int, str]:
    """(fd, name) of a new temporary file in `path`'s folder, with the permissions a
    plain `open` would give (mkstemp's are 0600), for writing then renaming."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=suffix, dir=path.parent)
    except OSError as exc:
        raise error(f"{path}: cannot write here ({exc.strerror or exc})") from None
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    return fd, tmp


def write_text_atomic(path: str | os.PathLike, text: str, error: type[UserError] = UserError) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`.

    A crash or a full disk never leaves a half-written file at `path`.
    """
    path = Path(path)
    fd, tmp = temp_beside(path, ".tmp", error)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise error(f"{path}: cannot write ({exc.strerror or exc})") from None
