"""A held key under a real X server: X11 auto-repeat sends release/press pairs, and
only real key events show how the window takes them (offscreen Qt has no
auto-repeat). The README promises a held key stays one steady press."""

from pathlib import Path

import pytest

from window_helpers import run_under_x11

DRIVE = Path(__file__).parent / "x11" / "held_key_drive.py"


@pytest.fixture(scope="module")
def seen() -> dict:
    return run_under_x11(DRIVE, timeout=300)


def test_a_held_key_steers_every_tick_while_a_slider_is_dragged(seen):
    assert seen["xdotool"] == 0
    assert seen["held_ticks"] > 60  # about 2.8 s at 60 Hz: the drive really happened
    assert seen["dropped_ticks"] == 0


def test_auto_repeat_reaches_the_window_as_one_press_and_one_release(seen):
    # the server's repeats come as presses alone: only the real release arrives
    assert seen["a_releases"] == 1


def test_tab_held_toggles_the_panels_once(seen):
    assert seen["tab_toggles"] == 1
