"""The tuning that owns the model's values and announces each change (no Qt): who
subscribes hears each change once, with what changed from what to what; a batch is one
announcement; a value set to what it is, or refused, is none. The driven car follows
the announcements, not a comparison of every value every tick."""

import pytest

from sandbox.physics.models import arcade, bicycle
from sandbox.physics.sim import Simulation, step
from sandbox.physics.state import Controls
from sandbox.session.drive import DriveSession
from sandbox.session.sources import HeldControls
from sandbox.session.tuning import LiveTuning

THROTTLE = Controls(0.0, 1.0, 0.0)


def heard(tuning: LiveTuning) -> list:
    """The announcements `tuning` makes from now on."""
    changes: list = []
    tuning.changed.connect(changes.append)
    return changes


def test_a_change_is_announced_once_with_its_old_and_new_value():
    tuning = LiveTuning(arcade)
    changes = heard(tuning)
    tuning.set("engine_power", 1500)
    assert tuning["engine_power"] == 1500 and tuning.version == 1
    [change] = changes
    assert change.names == ("engine_power",)
    assert change.old == {"engine_power": 900} and change.new == {"engine_power": 1500}  # 900: the recipe's default
    assert not change.model and change.hz is None


def test_a_batch_is_one_announcement_naming_every_value_it_changed():
    tuning = LiveTuning(arcade)
    changes = heard(tuning)
    tuning.update({"engine_power": 1500, "drag": -0.2, "friction": -55})  # friction is -55 already
    [change] = changes
    assert set(change.names) == {"engine_power", "drag"}
    assert change.new == {"engine_power": 1500, "drag": -0.2}


def test_a_switch_announces_the_values_it_gave_another_meaning_with_it():
    tuning = LiveTuning(arcade)
    changes = heard(tuning)
    tuning.set("recipe_2020", True)
    [change] = changes
    # the 2020 recipe's friction and drag are per tick, with their own units and defaults
    assert {"recipe_2020", "friction", "drag"} <= set(change.names)
    assert change.new["friction"] == -0.9 and change.old["friction"] == -55


def test_the_same_value_again_announces_nothing():
    tuning = LiveTuning(arcade)
    changes = heard(tuning)
    assert tuning.set("engine_power", tuning["engine_power"]) is None
    assert tuning.update({}) is None and tuning.set_hz(tuning.hz) is None
    assert changes == [] and tuning.version == 0


def test_an_unsubscribed_callback_hears_nothing_more():
    tuning = LiveTuning(arcade)
    changes = heard(tuning)
    tuning.set("engine_power", 1000)
    tuning.changed.disconnect(changes.append)
    tuning.set("engine_power", 1100)
    assert len(changes) == 1 and tuning.version == 2


@pytest.mark.parametrize(
    "values, says",
    [
        ({"engine_power": 1500, "warp_drive": 3}, "the Arcade (Godot recipe) model has no parameter 'warp_drive'"),
        ({"drag": -0.2, "engine_power": 10**9}, "(engine_power): 1000000000 is outside the allowed range"),
        ({"engine_power": "fast"}, "(engine_power): 'fast' is not a number"),
        ({"rate_independent": 1}, "(rate_independent): 1 is not true or false"),
    ],
)
def test_a_bad_name_or_value_is_refused_by_name_and_nothing_changes(values, says):
    tuning = LiveTuning(arcade)
    before = dict(tuning)
    changes = heard(tuning)
    with pytest.raises(ValueError) as refused:
        tuning.update(values)
    assert says in str(refused.value)
    assert dict(tuning) == before and changes == [] and tuning.version == 0


def test_a_bad_tick_rate_is_refused_and_nothing_changes():
    tuning = LiveTuning(arcade, hz=60)
    changes = heard(tuning)
    for hz in (0, -60, 59.5, True, "60"):
        with pytest.raises(ValueError, match="tick rate must be a whole number"):
            tuning.update({"engine_power": 1500}, hz)
    assert tuning.hz == 60 and tuning["engine_power"] == 900 and changes == []


def test_the_values_are_not_written_from_outside():
    tuning = LiveTuning(arcade)
    declared = {p.name: p.default for p in arcade.PARAMS}  # read as a dict is read
    assert dict(tuning) == declared and list(tuning.values()) == list(declared.values())
    assert dict(tuning.items()) == declared and tuning.get("warp_drive", 1) == 1 and "drag" in tuning
    with pytest.raises(TypeError):
        tuning["engine_power"] = 1500  # only through set/update, which announce
    copy = tuning.copy()
    copy.set("engine_power", 1500)  # a copy is the caller's own
    assert tuning["engine_power"] == 900


def test_another_model_and_another_rate_are_announced_as_such():
    tuning = LiveTuning(arcade, hz=60)
    changes = heard(tuning)
    tuning.set_hz(120)
    with pytest.raises(ValueError, match="no parameter 'engine_power'"):
        tuning.switch(bicycle, {"engine_power": 900}, 30)  # the last model's name: nothing changes
    assert tuning.model is arcade and len(changes) == 1
    tuning.switch(bicycle, {"max_speed": 25.0}, 30)
    rate, model = changes
    assert rate.hz == (60, 120) and rate.names == () and not rate.model
    assert model.model and model.hz == (120, 30) and tuning.model is bicycle and tuning.hz == 30
    assert set(model.names) == {p.name for p in bicycle.PARAMS} and tuning["max_speed"] == 25.0


def test_a_value_changed_behind_the_simulations_back_is_not_noticed_until_it_is_told():
    """No tick compares the values: a dict patched in place drives on as before until
    `retune`; the twin, never patched, is the reference."""
    values = dict(LiveTuning(arcade))
    patched, twin = Simulation(arcade, values), Simulation(arcade, dict(values))
    patched.tick(THROTTLE), twin.tick(THROTTLE)
    values["engine_power"] = 200.0
    patched.tick(THROTTLE), twin.tick(THROTTLE)
    assert patched.state.vx[0] == twin.state.vx[0]  # not noticed
    before = patched.state
    patched.retune()
    after = patched.tick(THROTTLE)
    expected = step(arcade, before, THROTTLE, {**values, "engine_power": 200.0}, patched.dt)
    assert after.vx[0] == expected.vx[0] != twin.tick(THROTTLE).vx[0]


def test_the_car_drives_the_value_announced_from_its_next_tick():
    tuning = LiveTuning(arcade, hz=60)
    drive = DriveSession(arcade, tuning, 60, HeldControls(THROTTLE))
    drive.follow(tuning)
    drive.tick()
    before = drive.state
    tuning.set("engine_power", 2000)
    after = drive.tick()
    with_new = step(arcade, before, THROTTLE, {**tuning, "engine_power": 2000}, 1 / 60)
    with_old = step(arcade, before, THROTTLE, {**tuning, "engine_power": 900}, 1 / 60)
    assert after.vx[0] == with_new.vx[0] != with_old.vx[0]
    tuning.set_hz(120)
    assert drive.sim.hz == 120  # the rate too
    tuning.switch(bicycle)
    assert drive.sim.model is bicycle and drive.sim.ticks == 0  # another model drives from rest
