"""`car-sandbox soak` loads each minute's preset over the sliders it moved without
asking: the unsaved-work question would wait offscreen for ever (the run hung after
its first minute). conftest's guard fails a test that leaves a question open."""

import random

from sandbox.devtools import soak
from sandbox.files.presets import load_preset


def test_a_minute_loads_another_models_preset_over_moved_sliders_without_asking(window):
    rng = random.Random(1)
    for _ in range(5):
        soak._move_a_slider(window, rng)
    assert window.modified()  # the case that asked: a model switch would lose these
    presets = soak.builtin_presets()
    minute = next(i for i, path in enumerate(presets) if load_preset(path).model is not window.model)
    expected = load_preset(presets[minute])
    soak.load_minute_preset(window, presets, minute)
    assert window.model is expected.model and window.preset.name == expected.name
    assert dict(window.tuning) == dict(expected.tuning) and window.sim.hz == expected.hz
    assert not window.modified()


def test_a_minute_of_the_same_model_loads_its_preset_as_an_undo_step(window):
    presets = soak.builtin_presets()
    here = [i for i, path in enumerate(presets) if load_preset(path).model is window.model]
    minute = next(i for i in here if load_preset(presets[i]).name != window.preset.name)
    soak._move_a_slider(window, random.Random(2))
    steps = window.undo.count()
    soak.load_minute_preset(window, presets, minute)
    assert window.preset.name == load_preset(presets[minute]).name and not window.modified()
    assert window.undo.count() == steps + 1
