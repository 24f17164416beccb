"""The link's messages (docs/link.md, version 2): one JSON object per UDP datagram,
UTF-8, at most MAX_BYTES bytes, each with the version `v`, its `type` and the
session's `token`. `decode` checks every field of every message type (numbers finite,
whole numbers whole) and names what is wrong; `encode` checks the same before sending."""

from __future__ import annotations

import json
import math
import re
import secrets

from ..errors import UserError, shown
from ..files.recordings import HZ_RANGE

VERSION = 2
VERSIONS = (1, 2)
"""The versions taken from a game: version 1 is version 2 without the level."""
LEVEL_VERSION = 2
"""The first version whose node sends the game's level."""
LEVEL_PARTS = 1024
"""parts of a level at most (each under MAX_BYTES: 64 MB in all)."""
LEVEL_SHAPES = 10_000
"""shapes the link node sends at most; those beyond are counted as left out."""
DEFAULT_PORT = 47620
MAX_BYTES = 65536
"""bytes: a longer datagram is dropped unread."""
TELEMETRY_BYTES = 16384
"""bytes of a telemetry at most (the link node's are under 2 000 with every state variable
of every model): one sent every tick must stay cheap to parse and keep."""
STATE_ENTRIES = 64
"""entries of a telemetry's `state` at most (every model's state has fewer than 32)."""
MAX_WHOLE = 2**53
"""The largest whole number a field may hold: beyond it a double (Godot's JSON numbers)
no longer holds every whole number exactly."""

LEVEL_AS_SENT = ("pixels_per_metre", "centre_line")
"""Part 0's members passed on as the game sent them (level_track.py checks them and names
what is wrong in its message): the car's scale and the level's centre line."""
FROM_GAME = ("hello", "telemetry", "ack", "values", "pong", "bye", "level")
FROM_SANDBOX = ("welcome", "set", "get", "ping", "get_level")
CONTROLS = ("steer", "throttle", "brake", "handbrake", "shift")
"""The controls of a tick, in the order of a trace's columns."""
POSE = ("t", "x", "y", "heading", "vx", "vy")


class LinkError(UserError):
    """The link cannot do what was asked (the port is taken, nothing arrived)."""


class ProtocolError(ValueError):
    """A message that breaks the protocol. `reason` is the kind (what the drops are
    counted under): "oversized", "not JSON", "not an object", "version", "token",
    "unknown type", "bad field"; the message says which field and why."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


TOKEN_BYTES = 8
"""random bytes in a session's token (64 bits: no local program guesses it by trying)."""
TOKEN_FORM = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""A token given by the user: 16 … 64 letters, digits, '-' or '_', at least as long as
one the sandbox makes (never empty: the link node's token is empty until the user
pastes one in; a shorter one could be guessed)."""


def check_host(host: str) -> str:
    """`host` (an address or a name to listen on), or LinkError naming what is wrong with it."""
    named = f"host {shown(repr(host))}"
    if not isinstance(host, str) or not host.strip():
        raise LinkError(f"{named} is empty: give the address to listen on, such as 127.0.0.1")
    if any(c.isspace() or not c.isprintable() for c in host):
        raise LinkError(f"{named} is not an address or a host name: it holds a space or a control character")
    if len(host) > 253:
        raise LinkError(f"{named} is too long for a host name (at most 253 characters)")
    try:
        host.encode("idna")
    except UnicodeError:
        raise LinkError(
            f"{named} is not an address or a host name: each part between dots is 1 … 63 characters"
        ) from None
    return host


def check_token(token: str) -> str:
    """`token`, or LinkError saying what a token is."""
    if not isinstance(token, str) or not TOKEN_FORM.fullmatch(token):
        raise LinkError(
            f"token {shown(repr(token))} is not 16 … 64 letters, digits, '-' or '_' "
            "(a shorter one could be guessed by another program)"
        )
    return token


def new_token() -> str:
    """A session's token: 16 lowercase hex characters (TOKEN_BYTES random bytes from the
    OS's random source)."""
    return secrets.token_hex(TOKEN_BYTES)


def _bad(field: str, why: str) -> ProtocolError:
    return ProtocolError("bad field", f"{field} {why}")


def _number(message: dict, field: str, where: str, low: float = -math.inf, high: float = math.inf) -> float:
    value = message.get(field)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _bad(f"{where}.{field}", "is not a number" if field in message else "is missing")
    try:
        number = float(value)  # a whole number of 309 digits or more is beyond a double
    except OverflowError:
        raise _bad(f"{where}.{field}", "is too large for a number (beyond 1.8e308)") from None
    if not math.isfinite(number):
        raise _bad(f"{where}.{field}", "is not a finite number")
    if number < low:
        raise _bad(f"{where}.{field}", f"{number:g} is below {low:g}")
    if number > high:
        raise _bad(f"{where}.{field}", f"{number:g} is above {high:g}")
    return number


def _whole(message: dict, field: str, where: str, none: bool = False) -> int | None:
    value = message.get(field)
    if none and value is None:
        return None
    number = _number(message, field, where, 0.0)  # a float 7.0 is 7: Godot's JSON has only floats
    if number > MAX_WHOLE:
        raise _bad(f"{where}.{field}", f"{number:g} is above 2^53, beyond the whole numbers a double holds exactly")
    if number != int(number):
        raise _bad(f"{where}.{field}", "is not a whole number")
    return int(number)


def _text(message: dict, field: str, where: str) -> str:
    value = message.get(field)
    if not isinstance(value, str):
        raise _bad(f"{where}.{field}", "is not text" if field in message else "is missing")
    return value


def _object(message: dict, field: str, where: str, optional: bool = False) -> dict:
    value = message.get(field, {} if optional else None)
    if not isinstance(value, dict):
        raise _bad(f"{where}.{field}", "is not an object" if field in message else "is missing")
    return value


def _values(message: dict, field: str, where: str) -> dict[str, float | bool]:
    """An object of parameter values: each a finite number, or true/false (an option);
    null (a value the game cannot give as a number) is left out."""
    values = {name: value for name, value in _object(message, field, where).items() if value is not None}
    for name, value in values.items():
        if not isinstance(value, bool):
            _number(values, name, f"{where}.{field}")
    return {name: value if isinstance(value, bool) else float(value) for name, value in values.items()}


def _numbers(message: dict, field: str, where: str, names) -> dict[str, float]:
    values = _object(message, field, where)
    return {name: _number(values, name, f"{where}.{field}") for name in names}


def _state(message: dict, where: str) -> dict[str, float]:
    """The car's state variables: finite numbers, true/false as 1/0; null left out; at
    most STATE_ENTRIES of them."""
    given = _object(message, "state", where, optional=True)
    if len(given) > STATE_ENTRIES:
        raise _bad(f"{where}.state", f"has {len(given):,d} entries, more than {STATE_ENTRIES}")
    values = {name: float(v) if isinstance(v, bool) else v for name, v in given.items() if v is not None}
    return {name: _number(values, name, f"{where}.state") for name in values}


def _check(message: dict) -> dict:
    """The message with its fields checked and normalised (whole numbers as int,
    numbers as float); ProtocolError names the first bad field."""
    kind = message["type"]
    out = dict(message)
    if kind == "hello":
        for field in ("game", "godot", "model", "units"):
            out[field] = _text(message, field, kind)
        out["format"] = _whole(message, "format", kind, none=True)
        out["hz"] = _number(message, "hz", kind)
        if not HZ_RANGE[0] <= out["hz"] <= HZ_RANGE[1]:
            raise _bad("hello.hz", f"{out['hz']:g} is not a tick rate the sandbox takes ({HZ_RANGE[0]:g} … "
                                   f"{HZ_RANGE[1]:g} Hz)")  # fmt: skip
        out["params"] = _values(message, "params", kind)
        missing = message.get("missing", [])
        if not isinstance(missing, list) or not all(isinstance(name, str) for name in missing):
            raise _bad("hello.missing", "is not a list of names")
        out["missing"] = list(missing)
        if message.get("project") is not None:  # optional: a node made before it sends none
            out["project"] = _text(message, "project", kind)
    elif kind == "telemetry":
        out["tick"] = _whole(message, "tick", kind)
        out.update({field: _number(message, field, kind) for field in POSE})
        out["controls"] = _numbers(message, "controls", kind, CONTROLS)
        out["state"] = _state(message, kind)
        out["applied"] = _whole(message, "applied", kind)
        out["cost_us"] = _number(message, "cost_us", kind, 0.0)
    elif kind == "ack":
        out["seq"], out["tick"] = _whole(message, "seq", kind), _whole(message, "tick", kind)
        out["applied"] = _values(message, "applied", kind)
        refused = _object(message, "refused", kind)
        out["refused"] = {name: _text(refused, name, "ack.refused") for name in refused}
    elif kind in ("values", "set"):
        out["seq"] = _whole(message, "seq", kind)
        out["params"] = _values(message, "params", kind)
    elif kind in ("pong", "get", "ping"):
        out["seq"] = _whole(message, "seq", kind)
    elif kind == "get_level":
        out["seq"], out["part"] = _whole(message, "seq", kind), _whole(message, "part", kind)
        out["level"] = _whole(message, "level", kind, none=True)
    elif kind == "level":
        out.update(_level(message))
    elif kind == "welcome":
        out["sandbox"] = _text(message, "sandbox", kind)
    return out


def _level(message: dict) -> dict:
    """A level part's own fields checked: its place among the parts, its shapes a list of
    objects (each shape's fields are checked where it becomes a wall:
    level_track.py); part 0 also says what was not read and where the car is."""
    out = {name: _whole(message, name, "level") for name in ("seq", "level", "part", "parts")}
    if not 1 <= out["parts"] <= LEVEL_PARTS:
        raise _bad("level.parts", f"{out['parts']:,d} is not 1 … {LEVEL_PARTS:,d}")
    if out["part"] >= out["parts"]:
        raise _bad("level.part", f"{out['part']:,d} is not below its parts ({out['parts']:,d})")
    shapes = message.get("shapes")
    if not isinstance(shapes, list) or not all(isinstance(shape, dict) for shape in shapes):
        raise _bad("level.shapes", "is not a list of objects" if "shapes" in message else "is missing")
    if out["part"] == 0:
        out["left_out"] = _whole(message, "left_out", "level")
        not_read = message.get("not_read", [])
        if not isinstance(not_read, list) or not all(
            isinstance(note, dict) and isinstance(note.get("why"), str) and _is_count(note.get("count"))
            and isinstance(note.get("nodes"), list) and all(isinstance(node, str) for node in note["nodes"])
            for note in not_read
        ):  # fmt: skip
            raise _bad("level.not_read", 'is not a list of {"why": text, "nodes": [names], "count": n}')
        car = message.get("car")
        if car is not None:
            if not isinstance(car, dict):
                raise _bad("level.car", "is not an object")
            out["car"] = {name: _number(car, name, "level.car") for name in ("x", "y", "rotation")}
        for name in LEVEL_AS_SENT:  # checked where the track is made, to name what is wrong
            if name in message:
                out[name] = message[name]
    return out


def _is_count(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= MAX_WHOLE


def encode(message: dict, version: int = VERSION) -> bytes:
    """The datagram of `message` (its `v` added: `version`, the game's, for a message to
    a game of an older version): compact JSON in UTF-8. ValueError (a ProtocolError)
    when a field is bad or the datagram would be over MAX_BYTES."""
    message = {"v": version, **message}
    if message.get("type") not in FROM_GAME + FROM_SANDBOX:
        raise ProtocolError("unknown type", repr(message.get("type")))
    _check(message)
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
    if len(data) > MAX_BYTES:
        raise ProtocolError("oversized", f"{len(data):,d} bytes is over {MAX_BYTES:,d}")
    return data


def decode(data: bytes, token: str) -> dict:
    """The message in datagram `data`, checked (see `_check`); ProtocolError names
    what is wrong: the size first, then the JSON, the version, the token, the type and
    the fields. Nothing in it is ever run."""
    if len(data) > MAX_BYTES:
        raise ProtocolError("oversized", f"{len(data):,d} bytes is over {MAX_BYTES:,d}")
    try:
        message = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("not an object", type(message).__name__)
    version = message.get("v")
    if isinstance(version, bool) or version not in VERSIONS:
        raise ProtocolError("version", f"version {str(version)[:20]}, expected {' or '.join(map(str, VERSIONS))}")
    given = message.get("token")
    if not isinstance(given, str) or not secrets.compare_digest(given.encode("utf-8", "replace"), token.encode()):
        raise ProtocolError("token")
    kind = message.get("type")
    if kind not in FROM_GAME + FROM_SANDBOX:
        raise ProtocolError("unknown type", shown(repr(kind))[:40])
    if kind == "telemetry" and len(data) > TELEMETRY_BYTES:
        raise ProtocolError("oversized", f"a telemetry of {len(data):,d} bytes is over {TELEMETRY_BYTES:,d}")
    try:
        return _check(message)
    except ProtocolError:
        raise
    except (ArithmeticError, ValueError, TypeError) as exc:  # a value no check foresaw
        raise ProtocolError("bad field", f"{kind}: {type(exc).__name__}: {shown(exc)}") from None
