"""The track (the world) in the window: the Track menu opens a built-in track and its
walls are drawn where the track's own coordinates put them through the view's
transform; the car starts at its spawn; a bad file keeps the track shown and says
why; recent tracks and the last track survive a restart; View → Zoom to track puts
the whole track in view."""

import json
import math
import shutil
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from sandbox.files.tracks import find_builtin_track, open_track
from sandbox.physics.models import MODELS
from sandbox.physics.state import Controls
from sandbox.physics.track import Surface
from sandbox.ui.app import MainWindow
from sandbox.ui.track_painter import CONE, CONE_KNOCKED, WALL
from sandbox.ui.world_layer import contact_note, world_note


def picture(view) -> np.ndarray:
    """The car view as drawn: (rows, columns, rgb) in device pixels."""
    image = view.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)


def wall_points(track, unit: str):
    """The middle of every wall segment of `track` in `unit`: where a wall line must be."""
    for line in track.in_unit(unit).polylines:
        points = line.points
        for a, b in zip(points[:-1], points[1:]):
            yield (a + b) / 2


def visible_wall_points(window, track) -> list[tuple[int, int]]:
    """Device pixels of wall middles in the view, clear of its edges, its text, the car
    and the cross drawn over the world's origin."""
    view = window.track
    ratio = view.devicePixelRatioF()
    car = view.to_screen(float(window.sim.state.x[0]), float(window.sim.state.y[0]))
    reach = max(view.body["length"], view.body["width"]) * view.scale + 20
    origin = view.to_screen(0.0, 0.0)
    spots = []
    for x, y in wall_points(track, window.model.LENGTH_UNIT):
        sx, sy = view.to_screen(x, y)
        if not (10 <= sx <= view.width() - 10 and 10 <= sy <= view.height() - 10):
            continue
        if math.hypot(sx - car[0], sy - car[1]) < reach or math.hypot(sx - origin[0], sy - origin[1]) < 26:
            continue
        if any(box.adjusted(-6, -6, 6, 6).contains(QPointF(sx, sy)) for _, box in view.text_boxes):
            continue
        spots.append((round(sy * ratio), round(sx * ratio)))
    return spots


def wall_drawn_at(image: np.ndarray, row: int, column: int) -> bool:
    """A pixel of the wall's colour within 2 px of (row, column)."""
    return colour_near(image, row, column, WALL)


def colour_near(image: np.ndarray, row: int, column: int, colour: str) -> bool:
    """A pixel of `colour` within 2 px of (row, column)."""
    rgb = np.array(QColor(colour).getRgb()[:3])
    patch = image[row - 2 : row + 3, column - 2 : column + 3].reshape(-1, 3)
    return bool((np.abs(patch - rgb).max(axis=1) <= 24).any())


def builtin_action(window, text: str):
    return next(a for a in window.builtin_tracks_menu.actions() if a.text() == text)


def test_opening_a_built_in_track_from_the_menu_draws_its_walls_and_starts_the_car_at_its_spawn(window, qtbot):
    view = window.track
    view.set_zoom(0.4)
    parking = open_track(find_builtin_track("parking_lot"))
    before = picture(view)
    spots = visible_wall_points(window, parking)
    assert not [spot for spot in spots if wall_drawn_at(before, *spot)]  # the open field: no walls

    builtin_action(window, "Parking lot").trigger()
    QApplication.processEvents()
    # the car where the recipe demo starts it (docs/tracks.md): (563, 512) px, heading +x
    state = window.sim.state
    assert (float(state.x[0]), float(state.y[0]), float(state.heading[0])) == pytest.approx((563, 512, 0))
    assert window.world_track.name == parking.name
    image = picture(view)
    spots = visible_wall_points(window, parking)
    assert len(spots) >= 5
    missing = [spot for spot in spots if not wall_drawn_at(image, *spot)]
    assert not missing, f"{len(missing)} of {len(spots)} wall points not drawn, e.g. {missing[:3]}"
    assert contact_note(window.model, window.tuning) == "walls met as in Godot 4"  # the arcade meets walls
    assert contact_note(window.model, window.tuning) in window.statusBar().currentMessage()


def test_the_walls_follow_the_camera_as_the_car_moves(window, qtbot):
    builtin_action(window, "Parking lot").trigger()
    window.track.set_zoom(0.2)
    window.scripted_drive(1.5)  # the car drives off (through the walls: no contact yet)
    QApplication.processEvents()
    assert math.hypot(float(window.sim.state.x[0]) - 563, float(window.sim.state.y[0]) - 512) > 200
    parking = window.world_track
    image = picture(window.track)
    spots = visible_wall_points(window, parking)
    assert len(spots) >= 5
    assert all(wall_drawn_at(image, *spot) for spot in spots)


def test_a_metric_model_draws_a_track_in_metres_at_the_windows_scale_and_starts_at_its_spawn(window, qtbot):
    assert window.switch_model("bicycle")
    builtin_action(window, "Club circuit").trigger()
    circuit = open_track(find_builtin_track("club_circuit"))
    state = window.sim.state
    spawn = circuit.spawn  # the file is in metres, as the bicycle
    assert (float(state.x[0]), float(state.y[0]), float(state.heading[0])) == pytest.approx(
        (spawn.x, spawn.y, spawn.heading)
    )
    window.track.set_zoom(0.2)
    QApplication.processEvents()
    image = picture(window.track)
    spots = visible_wall_points(window, circuit)
    assert len(spots) >= 5
    assert all(wall_drawn_at(image, *spot) for spot in spots)


def test_reset_puts_the_car_back_at_the_spawn_and_open_field_at_the_origin(window, qtbot):
    builtin_action(window, "Parking lot").trigger()
    window.scripted_drive(2.0)
    assert float(window.sim.state.x[0]) != pytest.approx(563)
    window.drive_view.reset_car()
    assert float(window.sim.state.x[0]) == pytest.approx(563)
    window.open_field_action.trigger()
    assert window.world_track is None and window.open_field_action.isChecked()
    assert (float(window.sim.state.x[0]), float(window.sim.state.y[0])) == (0.0, 0.0)


def test_cones_knocked_are_counted_drawn_knocked_and_stood_up_by_a_reset(window, qtbot):
    """The arcade car driven straight into the slalom's first cone (1250 px from its
    spawn at 25 px/m): the status bar counts it (with a tooltip), the cone is drawn in
    the knocked colour where it stands, and Reset car stands it up again."""
    assert window.switch_model("arcade")
    builtin_action(window, "Slalom").trigger()
    view = window.track
    view.set_zoom(1.0)
    slalom = window.world_track.in_unit(window.model.LENGTH_UNIT)
    first = slalom.cones[0]
    window.sim.state.x[0] = first.x - 300.0  # on its way to the first cone, heading +x
    window.drive_view.refresh()
    assert window.cones.isVisible() and window.cones.text() == "cones knocked: 0 of 8"
    assert "Reset car" in window.cones.toolTip()

    for _ in range(1200):  # tick by tick until the car's shape reaches the cone
        window.sim.tick(Controls(throttle=1.0))
        if window.sim.state.get("cones_hit")[0]:
            break
    assert window.sim.state.get("cones_hit")[0] == 1, float(window.sim.state.x[0])
    window.drive_view.refresh()
    assert window.cones.text() == "cones knocked: 1 of 8"
    QApplication.processEvents()
    assert view.world.knocked == {0}
    window.sim.state.x[0] = first.x + 200.0  # past it: the cone is in view, not under the car
    window.drive_view.refresh()
    QApplication.processEvents()
    ratio = view.devicePixelRatioF()
    sx, sy = view.to_screen(first.x, first.y)
    spot = (round(sy * ratio), round(sx * ratio))
    assert colour_near(picture(view), *spot, CONE_KNOCKED)

    window.drive_view.reset_car()
    window.drive_view.refresh()
    QApplication.processEvents()
    assert window.cones.text() == "cones knocked: 0 of 8" and view.world.knocked == set()
    window.sim.state.x[0] = first.x + 200.0  # the car away from the cone, nothing moved
    window.drive_view.refresh()
    QApplication.processEvents()
    sx, sy = view.to_screen(first.x, first.y)
    spot = (round(sy * ratio), round(sx * ratio))
    assert colour_near(picture(view), *spot, CONE) and not colour_near(picture(view), *spot, CONE_KNOCKED)
    window.open_field_action.trigger()
    window.drive_view.refresh()
    assert not window.cones.isVisible()


def test_the_tracks_message_says_whether_the_cars_grip_follows_its_surfaces():
    slalom = open_track(find_builtin_track("slalom"))
    mud = Surface(np.array([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]), 0.5)
    muddy = replace(slalom, surfaces=(mud,))

    def defaults(name):
        return {p.name: p.default for p in MODELS[name].PARAMS}

    for name in ("monster", "rigid_body"):
        note = contact_note(MODELS[name], defaults(name))
        assert world_note(MODELS[name], defaults(name), muddy) == f"{note}; surfaces scale its tyre grip"
    for name in ("arcade", "bicycle", "ackermann"):
        assert "surfaces leave it as it is" in world_note(MODELS[name], defaults(name), muddy)
        # no surfaces: nothing more said
        assert world_note(MODELS[name], defaults(name), slalom) == contact_note(MODELS[name], defaults(name))


def bad_track(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "car-sandbox track", "version": 1, "name": "Broken", "walls": [{"circle": {"x": 0}}]}')
    return path


def test_a_bad_track_file_says_why_in_one_message_and_keeps_the_track_shown(window, qtbot, tmp_path, monkeypatch):
    builtin_action(window, "Slalom").trigger()
    slalom = window.world_track
    path = bad_track(tmp_path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    next(a for a in window.track_menu.actions() if a.text() == "&Open track…").trigger()
    boxes = [box for box in window.findChildren(QMessageBox) if box.isVisible()]
    assert len(boxes) == 1
    text = boxes[0].text()
    assert "broken.json" in text and "walls[0]" in text  # the file and the element named
    assert window.world_track is slalom and window.track.world.source is slalom
    boxes[0].close()


def copy_builtin(name: str, folder):
    target = folder / f"my_{name}.json"
    shutil.copy(find_builtin_track(name), target)
    return target


def test_recent_tracks_and_the_last_track_survive_a_restart(qtbot, tmp_path):
    first = MainWindow(remember=True)
    qtbot.addWidget(first)
    slalom, skid = copy_builtin("slalom", tmp_path), copy_builtin("skid_pad", tmp_path)
    assert first.world.open_file(slalom) and first.world.open_file(skid)
    first.close()

    second = MainWindow(remember=True)
    qtbot.addWidget(second)
    second.world.fill_recent(second.recent_tracks_menu)
    assert [a.text() for a in second.recent_tracks_menu.actions()] == [skid.name, slalom.name]
    assert second.world_track is not None and second.world_track.name == open_track(skid).name
    spawn = open_track(skid).in_unit(second.model.LENGTH_UNIT).spawn
    assert float(second.sim.state.x[0]) == pytest.approx(spawn.x)
    # a recent file that is gone: said, and taken off the list
    slalom.unlink()
    next(a for a in second.recent_tracks_menu.actions() if a.text() == slalom.name).trigger()
    assert "no such file" in (second.last_error or "")
    second.world.fill_recent(second.recent_tracks_menu)
    assert [a.text() for a in second.recent_tracks_menu.actions()] == [skid.name]
    second.close()
    third = MainWindow(remember=True)
    qtbot.addWidget(third)
    assert third.world.recent == [str(skid.resolve())]
    third.close()


def test_a_damaged_recent_list_in_the_settings_is_replaced_by_an_empty_one(qtbot):
    from sandbox.ui.window_memory import settings

    settings().setValue("track/recent", json.dumps({"not": "a list"}))
    window = MainWindow(remember=True)
    qtbot.addWidget(window)
    assert window.world.recent == []
    window.close()


@pytest.mark.parametrize("model", ["arcade", "bicycle"])
@pytest.mark.parametrize("name", ["Club circuit", "Drag strip", "Parking lot"])
def test_zoom_to_track_puts_the_whole_track_in_view_and_the_wheel_still_zooms(window, qtbot, model, name):
    assert window.switch_model(model)
    builtin_action(window, name).trigger()
    window.scripted_drive(1.0)
    view = window.track
    zoom_action = next(a for a in window.findChildren(type(window.open_field_action)) if a.text() == "Zoom to &track")
    assert zoom_action.isEnabled()
    zoom_action.trigger()
    left, top, right, bottom = window.world_track.in_unit(model == "arcade" and "px" or "m").bounds()
    for x, y in ((left, top), (right, bottom), (left, bottom), (right, top)):
        sx, sy = view.to_screen(x, y)
        assert 0 <= sx <= view.width() and 0 <= sy <= view.height(), (x, y, sx, sy)
    # and no further out than needed: some edge of the track is near an edge of the view
    corners = [view.to_screen(x, y) for x, y in ((left, top), (right, bottom))]
    gaps = [corners[0][0], corners[0][1], view.width() - corners[1][0], view.height() - corners[1][1]]
    assert min(gaps) <= 80
    zoom = view.zoom
    centre = QPointF(view.width() / 2, view.height() / 2)
    event = QWheelEvent(
        centre,
        view.mapToGlobal(centre),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view, event)
    assert view.zoom == pytest.approx(zoom * 1.15)


def test_zoom_to_track_without_a_track_is_disabled(window):
    zoom_action = next(a for a in window.findChildren(type(window.open_field_action)) if a.text() == "Zoom to &track")
    assert not zoom_action.isEnabled()


@pytest.mark.parametrize("spoil", ["deleted", "damaged"])
def test_a_last_track_that_cannot_be_read_is_said_once_and_the_window_opens_on_the_open_field(qtbot, tmp_path, spoil):
    first = MainWindow(remember=True)
    qtbot.addWidget(first)
    slalom = copy_builtin("slalom", tmp_path)
    assert first.world.open_file(slalom)
    first.close()
    if spoil == "deleted":
        slalom.unlink()
    else:
        slalom.write_text("{not json")
    second = MainWindow(remember=True)
    qtbot.addWidget(second)
    assert ("no such file" if spoil == "deleted" else "not JSON") in (second.last_error or "")
    assert second.world_track is None
    assert (float(second.sim.state.x[0]), float(second.sim.state.y[0])) == (0.0, 0.0)
    second.close()
    third = MainWindow(remember=True)
    qtbot.addWidget(third)
    assert third.last_error is None and third.world_track is None
    third.close()


def test_frames_that_move_the_car_a_little_copy_the_tracks_picture_instead_of_drawing_it(window, qtbot):
    builtin_action(window, "Club circuit").trigger()
    view = window.track
    view.grab()
    drawn = view.world._image
    assert drawn is not None
    window.scripted_drive(0.1)  # a few ticks: the car moves a few px
    view.grab()
    assert view.world._image is drawn
    view.set_zoom(view.zoom * 1.15)  # a new zoom: drawn again, at it
    view.grab()
    assert view.world._image is not drawn


@pytest.mark.parametrize("model", ["arcade", "bicycle", "ackermann", "rigid_body", "monster"])
def test_every_model_starts_at_the_spawn_and_drives_off_the_way_it_points(model):
    """The drive session alone: a reset on the club circuit puts the car at its spawn (in
    the model's unit) and full throttle takes it along the spawn's heading."""
    from sandbox.files.presets import declared_preset
    from sandbox.physics.models import MODELS
    from sandbox.physics.state import Controls
    from sandbox.session.drive import DriveSession
    from sandbox.session.sources import HeldControls

    preset = declared_preset(MODELS[model], model)
    drive = DriveSession(preset.model, preset.tuning, 60, HeldControls(Controls(throttle=1.0)))
    drive.track = open_track(find_builtin_track("club_circuit"))
    drive.reset()
    spawn = drive.track.in_unit(preset.model.LENGTH_UNIT).spawn
    start = drive.sim.state
    assert (float(start.x[0]), float(start.y[0]), float(start.heading[0])) == pytest.approx(
        (spawn.x, spawn.y, spawn.heading)
    )
    for _ in range(60):
        drive.tick()
    dx, dy = float(drive.sim.state.x[0]) - spawn.x, float(drive.sim.state.y[0]) - spawn.y
    assert math.hypot(dx, dy) > 0.5 * (25 if preset.model.LENGTH_UNIT == "px" else 1)
    assert math.atan2(dy, dx) == pytest.approx(spawn.heading, abs=0.01)


@pytest.mark.parametrize("model", ["arcade", "bicycle", "ackermann"])
def test_a_car_backed_into_the_parking_lots_wall_stops_at_it(model):
    """The drive session on the recipe demo's lot: backing up from the demo's start (563,
    512) px towards the wall tiles on the left, whose faces stand at x = 59 … 61.5 px
    (docs/tracks.md). On the open field the same drive goes on past x = 0; on the lot the
    car stops with its rear against the wall: its centre at least half its collision
    shape's length from the face, less the 0.08 px margin."""
    from sandbox.files.presets import declared_preset
    from sandbox.physics.models import MODELS
    from sandbox.physics.state import Controls
    from sandbox.session.drive import DriveSession
    from sandbox.session.sources import HeldControls

    preset = declared_preset(MODELS[model], model)
    lot = open_track(find_builtin_track("parking_lot"))
    scale = 1.0 if preset.model.LENGTH_UNIT == "px" else lot.pixels_per_metre  # px per the model's unit
    reverse = HeldControls(Controls(brake=1.0))
    free = DriveSession(preset.model, preset.tuning, 60, reverse)
    free.sim.state.data[0, free.sim.state.layout.offset["x"]] = 563 / scale
    free.sim.state.data[0, free.sim.state.layout.offset["y"]] = 512 / scale
    walled = DriveSession(preset.model, preset.tuning, 60, reverse)
    walled.track = lot
    walled.reset()
    for _ in range(60 * 20):
        free.tick()
        walled.tick()
    half = preset.tuning["shape_length"] / 2 * scale  # px: the shape along the heading, centred on the car
    x = float(walled.sim.state.x[0]) * scale
    assert float(free.sim.state.x[0]) * scale < 0  # nothing stops it on the open field
    assert x >= 59 + half - 0.5, f"{model}: its centre at {x:.1f} px, the wall's face at 59–61.5 px"
    assert x <= 61.5 + half + 2.0  # and it did reach the wall


@pytest.mark.parametrize("model", ["arcade", "bicycle"])
def test_many_ticks_in_one_call_meet_the_walls_as_tick_by_tick_does(model):
    """A frame that runs many ticks at once (a scripted drive, a late frame) gives the
    same car, bit for bit, as ticking one at a time: on the lot, backed into its wall."""
    from sandbox.files.presets import declared_preset
    from sandbox.physics.models import MODELS
    from sandbox.physics.state import Controls
    from sandbox.session.drive import DriveSession
    from sandbox.session.sources import HeldControls

    preset = declared_preset(MODELS[model], model)
    lot = open_track(find_builtin_track("parking_lot"))
    sessions = []
    for _ in range(2):
        drive = DriveSession(preset.model, preset.tuning, 60, HeldControls(Controls(brake=1.0)))
        drive.track = lot
        drive.reset()
        sessions.append(drive)
    ticked, at_once = sessions
    for _ in range(600):
        ticked.tick()
    rows = np.tile([0.0, 0.0, 1.0, 0.0, 0.0], (600, 1))  # steer, throttle, brake, handbrake, shift
    at_once.drive_through(rows)
    assert np.array_equal(ticked.sim.state.data, at_once.sim.state.data, equal_nan=True)  # NaN: slots unset
    assert float(ticked.sim.state.data[0, ticked.sim.state.layout.offset["wall_contacts"]]) > 0  # it met the wall


def test_the_view_says_which_engines_rules_the_car_meets_walls_by(window, qtbot):
    """The tuning's Engine picks the rules: switching it in the tuning changes what the
    view says at once."""
    builtin_action(window, "Parking lot").trigger()
    QApplication.processEvents()
    assert window.track.contact_note == "walls met as in Godot 4"
    window.tuning.set("godot_engine", 1.0)
    qtbot.waitUntil(lambda: window.track.contact_note == "walls met as in Godot 3")
