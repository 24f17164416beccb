"""Menu shortcuts under a real X server while a value is typed: X11's key bindings give
a text box keys the offscreen platform does not (Ctrl+E: the end of the line), and
only real key events show which reach the menus. Every shortcut with Ctrl, Alt or Meta
runs its command in every model, but for a text box's own editing keys."""

from pathlib import Path

import pytest

from sandbox.physics.models import MODELS
from window_helpers import run_under_x11

DRIVE = Path(__file__).parent / "x11" / "shortcuts_while_typing.py"


@pytest.fixture(scope="module")
def seen() -> dict:
    return run_under_x11(DRIVE, timeout=600)


@pytest.mark.parametrize("model", list(MODELS))
def test_every_shortcut_runs_while_a_number_box_is_typed_in(seen, model):
    assert seen[model]["model"] == model
    assert seen[model]["missed"] == []
    assert "Ctrl+E" in seen[model]["ran"] and len(seen[model]["ran"]) > 15  # the files, edits, views, links and presets
