"""X11 auto-repeat without fake releases.

An X server repeats a held key as a release/press pair. Qt recognises a pair by
looking for the press already queued behind the release; on a busy machine (a slider
being dragged, plots redrawn) the press is not there yet, the release is delivered
as a real one, and a held key reads as let go for a tick or three. XKB's
"detectable auto-repeat" (a per-client flag) makes the server send repeats as
presses alone, so a held key is one press and one release whatever the load.
"""

from __future__ import annotations

import ctypes
import ctypes.util

USE_CORE_KEYBOARD = 0x100
"""XKB's device id for the core keyboard."""
DETECTABLE_AUTO_REPEAT = 1
"""XKB per-client flag (XkbPCF_DetectableAutoRepeatMask)."""


class _Cookie(ctypes.Structure):
    _fields_ = [("sequence", ctypes.c_uint)]


class _FlagsReply(ctypes.Structure):
    """xcb_xkb_per_client_flags_reply_t."""

    _fields_ = [
        ("response_type", ctypes.c_uint8),
        ("device_id", ctypes.c_uint8),
        ("sequence", ctypes.c_uint16),
        ("length", ctypes.c_uint32),
        ("supported", ctypes.c_uint32),
        ("value", ctypes.c_uint32),
        ("auto_ctrls", ctypes.c_uint32),
        ("auto_ctrls_values", ctypes.c_uint32),
        ("pad", ctypes.c_uint8 * 8),
    ]


def detectable_auto_repeat(app) -> bool:
    """Ask the X server to send a held key's repeats as presses only, on the
    connection of `app` (a QGuiApplication on the xcb platform). True when the
    server agreed; False on other platforms (which repeat presses only already) or
    when libxcb-xkb is missing, in which case Qt's own pairing is all there is."""
    if app.platformName() != "xcb":
        return False
    try:
        connection = app.nativeInterface().connection()
        xkb = ctypes.CDLL(ctypes.util.find_library("xcb-xkb") or "libxcb-xkb.so.1")
        libc = ctypes.CDLL(None)
    except (AttributeError, OSError, TypeError):
        return False
    request, answer = xkb.xcb_xkb_per_client_flags, xkb.xcb_xkb_per_client_flags_reply
    request.restype = _Cookie
    request.argtypes = [ctypes.c_void_p, ctypes.c_uint16] + [ctypes.c_uint32] * 5
    answer.restype = ctypes.POINTER(_FlagsReply)
    answer.argtypes = [ctypes.c_void_p, _Cookie, ctypes.c_void_p]
    cookie = request(connection, USE_CORE_KEYBOARD, DETECTABLE_AUTO_REPEAT, DETECTABLE_AUTO_REPEAT, 0, 0, 0)
    reply = answer(connection, cookie, None)
    if not reply:
        return False
    agreed = bool(reply.contents.value & DETECTABLE_AUTO_REPEAT)
    libc.free.argtypes = [ctypes.c_void_p]
    libc.free(ctypes.cast(reply, ctypes.c_void_p))
    return agreed
