"""The linked game's car in the real window, offscreen, fed by a thread that speaks the
link protocol as the game does (window_game_peer.py): the camera's three choices (your
car, the game's, both in view) in the View menu and kept between runs, the pointers'
distances never on the view's text, and the game's slip angle plotted as your car's."""

import math
from itertools import combinations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest

from sandbox.physics.state import State
from sandbox.ui.app import MainWindow
from sandbox.ui.camera import BOTH_LOWEST_ZOOM, FIT_MARGIN_PX
from sandbox.ui.input import ACTIONS, SHIFTS
from sandbox.ui.palette import GAME
from sandbox.ui.track_view import BODY, GROUND_RGB
from window_game_peer import GamePeer

WAIT_MS = 10000
"""ms a test waits for the link before it fails (never a figure the test checks)."""


@pytest.fixture
def linked(window, qtbot):
    """The window listening on a free port, a game peer linked to it, the frame timer
    stopped and the sandbox car at rest at the origin."""
    window.link_panel.port.setValue(0)
    window.link_panel.listen_button.click()
    server = window.link.server
    peer = GamePeer(server.port, server.token, dict(window.tuning))
    peer.start()
    qtbot.waitUntil(lambda: window.link.game is not None, timeout=WAIT_MS)
    window.drive_view.timer.stop()
    window.drive_view.reset_car()
    yield window, peer
    peer.stop()
    assert peer.errors == []


def game_at(window, peer, qtbot, pose) -> None:
    """The game's car at `pose` (x, y, heading, vx, vy), once the window has it."""
    peer.pose = pose
    qtbot.waitUntil(
        lambda: window.track.game is not None and (window.track.game.x, window.track.game.y) == pose[:2],
        timeout=WAIT_MS,
    )


def pixels(view) -> np.ndarray:
    """The car view as drawn, its text and pointers blanked (the game's line is red
    text): (rows, columns, rgb)."""
    image = view.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    picture = rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)
    ratio = view.devicePixelRatioF()
    for _, box in view.text_boxes:
        top, left = max(round(box.top() * ratio), 0), max(round(box.left() * ratio), 0)
        picture[top : round(box.bottom() * ratio) + 1, left : round(box.right() * ratio) + 1] = 0
    return picture


def seen(picture: np.ndarray, rgb, tolerance: int = 4) -> np.ndarray:
    """(row, column) of every pixel within `tolerance` of `rgb`."""
    return np.argwhere(np.all(np.abs(picture - np.asarray(rgb)) <= tolerance, axis=2))


def game_tint() -> list[float]:
    """The game car's translucent red over the ground (alpha 90 of 255)."""
    tint, alpha = QColor(GAME), 90 / 255
    return [g * (1 - alpha) + c * alpha for g, c in zip(GROUND_RGB, (tint.red(), tint.green(), tint.blue()))]


def test_the_view_menu_offers_the_three_cameras_with_keys_no_driving_key_uses(window, qtbot):
    actions = window.camera_actions.actions()
    assert [a.text().replace("&", "") for a in actions] == [
        "Follow my car",
        "Follow the game's car",
        "Keep both cars in view",
    ]
    assert window.camera_actions.isExclusive() and all(a.isCheckable() and a.toolTip() for a in actions)
    keys = [a.shortcut().toString() for a in actions]
    assert keys == ["F2", "F3", "F4"]
    assert not {a.shortcut()[0].key() for a in actions} & {*ACTIONS, *SHIFTS, Qt.Key.Key_R, Qt.Key.Key_Tab}
    assert [a.isChecked() for a in actions] == [False, False, True]  # linked, both are watched
    view = window.menuBar().actions()[3]
    assert view.text() == "&View" and all(a in view.menu().actions() for a in actions)
    for key, mode, ticked in ((Qt.Key.Key_F3, "game", 1), (Qt.Key.Key_F2, "car", 0), (Qt.Key.Key_F4, "both", 2)):
        QTest.keyClick(window.track, key)
        assert window.track.camera_mode == mode
        assert [a.isChecked() for a in actions] == [i == ticked for i in range(3)]


def test_the_camera_is_kept_between_runs(qtbot):
    first = MainWindow(remember=True)
    qtbot.addWidget(first)
    first.camera_actions.actions()[1].trigger()  # Follow the game's car
    first.close()
    second = MainWindow(remember=True)
    qtbot.addWidget(second)
    assert second.track.camera_mode == "game" and second.camera_actions.actions()[1].isChecked()
    second.close()


@pytest.mark.parametrize("where", [(600.0, 0.0), (-500.0, 450.0), (3000.0, -2500.0)])
def test_both_cars_are_in_view_zoomed_out_no_closer_than_the_users_zoom(linked, qtbot, where):
    window, peer = linked
    window.set_camera("both")
    game_at(window, peer, qtbot, (*where, 0.4, 0.0, 0.0))
    view = window.track
    picture = pixels(view)
    # your car's blue body and the game's red one are both in the picture, clear of the edge
    for rgb in ([BODY.red(), BODY.green(), BODY.blue()], game_tint()):
        spots = seen(picture, rgb)
        assert len(spots) > 5, rgb  # a few px at the lowest zoom
        rows, columns = spots[:, 0] / view.devicePixelRatioF(), spots[:, 1] / view.devicePixelRatioF()
        assert columns.min() >= FIT_MARGIN_PX / 2 and columns.max() <= view.width() - FIT_MARGIN_PX / 2
        assert rows.min() >= FIT_MARGIN_PX / 2 and rows.max() <= view.height() - FIT_MARGIN_PX / 2
    shown = view.view()[2]
    assert BOTH_LOWEST_ZOOM <= shown <= view.zoom
    # no arrow to a car that is in view
    assert not [name for name, _ in view.text_boxes if "pointer" in name]


def test_a_game_car_too_far_for_the_lowest_zoom_keeps_your_car_in_view_and_points_to_it(linked, qtbot):
    window, peer = linked
    window.set_camera("both")
    game_at(window, peer, qtbot, (90000.0, 0.0, 0.0, 0.0, 0.0))
    view = window.track
    assert view.view()[2] == BOTH_LOWEST_ZOOM
    assert len(seen(pixels(view), [BODY.red(), BODY.green(), BODY.blue()])) > 0  # your car still drawn
    assert [name for name, _ in view.text_boxes if "pointer" in name] == ["game pointer"]


def test_following_the_game_shows_its_car_in_the_middle_and_points_to_yours(linked, qtbot):
    window, peer = linked
    window.set_camera("game")
    game_at(window, peer, qtbot, (5000.0, 3000.0, 0.0, 0.0, 0.0))
    view = window.track
    spots = seen(pixels(view), game_tint()) / view.devicePixelRatioF()
    assert len(spots) > 20
    middle = spots.mean(axis=0)  # (row, column)
    assert middle == pytest.approx((view.height() / 2, view.width() / 2), abs=6)
    names = [name for name, _ in view.text_boxes]
    assert "car pointer" in names and "car distance" in names
    window.set_camera("car")  # back on your car: the game's is the arrow
    view.repaint()
    assert [name for name, _ in view.text_boxes if "pointer" in name] == ["game pointer"]


SIDES = {
    "left": (-4000.0, 0.0),
    "right": (4000.0, 0.0),
    "top": (0.0, -4000.0),
    "bottom": (0.0, 4000.0),
    "top left": (-4000.0, -2500.0),
    "top right": (4000.0, -2500.0),
    "bottom left": (-4000.0, 2500.0),
    "bottom right": (4000.0, 2500.0),
    "just above the text": (-300.0, -2000.0),
    "just past the dashboard": (-4000.0, 900.0),
}


@pytest.mark.parametrize("panels", [False, True])
def test_the_distance_pointer_never_draws_over_the_views_text(linked, qtbot, panels):
    """The game's car off the view on every side and corner: the arrow and its distance
    are drawn clear of the text at the top left (your car's, the game's line, the zoom)
    and of the dashboard at the bottom left, in the real widget's pixels."""
    window, peer = linked
    window.set_camera("car")
    if panels:
        window.panels.toggle()  # the car view the whole window
    view = window.track
    for side, (x, y) in SIDES.items():
        game_at(window, peer, qtbot, (x, y, 0.0, 120.0, 0.0))
        window.drive_view.refresh()
        view.repaint()
        boxes = dict(view.text_boxes)
        assert {"text", "dashboard", "game pointer", "game distance"} <= set(boxes), side
        for (a, box_a), (b, box_b) in combinations(view.text_boxes, 2):
            assert not box_a.intersects(box_b), f"{side}: {a} {box_a} over {b} {box_b}"
        assert view.rect().contains(boxes["game distance"].toRect()), side
        # the arrow points at the game's car: from the middle, the same way
        cx, cy = view.width() / 2, view.height() / 2
        arrow = boxes["game pointer"].center()
        assert math.atan2(arrow.y() - cy, arrow.x() - cx) == pytest.approx(math.atan2(y, x), abs=0.02), side


def plotted_sideslip(heading: float, vx: float, vy: float) -> float:
    """The slip angle as the plots show it for every car (°): "the arctangent of the
    lateral velocity divided by the longitudinal velocity" (Marco Monster's text), with
    the longitudinal part's size, positive to the car's right (y down): 0 reversing
    straight back, within ±90°. Written here from the text, not from the code."""
    forward = math.cos(heading) * vx + math.sin(heading) * vy
    right = -math.sin(heading) * vx + math.cos(heading) * vy
    return math.degrees(math.atan2(right, abs(forward)))


def test_a_reversing_game_car_is_plotted_without_jumps_and_as_your_car_would_be(linked, qtbot):
    """The game's car reversing, its sideways speed wavering a little either side of
    zero (a real game's velocity does): the plotted slip angle stays near 0°, never
    jumping between −180° and +180°, and is what your car's plot shows for the same
    heading and velocity."""
    window, peer = linked
    heading, speed = 0.7, 150.0
    plotted, expected = [], []
    for i in range(12):
        side = (0.5 if i % 2 else -0.5) + 0.3 * i  # px/s to the car's right: wavering, then sliding
        vx = -speed * math.cos(heading) - side * math.sin(heading)
        vy = -speed * math.sin(heading) + side * math.cos(heading)
        game_at(window, peer, qtbot, (10.0 * i + 5.0, 0.0, heading, vx, vy))
        window.scripted_drive(1 / window.sim.hz)  # one tick of your car: the plots take the game's newest
        plotted.append(window.plots.game_slip_curve.getData()[1][-1])
        expected.append(plotted_sideslip(heading, vx, vy))
        # your car with the same heading and velocity, through the same plot
        yours = State.at_rest(1, window.model.STATE)
        yours.heading[:], yours.vx[:], yours.vy[:] = heading, vx, vy
        window.plots.record(window.sim.time, yours)
        window.drive_view.refresh()
        assert window.plots.slip_curve.getData()[1][-1] == pytest.approx(plotted[-1], abs=1e-9)
    assert plotted == pytest.approx(expected, abs=1e-9)
    assert max(abs(b - a) for a, b in zip(plotted, plotted[1:])) < 2.0  # continuous: no ±180° flips
    assert all(abs(value) < 5.0 for value in plotted)
    assert f"slip {expected[-1]:+.1f}°" in window.track.game.line
