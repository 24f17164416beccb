"""Which system libraries Qt's X11 window needs and cannot find.

Without them Qt aborts the process (SIGABRT) while making the application, and its
message blames `xcb-cursor0` whatever is missing. Asking the dynamic linker first
(`ldd` on Qt's X11 plugin) names each missing library and the Debian/Ubuntu package
that has it, before anything is aborted.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

SPECIAL_PACKAGES = {"libglib-2.0.so.0": "libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0"}
"""Debian packages whose names do not follow the library's file name."""
NOT_FOUND = re.compile(r"^\s*(\S+\.so[.\d]*)\s+=>\s+not found", re.MULTILINE)


def debian_package(library: str) -> str:
    """The Debian package a shared library usually comes in: libfoo.so.4 → libfoo4,
    libfoo-x11.so.0 → libfoo-x11-0 (a hyphen when the name ends in a digit)."""
    if library in SPECIAL_PACKAGES:
        return SPECIAL_PACKAGES[library]
    match = re.fullmatch(r"(.+?)\.so\.?(\d*)[.\d]*", library)
    if not match:
        return library
    name, major = match.group(1).lower(), match.group(2)
    return f"{name}-{major}" if name[-1:].isdigit() and major else f"{name}{major}"


def missing_from(ldd_output: str) -> list[str]:
    """The libraries `ldd` reports as not found, each once, in its order."""
    return list(dict.fromkeys(NOT_FOUND.findall(ldd_output)))


def _x11_plugin() -> Path | None:
    try:
        import PySide6
    except ImportError:
        return None
    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.is_file() else None


def wants_x11() -> bool:
    """Qt will open its X11 (xcb) platform: Linux, and no other platform asked for."""
    if not sys.platform.startswith("linux"):
        return False
    chosen = os.environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.split(":")[0].split(";")[0] == "xcb"
    return os.environ.get("XDG_SESSION_TYPE") != "wayland" or not os.environ.get("WAYLAND_DISPLAY")


def missing_x11_libraries() -> str:
    """A message naming the libraries Qt's X11 window lacks and the packages to
    install, or "" when nothing is missing (or it cannot be told: no ldd)."""
    plugin, ldd = _x11_plugin(), shutil.which("ldd")
    if not wants_x11() or plugin is None or ldd is None:
        return ""
    try:
        out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    missing = missing_from(out)
    if not missing:
        return ""
    packages = " ".join(dict.fromkeys(debian_package(lib) for lib in missing))
    return (
        f"the window cannot open: Qt's X11 support needs {', '.join(missing)}, which this system "
        f"lacks. On Debian or Ubuntu: sudo apt-get install -y {packages}"
    )
