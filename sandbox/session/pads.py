"""Game controllers (pads and wheels) through SDL2, read without Qt: the window polls
`Pads.poll()` from a timer, once a frame, and hands the reading to a `PadSource`
(sources.py), which gives the car its controls tick by tick.

SDL is started for joysticks, game controllers and events only, never video (Qt owns the
windows), with SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS set first so a controller keeps
working while another window (the user's game) has the focus, and with SDL's signal
handlers off (Ctrl+C stays Python's). Devices are kept by SDL's instance id, which stays
the same for a device while it is plugged in: plugging one in or pulling one out while
driving only adds or drops it. A pad (a device SDL knows the layout of) is read through the
game-controller API with a `PadMap`; any other joystick, a wheel above all, through the
joystick API with a `WheelMap`. Axis values are read from the device's current state,
not from its events, so a device flooding motion events costs nothing more: those events
are dropped unread; button presses are read from events, so a tap between two polls counts.
Each axis passes Godot's dead zones (godot_input.py) as the user's game would, through
the per-axis shaping set in the Controls dialog (axis_shaping.py; by default Godot's alone).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

from ..physics.state import Controls
from .axis_shaping import Shaping
from .godot_input import DeadZones, clamped_axis
from .pad_maps import PadMap, WheelMap
from .sources import larger_controls

AXIS_SCALE = 32767.0
"""SDL's axis values are 16-bit (-32768..32767); a value over this is -1..1 (-32768 clamped)."""
EVENTS_PER_POLL = 4096
"""At most this many device and button events are handled a poll; more wait for the next."""
_CHUNK = 256
_DEVICE_EVENTS = (0x600, 0x6FF)
"""SDL's event types of joysticks and game controllers (SDL_events.h: SDL_JOYAXISMOTION = 0x600
up to the game controllers' last); every other event is SDL's own and dropped unread."""


def _load_sdl():
    """The `sdl2` module (PySDL2 over the SDL library of pysdl2-dll), or the reason it
    cannot be loaded."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pysdl2 says which SDL binary it found
            import sdl2
    except Exception as exc:  # noqa: BLE001 - no SDL library (an ImportError or a RuntimeError) must not stop the app
        return None, f"game controllers are off: the SDL library could not be loaded ({exc})"
    return sdl2, None


@dataclass
class Device:
    """One connected controller: SDL's instance id, its name, "pad" or "wheel", and its
    SDL handle (a game controller for a pad, a joystick for a wheel)."""

    instance_id: int
    name: str
    kind: str
    handle: object


@dataclass(frozen=True)
class DeviceReading:
    """One device at one poll: `raw` the device's values in the car's terms before the dead
    zones (steer -1..1, throttle, brake, clutch 0..1), `controls` what the car receives
    from it, `held` the button actions held down, `shaped` each axis of `raw` after the
    dead zones and shaping (the clutch too, which the car does not receive)."""

    instance_id: int
    name: str
    kind: str
    raw: dict
    controls: Controls
    held: frozenset
    shaped: dict = field(default_factory=dict)


@dataclass(frozen=True)
class PadsReading:
    """Every controller at one poll: each device's reading, the controls of them all (per
    control the largest), `pressed` each button action pressed since the last poll with
    its count, `shift` (+1 up, -1 down, 0) from those presses, what came and went, and the
    number of events handled."""

    devices: tuple = ()
    controls: Controls = field(default_factory=Controls)
    pressed: dict = field(default_factory=dict)
    shift: int = 0
    connected: tuple = ()
    disconnected: tuple = ()
    events: int = 0

    @property
    def status(self) -> str:
        """What is connected, for the status bar."""
        if not self.devices:
            return "no game controller"
        return "controllers: " + ", ".join(f"{d.name} ({d.kind})" for d in self.devices)


class Pads:
    """The game controllers. `error` says why there are none to read (no SDL library, SDL
    would not start); then `poll` reads nothing and never raises. `dead_zones`, `shaping`,
    `wheel_map` and `wheel_maps` (a wheel's own map by its name, over `wheel_map`) may be
    replaced at any time, the pad map through `use_pad_map`; each takes effect at the next
    poll."""

    def __init__(
        self, dead_zones: DeadZones | None = None, pad_map: PadMap | None = None, wheel_map: WheelMap | None = None
    ):
        self.dead_zones = dead_zones or DeadZones()
        self.pad_map = pad_map or PadMap()
        self.wheel_map = wheel_map or WheelMap()
        self.wheel_maps: dict[str, WheelMap] = {}
        self.shaping = Shaping()
        self.devices: dict[int, Device] = {}
        self.sdl, self.error = _load_sdl()
        self._events = None
        if self.sdl is None:
            return
        sdl = self.sdl
        sdl.SDL_SetHint(sdl.SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, b"1")
        sdl.SDL_SetHint(sdl.SDL_HINT_NO_SIGNAL_HANDLERS, b"1")
        flags = sdl.SDL_INIT_JOYSTICK | sdl.SDL_INIT_GAMECONTROLLER | sdl.SDL_INIT_EVENTS
        if sdl.SDL_InitSubSystem(flags) != 0:
            self.error = f"game controllers are off: SDL did not start ({sdl.SDL_GetError().decode(errors='replace')})"
            self.sdl = None
            return
        self._flags = flags
        self._events = (sdl.SDL_Event * _CHUNK)()
        self.use_pad_map(self.pad_map)

    def use_pad_map(self, pad_map: PadMap) -> None:
        """Reads pads through `pad_map` from the next poll. A name SDL does not know (a
        hand-edited map) maps nothing: that part of the pad reads as at rest."""
        self.pad_map = pad_map
        if self.sdl is None:
            return
        sdl = self.sdl
        self._axes = {
            name: sdl.SDL_GameControllerGetAxisFromString(name.encode())
            for name in (pad_map.steer, pad_map.throttle, pad_map.brake)
        }
        self._buttons = {
            action: tuple(
                b
                for name in names
                if (b := sdl.SDL_GameControllerGetButtonFromString(name.encode())) != sdl.SDL_CONTROLLER_BUTTON_INVALID
            )
            for action, names in pad_map.buttons.items()
        }

    def poll(self) -> PadsReading:
        """Drains SDL's events (devices added and removed, buttons pressed) and reads every
        device; never raises for what a device does."""
        if self.sdl is None:
            return PadsReading()
        sdl = self.sdl
        sdl.SDL_PumpEvents()
        for kind in (sdl.SDL_JOYAXISMOTION, sdl.SDL_JOYBALLMOTION, sdl.SDL_JOYHATMOTION, sdl.SDL_CONTROLLERAXISMOTION):
            sdl.SDL_FlushEvent(kind)  # axes are read from the state below
        sdl.SDL_FlushEvents(sdl.SDL_CONTROLLERSENSORUPDATE, sdl.SDL_CONTROLLERSENSORUPDATE)
        connected, disconnected, presses, handled = [], [], {}, 0
        while handled < EVENTS_PER_POLL:
            n = sdl.SDL_PeepEvents(self._events, _CHUNK, sdl.SDL_GETEVENT, *_DEVICE_EVENTS)
            if n <= 0:
                break
            handled += n
            for event in self._events[:n]:
                self._event(event, connected, disconnected, presses)
        sdl.SDL_FlushEvents(sdl.SDL_FIRSTEVENT, _DEVICE_EVENTS[0] - 1)  # nothing else of SDL's is read here
        sdl.SDL_FlushEvents(_DEVICE_EVENTS[1] + 1, sdl.SDL_LASTEVENT)
        return self._reading(presses, tuple(connected), tuple(disconnected), handled)

    def _event(self, event, connected: list, disconnected: list, presses: dict) -> None:
        sdl = self.sdl
        kind = event.type
        if kind == sdl.SDL_JOYDEVICEADDED:
            device = self._open(event.jdevice.which)
            if device is not None:
                connected.append(device.name)
        elif kind == sdl.SDL_JOYDEVICEREMOVED:
            device = self.devices.pop(event.jdevice.which, None)
            if device is not None:
                self._close(device)
                disconnected.append(device.name)
        elif kind in (sdl.SDL_CONTROLLERBUTTONDOWN, sdl.SDL_JOYBUTTONDOWN):
            which, button = (
                (event.cbutton.which, event.cbutton.button)
                if kind == sdl.SDL_CONTROLLERBUTTONDOWN
                else (event.jbutton.which, event.jbutton.button)
            )
            device = self.devices.get(which)
            if device is None or (device.kind == "pad") != (kind == sdl.SDL_CONTROLLERBUTTONDOWN):
                return  # a pad's button comes twice (joystick and controller): counted once
            for action in self._actions_of(device, button):
                presses[action] = presses.get(action, 0) + 1

    def _actions_of(self, device: Device, button: int) -> list:
        buttons = self._buttons if device.kind == "pad" else self.wheel_map_of(device.name).buttons
        return [action for action, ids in buttons.items() if button in ids]

    def wheel_map_of(self, name: str) -> WheelMap:
        """The axis map of the wheel named `name`: its own if set, else the default one."""
        return self.wheel_maps.get(name, self.wheel_map)

    def _open(self, index: int) -> Device | None:
        """The device at SDL's device index `index`, opened and kept; None when it is
        already kept or cannot be opened (gone again already)."""
        sdl = self.sdl
        instance = sdl.SDL_JoystickGetDeviceInstanceID(index)
        if instance < 0 or instance in self.devices:
            return None
        wheel = sdl.SDL_JoystickGetDeviceType(index) == sdl.SDL_JOYSTICK_TYPE_WHEEL
        if not wheel and sdl.SDL_IsGameController(index):
            handle = sdl.SDL_GameControllerOpen(index)
            kind, name = "pad", sdl.SDL_GameControllerName(handle) if handle else None
        else:
            handle = sdl.SDL_JoystickOpen(index)
            kind, name = "wheel", sdl.SDL_JoystickName(handle) if handle else None
        if not handle:
            return None
        device = Device(instance, (name or b"controller").decode(errors="replace"), kind, handle)
        self.devices[instance] = device
        return device

    def _close(self, device: Device) -> None:
        if device.kind == "pad":
            self.sdl.SDL_GameControllerClose(device.handle)
        else:
            self.sdl.SDL_JoystickClose(device.handle)

    def _reading(self, presses: dict, connected: tuple, disconnected: tuple, events: int) -> PadsReading:
        readings = tuple(self._read(device) for device in list(self.devices.values()))
        controls = Controls()
        for reading in readings:
            controls = larger_controls(controls, reading.controls)
        shift = max(-1, min(1, presses.get("shift_up", 0) - presses.get("shift_down", 0)))
        return PadsReading(readings, controls, presses, shift, connected, disconnected, events)

    def _read(self, device: Device) -> DeviceReading:
        sdl = self.sdl
        if device.kind == "pad":
            m = self.pad_map
            gc = device.handle

            def axis(name: str, low: float = -1.0) -> float:
                which = self._axes[name]
                if which == sdl.SDL_CONTROLLER_AXIS_INVALID:
                    return 0.0
                return clamped_axis(sdl.SDL_GameControllerGetAxis(gc, which) / AXIS_SCALE, low)

            steer = axis(m.steer)
            raw = {
                "steer": -steer if m.steer_inverted else steer,
                "throttle": axis(m.throttle, 0.0),
                "brake": axis(m.brake, 0.0),
                "clutch": 0.0,
            }
            held = {a for a, ids in self._buttons.items() if any(sdl.SDL_GameControllerGetButton(gc, b) for b in ids)}
        else:
            js = device.handle
            axes = [sdl.SDL_JoystickGetAxis(js, i) / AXIS_SCALE for i in range(max(0, sdl.SDL_JoystickNumAxes(js)))]
            wheel_map = self.wheel_map_of(device.name)
            raw = wheel_map.values(axes)
            count = sdl.SDL_JoystickNumButtons(js)
            held = {
                a
                for a, ids in wheel_map.buttons.items()
                if any(0 <= b < count and sdl.SDL_JoystickGetButton(js, b) for b in ids)
            }
        shaped = self.shaping.shaped(raw, self.dead_zones)
        controls = Controls(
            steer=shaped["steer"],
            throttle=shaped["throttle"],
            brake=shaped["brake"],
            handbrake=1.0 if "handbrake" in held else 0.0,
        )
        return DeviceReading(device.instance_id, device.name, device.kind, raw, controls, frozenset(held), shaped)

    def close(self) -> None:
        """Closes every device and stops SDL's controller subsystems (SDL counts starts,
        so another user of SDL in the process keeps its own)."""
        if self.sdl is None:
            return
        for device in self.devices.values():
            self._close(device)
        self.devices.clear()
        self.sdl.SDL_QuitSubSystem(self._flags)
        self.sdl = None
