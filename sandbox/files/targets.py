"""Where an output goes: its name and folder checked before any work, and the user's
reason when a write fails."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..errors import UserError, printable, shown


def _limit(folder: Path, name: str, fallback: int) -> int:
    """os.pathconf's `name` (PC_NAME_MAX, PC_PATH_MAX) for the nearest existing folder."""
    while not os.path.isdir(folder) and folder != folder.parent:  # isdir: False for a path too long
        folder = folder.parent
    try:
        return os.pathconf(folder, name)
    except (OSError, ValueError, AttributeError):  # not on this system, or no limit
        return fallback


def check_target(path: str | os.PathLike, inputs=(), error: type[UserError] = UserError) -> Path:
    """The file an output named `path` is written to, or `error` naming the problem,
    before any work is done.

    Refused: an empty name; a name with bytes that are not UTF-8 (Qt and Godot cannot
    name such a file); a name or path longer than the file system allows (PC_NAME_MAX,
    PC_PATH_MAX); a folder that does not exist, is a file, or may not be written in; a
    folder, device, pipe or socket (never replaced by a plain file); and one of
    `inputs` (the files the command reads: writing would destroy them); a read-only
    file (no write permission in its mode: replacing it by a rename would ignore that,
    and root may write any file, so the mode decides) or one this user may not write.
    A symlink is written through to the file it points at."""
    if not str(path).strip():
        raise error("no output file given (the name is empty)")
    path = Path(path)
    name = printable(path)
    try:
        os.fspath(path).encode("utf-8")
    except UnicodeEncodeError:
        raise error(
            f"{name}: the name has bytes that are not UTF-8 text (shown as \\x..); choose a name in UTF-8"
        ) from None
    path_max = _limit(path.parent, "PC_PATH_MAX", 4096)
    if len(os.fsencode(os.path.abspath(path))) >= path_max:
        raise error(
            f"{shown(name)}: the path is {len(os.fsencode(os.path.abspath(path)))} bytes long; the "
            f"system allows {path_max - 1}"
        )
    longest = max((len(os.fsencode(part)) for part in path.parts), default=0)
    name_max = _limit(path.parent, "PC_NAME_MAX", 255)
    if longest > name_max:
        raise error(f"{shown(name)}: a name in this path is {longest} bytes long; the file system allows {name_max}")
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    problem = folder_problem(target.parent)
    if problem:
        raise error(f"{name}: {printable(problem)}")
    try:
        info = target.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise error(f"{name}: cannot write ({exc.strerror or exc})") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise error(f"{name}: is a folder, not a file")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise error(f"{name}: not a regular file (a device, pipe or socket); it is left as it is")
    if info is not None and not info.st_mode & stat.S_IWUSR:
        raise error(
            f"{name}: is read-only (its permissions, {stat.filemode(info.st_mode)}, allow no writing); it is "
            "left as it is (make it writable to replace it)"
        )
    if info is not None and not os.access(target, os.W_OK):
        raise error(f"{name}: no permission to write this file; it is left as it is")
    for given in inputs:
        try:
            if given is not None and info is not None and os.path.samefile(given, target):
                raise error(f"{name}: is also an input of this command ({printable(given)}); writing would destroy it")
        except OSError:
            continue
    return target


def folder_problem(folder: Path) -> str | None:
    """Why no file can be written in `folder`, or None. "Does not exist" only when it
    truly does not: a file where a folder should be, or a folder that may not be
    looked into, is named as such."""
    for place in (folder, *folder.parents):
        try:
            info = place.stat()
        except (FileNotFoundError, NotADirectoryError):
            continue
        except PermissionError:
            return f"no permission to look in {place.parent}"
        except OSError as exc:
            return f"cannot use the folder {place} ({exc.strerror or exc})"
        if not stat.S_ISDIR(info.st_mode):
            return f"{place} is a file, not a folder"
        if place != folder:
            if not os.access(place, os.W_OK | os.X_OK):
                return f"the folder {folder} does not exist (and there is no permission to make it in {place})"
            return f"the folder {folder} does not exist"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"no permission to write in {folder}"
        return None
    return f"the folder {folder} does not exist"


def write_failure(path: Path, exc: OSError) -> str:
    """The reason, for the user, that writing `path` (a file or a folder) failed with `exc`."""
    path = Path(path)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    if exc.errno == errno.EROFS:
        return "the disk is read-only"
    if isinstance(exc, PermissionError):
        place = next((p for p in path.parents if p.is_dir()), path.parent)
        return f"no permission to write in {place}"
    if isinstance(exc, (FileNotFoundError, NotADirectoryError, FileExistsError)):
        return folder_problem(path if path.exists() else path.parent) or f"cannot write ({exc.strerror or exc})"
    return f"cannot write ({exc.strerror or exc})"


def make_folder(folder: Path, error: type[UserError] = UserError) -> Path:
    """`folder`, made with its parents when missing, or `error` saying why it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise error(f"cannot make the folder {printable(folder)}: {write_failure(folder, exc)}") from None
    return folder
