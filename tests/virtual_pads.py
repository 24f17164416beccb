"""Virtual game controllers for the tests, attached through the same SDL library the
sandbox polls, and Godot's dead-zone formula written out independently of the sandbox."""

import ctypes


def godot_axis(raw: int, left_dz: float, right_dz: float) -> float:
    """Godot's get_axis for a 16-bit stick value, written out: the value over 32767 (at
    most 1 either way); past an action's dead zone, the rest of the way rescaled to 1."""
    v = max(-1.0, min(1.0, raw / 32767))
    dz = right_dz if v > 0 else left_dz
    if abs(v) < dz or v == 0:
        return 0.0
    return (1 if v > 0 else -1) * (abs(v) - dz) / (1 - dz)


class Virtual:
    """A virtual device in SDL, held open to move its axes and buttons."""

    def __init__(self, sdl, wheel: bool = False, name: bytes = b"Test Wheel"):
        self.sdl = sdl
        if wheel:
            desc = sdl.SDL_VirtualJoystickDesc()
            desc.version = sdl.SDL_VIRTUAL_JOYSTICK_DESC_VERSION
            desc.type = sdl.SDL_JOYSTICK_TYPE_WHEEL
            desc.naxes, desc.nbuttons, desc.name = 4, 8, name
            index = sdl.SDL_JoystickAttachVirtualEx(ctypes.byref(desc))
        else:
            index = sdl.SDL_JoystickAttachVirtual(sdl.SDL_JOYSTICK_TYPE_GAMECONTROLLER, 6, 15, 0)
        assert index >= 0, sdl.SDL_GetError()
        self.instance = sdl.SDL_JoystickGetDeviceInstanceID(index)
        self.js = sdl.SDL_JoystickOpen(index)

    def axis(self, axis: int, value: int) -> None:
        assert self.sdl.SDL_JoystickSetVirtualAxis(self.js, axis, value) == 0

    def button(self, button: int, down: bool) -> None:
        assert self.sdl.SDL_JoystickSetVirtualButton(self.js, button, int(down)) == 0

    def detach(self) -> None:
        sdl = self.sdl
        sdl.SDL_JoystickClose(self.js)
        index = next(
            i for i in range(sdl.SDL_NumJoysticks()) if sdl.SDL_JoystickGetDeviceInstanceID(i) == self.instance
        )
        assert sdl.SDL_JoystickDetachVirtual(index) == 0
