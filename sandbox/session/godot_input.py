"""How a Godot game turns a stick or a trigger into an action's strength, so a pad in the
sandbox feels as it does in the user's game. Pure functions, no device, no Qt.

Godot's rule, the same in Godot 3 and 4 (`InputEventJoypadMotion::action_match` in
core/os/input_event.cpp (3.x) and core/input/input_event.cpp (4.x)): an axis event bound
to an action in one direction counts only when the axis points that way and its
magnitude is at least the action's dead zone; its strength is then rescaled from the
dead zone to 1, `clamp(inverse_lerp(deadzone, 1, |value|), 0, 1)` (1 when the dead zone
is 1). `Input.get_axis(negative, positive)` is the positive action's strength minus the
negative one's. Godot holds a value, a dead zone and a strength as 32-bit floats, and so
does every step here: the strengths are the engine's bit for bit (tests/test_pads_godot_input.py
checks them against Godot 3 reading the same project.godot).

The dead zone of an action comes from the project's `project.godot` (`[input]`, each
action's `"deadzone"`); an action without one gets the engine's default, which
`InputMap::load_from_project_settings` (core/input_map.cpp in 3.x, core/input/input_map.cpp
in 4.x) takes as 0.5 in Godot 3 and Godot 4.0 to 4.3, and as `InputMap::DEFAULT_DEADZONE` =
0.2 from Godot 4.4 (Godot's pull request 97281, "Change the default deadzone value for new
actions from 0.5 to 0.2"; its built-in `ui_*` actions kept 0.5, pull request 103364).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import UserError, shown
from ..files.godot_project_input import ProjectInput, read_project_input

ANALOG_ACTIONS = ("steer_left", "steer_right", "accelerate", "brake")
"""The car's actions a stick, a trigger or a pedal drives (the sandbox's action names, as in
its exported scripts)."""

GODOT3_DEFAULT_DEADZONE = 0.5
"""An action's dead zone in Godot 3 when project.godot gives none (input_map.cpp, 3.x)."""
GODOT4_DEFAULT_DEADZONE = 0.2
"""... in Godot 4.4 and later (`InputMap::DEFAULT_DEADZONE`); 0.5 in 4.0 to 4.3."""

_F32 = np.float32
_ONE = _F32(1.0)
_ZERO = _F32(0.0)


class DeadZoneError(UserError):
    """A dead zone or an engine version that cannot be used."""


def default_dead_zone(engine: str) -> float:
    """Godot's dead zone for an action that names none, for the engine release `engine`
    ("3", "3.5", "4", "4.3", "4.4" …; "4" alone is the newest Godot 4)."""
    m = re.fullmatch(r"\s*(\d+)(?:\.(\d+))?(?:\.\d+)?\s*", str(engine))
    major = int(m.group(1)) if m else None
    if major == 3:
        return GODOT3_DEFAULT_DEADZONE
    if major == 4:
        minor = int(m.group(2)) if m.group(2) is not None else None
        return GODOT4_DEFAULT_DEADZONE if minor is None or minor >= 4 else GODOT3_DEFAULT_DEADZONE
    raise DeadZoneError(f"Godot version {shown(engine)}: the sandbox knows Godot 3 and Godot 4 (such as 3.5, 4.3, 4.4)")


def clamped_axis(value: float, low: float = -1.0) -> float:
    """A device's axis value as Godot can receive it: within [low, 1], 0 when not a
    finite number (a device that reports garbage never reaches the car)."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return 0.0
    if not math.isfinite(value):
        return 0.0
    return min(1.0, max(low, value))


def action_strength(value: float, deadzone: float, positive: bool = True) -> float:
    """The strength (0..1) Godot gives an action bound to an axis in one direction
    (`positive`: the axis's plus side) when the axis reads `value` (-1..1) and the
    action's dead zone is `deadzone` (0..1): 0 inside the dead zone or the other way,
    else rescaled from the dead zone to 1. Computed in 32-bit floats, as the engine."""
    v = _F32(clamped_axis(value))
    dz = _F32(deadzone)
    magnitude = abs(v)
    same_direction = v == 0 or (v < 0) != positive
    if not same_direction or magnitude < dz:
        return 0.0
    if dz == _ONE:
        return 1.0
    strength = (magnitude - dz) / (_ONE - dz)  # Math::inverse_lerp(dz, 1, |v|), in floats
    return float(min(_ONE, max(_ZERO, _F32(strength))))


def get_axis(value: float, negative_deadzone: float, positive_deadzone: float) -> float:
    """`Input.get_axis(negative, positive)` for one axis bound to both actions: the
    positive action's strength minus the negative one's (-1..1)."""
    positive = _F32(action_strength(value, positive_deadzone, True))
    negative = _F32(action_strength(value, negative_deadzone, False))
    return float(positive - negative)


def checked_dead_zone(action: str, value: object, where: str = "") -> float:
    """`value` as a dead zone for `action`: a number within 0..1; a number outside is
    clamped into it; anything else is refused (DeadZoneError naming the action)."""
    prefix = f"{where}: " if where else ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DeadZoneError(f"{prefix}action {shown(action)}: dead zone {shown(value)} is not a number (0 to 1)")
    if not math.isfinite(value):
        raise DeadZoneError(f"{prefix}action {shown(action)}: dead zone {shown(value)} is not a finite number (0 to 1)")
    return min(1.0, max(0.0, float(value)))


@dataclass(frozen=True)
class DeadZones:
    """Each analog action's dead zone (0..1), and the engine default for the others;
    `notes` says what was clamped or defaulted when read from a project."""

    default: float = GODOT3_DEFAULT_DEADZONE
    actions: dict = field(default_factory=dict)
    notes: tuple = ()

    def of(self, action: str) -> float:
        """The dead zone of `action`."""
        return self.actions.get(action, self.default)

    def steer(self, stick_x: float) -> float:
        """The steer a stick at `stick_x` (-1 left .. 1 right) gives the car:
        get_axis("steer_left", "steer_right")."""
        return get_axis(stick_x, self.of("steer_left"), self.of("steer_right"))

    def pedal(self, action: str, value: float) -> float:
        """The strength of `action` ("accelerate" or "brake") for a trigger or pedal at
        `value` (0 released .. 1 pressed)."""
        return action_strength(value, self.of(action), True)


def dead_zones_for(engine: str, found: dict | None = None, where: str = "") -> DeadZones:
    """The dead zones a game on Godot `engine` uses, with `found` (action → dead zone,
    as read from its project.godot; None where an action names none) over the engine's
    default. A value outside 0..1 is clamped and said in `notes`; one that is not a
    number is left out (the default is used) and said too: never an exception for a
    user's file."""
    default = default_dead_zone(engine)
    actions, notes = {}, []
    for action, raw in (found or {}).items():
        if raw is None:
            continue
        try:
            value = checked_dead_zone(action, raw, where)
        except DeadZoneError as exc:
            notes.append(f"{exc}; Godot's default {default:g} is used")
            continue
        if value != raw:
            notes.append(
                f"{where + ': ' if where else ''}action {shown(action)}: dead zone {shown(raw)} "
                f"is outside 0 to 1; {value:g} is used"
            )
        actions[action] = value
    return DeadZones(default, actions, tuple(notes))


def project_dead_zones(path, engine: str | None = None) -> DeadZones:
    """The dead zones of the game whose project.godot is at `path` (the file or its
    folder), for Godot `engine` (default: the release the file says, else Godot 3);
    what was odd in the file is in `notes`. ProjectInputError when the file cannot be read."""
    project = read_project_input(path)
    return project_zones(project, engine or project.engine or "3")


def project_zones(project: ProjectInput, engine: str) -> DeadZones:
    """The dead zones of a project.godot as read (`project`), over Godot `engine`'s
    default; the file's notes first, then what was odd in its values."""
    zones = dead_zones_for(engine, project.dead_zones, project.source)
    return DeadZones(zones.default, zones.actions, project.notes + zones.notes)
