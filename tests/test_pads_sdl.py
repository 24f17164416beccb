"""Game controllers through the real SDL path: virtual devices attached through the same
SDL library the sandbox polls (SDL_JoystickAttachVirtual for a pad, ...AttachVirtualEx
with the wheel type for a wheel), headless (SDL_VIDEODRIVER=dummy), polled by `Pads`
and driven into a car through `PadSource`: the stick in, the car's steer out, checked
against Godot's dead-zone formula written out here; hot-plug while driving; two pads at
once; a flood of events. No mock of the polling code, no Qt."""

import os
import sys
import time

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"  # headless: the sandbox itself never touches it

from sandbox.files.presets import BUILTIN_DIR, load_preset  # noqa: E402
from sandbox.physics.state import Controls  # noqa: E402
from sandbox.session.drive import DriveSession  # noqa: E402
from sandbox.session.godot_input import DeadZones  # noqa: E402
from sandbox.session.pad_maps import AxisBinding, PadMap, WheelMap  # noqa: E402
from sandbox.session.pads import EVENTS_PER_POLL, Pads  # noqa: E402
from sandbox.session.sources import HeldControls, PadSource, TraceSource  # noqa: E402
from virtual_pads import Virtual, godot_axis  # noqa: E402

DEADLINE_S = 10.0


@pytest.fixture
def pads():
    """Pads over SDL with Godot 3's dead zones but for the steer (0.1 left, 0.35 right);
    every virtual device left is detached after the test."""
    p = Pads(DeadZones(0.5, {"steer_left": 0.1, "steer_right": 0.35, "accelerate": 0.25}))
    assert p.error is None, p.error
    sdl = p.sdl
    yield p
    while sdl.SDL_NumJoysticks() > 0:
        if sdl.SDL_JoystickIsVirtual(0):
            sdl.SDL_JoystickDetachVirtual(0)
        else:
            break
    p.close()


def poll_until(pads, wanted, what: str):
    """Polls until `wanted(reading)`; the last reading, or a failure naming `what`."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        reading = pads.poll()
        if wanted(reading):
            return reading
        if time.monotonic() > deadline:
            pytest.fail(f"no poll saw {what}; the last: {reading}")


def car_session(source) -> DriveSession:
    p = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    return DriveSession(p.model, p.tuning.copy(), p.hz, source)


def test_the_stick_moved_is_the_steer_the_car_gets_on_the_next_tick(pads):
    pad = Virtual(pads.sdl)
    poll_until(pads, lambda r: len(r.devices) == 1, "the pad plugged in")
    source = PadSource()
    drive = car_session(source)
    for raw in (-32768, -30000, -16000, -3300, -3000, 0, 3000, 11000, 11500, 20000, 32767):
        pad.axis(0, raw)
        reading = poll_until(pads, lambda r, raw=raw: r.devices[0].raw["steer"] == max(-1, raw / 32767), "the stick")
        source.update(reading)
        drive.tick()
        assert drive.controls.steer == pytest.approx(godot_axis(raw, 0.1, 0.35), abs=1e-6), raw
        if abs(raw) < 0.1 * 32767 or 0 < raw < 0.35 * 32767:
            assert drive.controls.steer == 0.0  # inside the dead zone: exactly nothing
    assert -1.0 <= drive.controls.steer <= 1.0


def test_triggers_are_the_pedals_and_buttons_the_handbrake_and_shifts(pads):
    pad = Virtual(pads.sdl)
    poll_until(pads, lambda r: len(r.devices) == 1, "the pad plugged in")
    pad.axis(5, 32767)  # right trigger: the throttle, full
    pad.axis(4, 16384)  # left trigger 3/4 in (-32768 released): the brake (Godot 3's default dead zone, 0.5)
    pad.button(0, True)  # A: the handbrake
    pad.button(10, True)  # right shoulder: shift up
    reading = poll_until(pads, lambda r: r.devices[0].raw["throttle"] == 1.0, "the trigger")
    c = reading.controls
    assert (c.throttle, c.handbrake) == (1.0, 1.0)
    trigger = pads.sdl.SDL_GameControllerGetAxis(
        pads.sdl.SDL_GameControllerFromInstanceID(pad.instance), pads.sdl.SDL_CONTROLLER_AXIS_TRIGGERLEFT
    )  # SDL's game-controller value of the trigger (0..32767)
    assert 0.7 < trigger / 32767 < 0.8 and c.brake == pytest.approx((trigger / 32767 - 0.5) / 0.5, abs=1e-6)
    assert reading.pressed == {"handbrake": 1, "shift_up": 1} and reading.shift == 1
    assert reading.devices[0].held == {"handbrake", "shift_up"}
    source = PadSource(HeldControls(Controls(throttle=0.2)))
    source.update(reading)
    ticks = [source.controls_for_tick(i) for i in range(3)]
    assert [t.shift for t in ticks] == [1.0, 0.0, 0.0]  # one press, one shift
    again = pads.poll()
    assert again.pressed == {} and again.shift == 0  # held, not pressed again
    pad.button(10, False)
    pad.button(11, True)  # D-pad up: shift up too
    pad.button(3, True)  # Y: reset
    pad.button(4, True)  # back: record
    reading = poll_until(pads, lambda r: "reset" in r.pressed, "the reset button")
    assert reading.pressed == {"shift_up": 1, "reset": 1, "record": 1}


def test_plugging_and_pulling_pads_while_driving_never_stops_the_car(pads):
    source = PadSource()
    drive = car_session(source)
    source.update(pads.poll())
    drive.tick()
    pad = Virtual(pads.sdl)
    reading = poll_until(pads, lambda r: len(r.devices) == 1, "the pad plugged in")
    assert reading.connected == ("Virtual Controller",) and "Virtual Controller (pad)" in reading.status
    pad.axis(0, 32767)
    source.update(poll_until(pads, lambda r: r.controls.steer == 1.0, "full right"))
    drive.tick()
    assert drive.controls.steer == 1.0
    first = pad.instance
    pad.detach()  # pulled out with the stick held right
    reading = poll_until(pads, lambda r: not r.devices, "the pad gone")
    assert reading.disconnected == ("Virtual Controller",) and reading.status == "no game controller"
    source.update(reading)
    drive.tick()
    assert drive.controls.steer == 0.0  # let go, not stuck at full lock
    again = Virtual(pads.sdl)
    reading = poll_until(pads, lambda r: len(r.devices) == 1, "the pad back")
    assert again.instance != first and reading.devices[0].instance_id == again.instance
    assert drive.sim.ticks == 3


def test_two_pads_at_once_each_kept_and_the_larger_input_wins(pads):
    one, two = Virtual(pads.sdl), Virtual(pads.sdl)
    poll_until(pads, lambda r: len(r.devices) == 2, "two pads")
    one.axis(0, -32767)
    two.axis(0, 16000)
    two.axis(5, 32767)
    reading = poll_until(pads, lambda r: r.controls.throttle == 1.0, "the second pad's trigger")
    by_id = {d.instance_id: d for d in reading.devices}
    assert by_id[one.instance].controls.steer == -1.0
    assert by_id[two.instance].controls.steer == pytest.approx(godot_axis(16000, 0.1, 0.35), abs=1e-6)
    assert reading.controls.steer == -1.0 and reading.controls.throttle == 1.0
    one.detach()
    reading = poll_until(pads, lambda r: len(r.devices) == 1, "one pad left")
    assert reading.devices[0].instance_id == two.instance
    assert reading.controls.steer == pytest.approx(godot_axis(16000, 0.1, 0.35), abs=1e-6)


def test_a_flood_of_events_is_drained_and_the_latest_value_read(pads):
    pad = Virtual(pads.sdl)
    poll_until(pads, lambda r: len(r.devices) == 1, "the pad plugged in")
    sdl = pads.sdl
    for i in range(20000):
        pad.axis(0, 1000 + i % 2000)
        sdl.SDL_JoystickUpdate()  # each move becomes events in SDL's queue
    for i in range(3 * EVENTS_PER_POLL):
        pad.button(9, i % 2 == 0)  # left shoulder, tapped over and over
        sdl.SDL_JoystickUpdate()
    pad.axis(0, -32767)
    reading = pads.poll()
    assert reading.controls.steer == -1.0  # the stick where it is now
    assert reading.events <= EVENTS_PER_POLL
    total = reading.pressed.get("shift_down", 0)
    while (reading := pads.poll()).events:
        total += reading.pressed.get("shift_down", 0)
    assert total > 0 and reading.controls.steer == -1.0


def test_a_wheel_is_read_through_its_axis_map(pads):
    wheel = Virtual(pads.sdl, wheel=True)
    reading = poll_until(pads, lambda r: len(r.devices) == 1, "the wheel plugged in")
    assert reading.devices[0].kind == "wheel" and reading.devices[0].name == "Test Wheel"
    wheel.axis(0, 32767)  # the wheel full right
    wheel.axis(1, 32767)  # throttle pedal fully pressed (-1 released .. 1 pressed)
    wheel.axis(2, -32768)  # brake released
    wheel.button(5, True)  # right paddle: shift up
    reading = poll_until(pads, lambda r: r.devices[0].raw["steer"] == 1.0, "the wheel turned")
    assert reading.devices[0].raw == {"steer": 1.0, "throttle": 1.0, "brake": 0.0, "clutch": 0.5}
    assert (reading.controls.steer, reading.controls.throttle, reading.controls.brake) == (1.0, 1.0, 0.0)
    assert reading.shift == 1
    pads.wheel_map = WheelMap(steer=AxisBinding(0, inverted=True), throttle=AxisBinding(1), combined_pedals=True)
    wheel.axis(1, -32767)  # combined: the minus side is the brake
    reading = poll_until(pads, lambda r: r.devices[0].raw["brake"] == 1.0, "the combined brake")
    assert (reading.controls.steer, reading.controls.throttle, reading.controls.brake) == (-1.0, 0.0, 1.0)
    pads.wheel_map = WheelMap(steer=AxisBinding(9), throttle=AxisBinding(12), brake=None, clutch=None)
    reading = pads.poll()  # axes the wheel has not: at rest, nothing raised
    assert reading.devices[0].raw == {"steer": 0.0, "throttle": 0.0, "brake": 0.0, "clutch": 0.0}


def test_without_the_sdl_library_controllers_are_off_with_the_reason(monkeypatch):
    monkeypatch.setitem(sys.modules, "sdl2", None)  # as if PySDL2 or its library were missing
    pads = Pads()
    assert "game controllers are off" in pads.error
    assert pads.poll().devices == () and pads.poll().status == "no game controller"
    pads.close()


def test_a_pad_remapped_or_hand_broken_reads_what_it_names_and_rest_for_the_rest(pads):
    pad = Virtual(pads.sdl)
    poll_until(pads, lambda r: len(r.devices) == 1, "the pad plugged in")
    pad.axis(0, 32767)  # left stick right
    pad.axis(2, -32767)  # right stick left
    pads.use_pad_map(PadMap(steer="rightx", steer_inverted=True))
    reading = poll_until(pads, lambda r: r.devices[0].raw["steer"] == 1.0, "the right stick, inverted")
    assert reading.controls.steer == 1.0
    pads.use_pad_map(PadMap(steer="noaxis", throttle="", brake="lefttrigger", buttons={"handbrake": ("nobutton",)}))
    pad.button(0, True)
    reading = pads.poll()
    assert reading.devices[0].raw["steer"] == 0.0 and reading.devices[0].raw["throttle"] == 0.0
    assert reading.controls.handbrake == 0.0 and reading.pressed == {}


def test_a_drive_made_with_a_pad_replays_bit_for_bit_from_its_recording(pads):
    pad = Virtual(pads.sdl)
    poll_until(pads, lambda r: len(r.devices) == 1, "the pad plugged in")
    source = PadSource()
    drive = car_session(source)
    drive.start_recording()
    for i in range(120):
        pad.axis(0, (i * 997) % 65535 - 32768)  # the stick swept back and forth
        pad.axis(5, (i * 331) % 65535 - 32768)  # the throttle trigger too
        source.update(pads.poll())
        drive.tick()
    rows = drive.stop_recording()
    driven = drive.state.data.copy()
    assert len({row[0] for row in rows}) > 50  # partial steers, not all or nothing
    replay = car_session(TraceSource(rows, "pad drive"))
    for _ in range(len(rows)):
        replay.tick()
    assert (replay.state.data == driven).all()
