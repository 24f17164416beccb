"""What the link knows about the game, as plain frozen records the window and the
`link` command read: the game itself (from its hello), one physics tick of its car
(telemetry), the link's state, and a written recording."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..files.recording_header import known_switches
from .protocol import CONTROLS


@dataclass(frozen=True)
class Telemetry:
    """The game's car after physics tick `tick` (t = tick / hz, s): pose in the model's
    units (px or m) and rad, velocity in units/s, the controls it read in that tick
    (steer, throttle, brake, handbrake, shift), its state variables by name, the seq of
    the last set applied, what the node cost the game (µs), and `received`, the
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
        return cls(**pose, controls=controls, state=dict(message["state"]), applied=message["applied"],
                   cost_us=message["cost_us"], received=received)  # fmt: skip


@dataclass(frozen=True)
class GameInfo:
    """The game as its hello describes it: its project's name, the engine's version,
    the car script's model and preset format (`""` and None when it does not say),
    physics ticks per second (Hz), its unit of length ("px" or "m"), every mapped
    parameter's value, the parameters its script lacks, and where it sends from; the
    model's on/off options the node knows from the script's code (`switches`, empty when
    it does not say) and how many entries of its `switches` were left out as not such."""

    game: str
    godot: str
    model: str
    format: int | None
    hz: float
    units: str
    params: dict[str, float | bool]
    missing: tuple[str, ...]
    address: tuple[str, int]
    switches: dict[str, bool] = field(default_factory=dict)
    switches_ignored: int = 0

    @classmethod
    def of(cls, message: dict, address: tuple[str, int]) -> "GameInfo":
        """From a decoded hello message, sent from `address`."""
        fields = {name: message[name] for name in ("game", "godot", "model", "format", "hz", "units")}
        switches, ignored = known_switches(message.get("switches"), message["model"])
        return cls(**fields, params=dict(message["params"]), missing=tuple(message["missing"]), address=address,
                   switches=switches, switches_ignored=ignored)  # fmt: skip


@dataclass(frozen=True)
class LinkStatus:
    """The link at one moment: whether it listens and where, its token, the game (None
    until a hello with the token arrived), accepted messages per second over the last
    second and in all, datagrams dropped by reason, ticks lost (gaps in the telemetry's
    tick numbers), the last ping's round trip (ms), the newest known game values, the
    refusals of the last ack that refused something, and the newest set acknowledged."""

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


@dataclass(frozen=True)
class RecordingSummary:
    """A written recording: its rows (one per tick received), the seconds they span,
    the ticks lost on the way (left out, never filled in), its columns and its file."""

    rows: int
    seconds: float
    lost_ticks: int
    columns: tuple[str, ...]
    path: Path
