"""What the link knows about the game, as plain frozen records the window and the
`link` command read: the game itself (from its hello), one physics tick of its car
(telemetry), the link's state, and a written recording; and how text the game sent is
shown (`from_game`: every name and reason of the game's that the window or the
command shows passes through it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import printable
from ..files.recording_columns import STATE_COLUMNS
from ..files.recording_header import known_switches
from .protocol import CONTROLS

FROM_GAME_CHARS = 80
"""A text of the game's (a name) is cut to about this many characters where shown."""
REASON_CHARS = 200
"""A reason the game gives for refusing a value is cut to about this many characters."""


def from_game(value: object, limit: int = FROM_GAME_CHARS) -> str:
    """Text the game sent (its name, a parameter's name, a reason it refused a value) as
    it may be shown on one line: cut to about `limit` characters with its length said,
    and every control character escaped as errors.printable escapes it (a line break as
    \\x0a), so no game can add lines to what the sandbox prints or shows."""
    text = str(value)
    if len(text) > limit:
        text = f"{text[: max(limit - 20, 1)]}… ({len(text):,d} characters)"
    return printable(text)


def names_from_game(names) -> str:
    """Names the game sent, as `from_game` shows each, comma-separated."""
    return ", ".join(from_game(name) for name in names)


@dataclass(frozen=True)
class Telemetry:
    """The game's car after physics tick `tick` (t = tick / hz, s): pose in the model's
    units (px or m) and rad, velocity in units/s, the controls it read in that tick
    (steer, throttle, brake, handbrake, shift), its state variables by name (those a
    recording can hold, files/recording_columns.STATE_COLUMNS: the rest is not kept), the
    seq of the last set applied, what the node cost the game (µs), and `received`, the
    time.perf_counter() (s) when it arrived."""

    tick: int
    t: float
    x: float
    y: float
    heading: float
    vx: float
    vy: float
    controls: tuple[float, float, float, float, float]
    state: dict[str, float]
    applied: int
    cost_us: float
    received: float

    @classmethod
    def of(cls, message: dict, received: float) -> "Telemetry":
        """From a decoded telemetry message."""
        pose = {name: message[name] for name in ("tick", "t", "x", "y", "heading", "vx", "vy")}
        controls = tuple(message["controls"][name] for name in CONTROLS)
        given = message["state"]
        state = {name: given[name] for name in STATE_COLUMNS if name in given}  # the names kept are shared strings
        return cls(**pose, controls=controls, state=state, applied=message["applied"],
                   cost_us=message["cost_us"], received=received)  # fmt: skip


@dataclass(frozen=True)
class GameInfo:
    """The game as its hello describes it: its project's name, the engine's version,
    the car script's model and preset format (`""` and None when it does not say),
    physics ticks per second (Hz), its unit of length ("px" or "m"), every mapped
    parameter's value, the parameters its script lacks, where it sends from, and
    `number`: the how-manieth game linked since the link began to listen (a restarted
    game, or another one after the first said bye or fell silent, counts anew); the
    model's on/off options the node knows from the script's code (`switches`, empty when
    it does not say) and how many entries of its `switches` were left out as not such;
    `protocol`, the link's version its node speaks (docs/link.md); `project`, the folder of
    the game's project on the computer it runs on (its res://; "" when the hello does not
    say, as from a node made before it did, or from an exported game)."""

    game: str
    godot: str
    model: str
    format: int | None
    hz: float
    units: str
    params: dict[str, float | bool]
    missing: tuple[str, ...]
    address: tuple[str, int]
    number: int = 1
    switches: dict[str, bool] = field(default_factory=dict)
    switches_ignored: int = 0
    protocol: int = 1
    project: str = ""

    @classmethod
    def of(cls, message: dict, address: tuple[str, int]) -> "GameInfo":
        """From a decoded hello message, sent from `address`."""
        fields = {name: message[name] for name in ("game", "godot", "model", "format", "hz", "units")}
        switches, ignored = known_switches(message.get("switches"), message["model"])
        return cls(**fields, params=dict(message["params"]), missing=tuple(message["missing"]), address=address,
                   switches=switches, switches_ignored=ignored, protocol=int(message.get("v", 1)),
                   project=message.get("project") or "")  # fmt: skip

    @property
    def named(self) -> str:
        """`“My Game” (Godot 3.2.3) at 127.0.0.1:50123`, the game's texts as `from_game` shows them."""
        name = f"“{from_game(self.game)}”" if self.game else "a game without a name"
        return f"{name} (Godot {from_game(self.godot) or '?'}) at {self.address[0]}:{self.address[1]}"


def change_text(before: GameInfo | None, now: GameInfo) -> str:
    """What the user is told when `now` is linked after `before` (the game linked
    before it, None when there was none or it said bye)."""
    if before is None and now.number == 1:
        return f"Linked with {now.named}"
    if before is not None and before.address == now.address:
        return f"The game restarted (a new hello from the same address): linked with {now.named}"
    instead = f" in place of {before.named}" if before is not None else ""
    return f"The game changed: linked with {now.named}{instead}"


@dataclass(frozen=True)
class LinkStatus:
    """The link at one moment: whether it listens and where, its token, the game (None
    until a hello with the token arrived), accepted messages per second over the last
    second and in all, datagrams dropped by reason, ticks lost (gaps in the telemetry's
    tick numbers), the last ping's round trip (ms), the newest known game values, the
    refusals of the last ack that refused something, the newest set acknowledged, and
    why a recording under way ended before it was stopped (None: it goes on)."""

    listening: bool
    address: tuple[str, int]
    token: str
    game: GameInfo | None
    messages_per_second: float
    received: int
    dropped: dict[str, int]
    lost_ticks: int
    rtt_ms: float | None
    values: dict[str, float | bool]
    refused: dict[str, str]
    last_applied: int
    recording_ended: str | None = None


@dataclass(frozen=True)
class RecordingSummary:
    """A written recording: its rows (one per tick received), the seconds they span,
    the ticks lost on the way (left out, never filled in), its columns and its file;
    `backup`, where the recording it replaced is kept (None: there was none); `ended`,
    why it ended before it was stopped (a new hello: the game restarted or changed)."""

    rows: int
    seconds: float
    lost_ticks: int
    columns: tuple[str, ...]
    path: Path
    backup: Path | None = None
    ended: str | None = None
