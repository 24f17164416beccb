"""Top-down view: ground grid, the track (world_layer.py), trail and skid marks, the car
with its wheels and arrows.

World coordinates are the model's (Godot: x right, y down; px or m). The painter maps
them with translate and scale (zoom × pixels per model unit); the camera follows the
car, the linked game's car or keeps both in view (camera.py). For models that report
per-wheel angles (Ackermann) the view also draws the instantaneous centre of rotation
and the four wheel axes meeting there.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from ..physics.cones import knocked_numbers
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .camera import DEFAULT_CAMERA, FIT_MARGIN_PX, ZOOM_RANGE, frame
from .game_car import GameCar
from .palette import GAME, ghost_colour
from .plot_style import opaque
from .ring_buffer import RingBuffer
from .track_pointers import paint_pointers
from .view_overlays import Dashboard, paint_dashboard, paint_text_lines, plate_rect
from .world_layer import WorldLayer

TRAIL_SECONDS = 8.0
ZOOM_STEP = 1.15
FADE_BUCKETS = 6
TRAIL_STRIDE = 2
ARROW_SECONDS = 0.25
"""The velocity arrow ends where the car would be this many seconds from now."""
GRID_BASE = {"px": 50.0, "m": 1.0}
"""Finest grid spacing in model units; coarser (×2 steps) when zoomed out."""

# Everything below is opaque: Qt paints translucent lines 20-40x slower (plot_style.py).
GROUND_RGB = (0x2B, 0x3A, 0x2E)
TRAIL_RGB = (144, 202, 249)
SKID_RGB = (12, 12, 12)
GROUND = QColor(*GROUND_RGB)
GRID_MINOR = QColor(*opaque((255, 255, 255), 0.09, GROUND_RGB))
GRID_MAJOR = QColor(*opaque((255, 255, 255), 0.22, GROUND_RGB))
ORIGIN = QColor(*opaque((255, 255, 255), 0.47, GROUND_RGB))
AXIS = QColor(*opaque((255, 152, 0), 0.8, GROUND_RGB))
BODY = QColor("#1e88e5")
GLASS = QColor("#a9d2f5")
TYRE = QColor("#111111")
HEADING = QColor("#ffffff")
VELOCITY = QColor("#ffeb3b")
SHAPE = QColor("#ff5252")
"""The collision shape's outline (View → Collision shape)."""


def default_body(params) -> dict[str, float]:
    """Drawing sizes (model units) from the wheel base: the arcade look."""
    wb = float(params["wheel_base"])
    return {"wheel_base": wb, "track": 0.4 * wb + 12, "length": wb + 30, "width": 0.4 * wb + 20}


def _cosmetic(colour: QColor, width: float) -> QPen:
    pen = QPen(colour, width)
    pen.setCosmetic(True)
    return pen


def _screen_lines(start: float, span: float, step: float, scale: float) -> list[int]:
    """Screen pixels of the world lines k·step between `start` and start + span (world
    units), at `scale` screen px per unit."""
    ks = np.arange(math.floor(start / step), math.ceil((start + span) / step) + 1)
    return np.round((ks * step - start) * scale).astype(int).tolist()


class TrackView(QWidget):
    """Paints one car (state index 0) and its recent path."""

    zoom_changed = Signal(float)

    def __init__(self, hz: int = 60, parent=None):
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumSize(320, 240)
        # paintEvent covers every pixel (the ground first), so Qt need not paint the
        # window's background under the view before each frame
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.zoom = 1.0
        self.unit = "px"
        self.unit_scale = 1.0  # screen px per model unit at zoom 1
        self.state = None
        self.body = default_body({"wheel_base": 70.0})
        self.contact_note = ""  # what the car does at the track's walls (world_layer.contact_note)
        self.shape_outline: np.ndarray | None = None  # the collision shape (car frame, model units), when shown
        self.hud_lines: list[str] = []
        self.ghost_lines: list[str] = []  # one readout line per ghost, drawn in its colour
        self.ghosts: list = []  # (state, body, scale into this view's units, colour index)
        self.game: GameCar | None = None  # the linked game's car, from its telemetry
        self.dashboard: Dashboard | None = None
        self.camera_mode = DEFAULT_CAMERA  # "car", "game" or "both" (camera.py)
        self.text_boxes: list[tuple[str, QRectF]] = []  # what the last paint wrote over the world, and where (px)
        self.world_overlays: list = []  # objects with paint(painter, view), in world coordinates (a recording)
        self.world = WorldLayer()  # the track under the car (none: the open field)
        self.set_hz(hz)

    def set_hz(self, hz: int) -> None:
        """Size the trail for TRAIL_SECONDS at `hz` ticks per second (starts it afresh)."""
        # x, y, rear-left x, y, rear-right x, y, skid flag per tick
        self.trail = RingBuffer(int(TRAIL_SECONDS * hz), 7)
        self.update()

    def set_units(self, unit: str, unit_scale: float) -> None:
        """Model length unit and screen px per unit (1 for px; pixels per metre for m)."""
        self.unit, self.unit_scale = unit, unit_scale
        self.world.set_unit(unit)
        self.update()

    def set_world_track(self, track) -> None:
        """The track drawn under the car (a `Track` in any unit; None: nothing)."""
        self.world.set_track(track)
        self.update()

    def zoom_to_world(self) -> bool:
        """Zoom out (or in) until the whole track is in view around the camera's centre;
        False when there is no track to fit."""
        if self.world.track is None:
            return False
        size = (self.width(), self.height())
        self.set_zoom(self.world.fit_zoom(self.camera(), size, self.unit_scale, FIT_MARGIN_PX))
        return True

    # --- data in -------------------------------------------------------------
    def record(self, state, body: dict) -> None:
        """Add the states after one or more ticks (one row each) to the trail; the
        last is the one shown."""
        self.body = body
        self.state = state if len(state) == 1 else state.__class__.of(state.layout, state.data[-1:])
        x, y, h = state.x, state.y, state.heading
        c, s = np.cos(h), np.sin(h)
        half_base, half_track = body["wheel_base"] / 2, body["track"] / 2
        # the rear wheels, as _wheel_spots places them
        lx, ly = x + c * -half_base - s * -half_track, y + s * -half_base + c * -half_track
        rx, ry = x + c * -half_base - s * half_track, y + s * -half_base + c * half_track
        self.trail.extend(np.column_stack([x, y, lx, ly, rx, ry, state.traction_fast]))

    def show_state(self, state, body: dict) -> None:
        self.state, self.body = state, body
        self.update()

    def clear_trail(self) -> None:
        self.trail.clear()
        self.update()

    def set_zoom(self, zoom: float) -> None:
        self.zoom = min(ZOOM_RANGE[1], max(ZOOM_RANGE[0], zoom))
        self.zoom_changed.emit(self.zoom)
        self.update()

    def wheelEvent(self, event) -> None:
        notches = event.angleDelta().y() / 120.0
        if notches:
            self.set_zoom(self.zoom * ZOOM_STEP**notches)
        event.accept()

    # --- geometry ------------------------------------------------------------
    def set_camera(self, mode: str) -> None:
        """Follow "car" (yours), "game" (the linked game's) or keep "both" in view."""
        self.camera_mode = mode
        self.update()

    def view(self) -> tuple[float, float, float]:
        """(x, y) the view is centred on (model units) and the zoom shown (×): the
        user's zoom, or less to keep both cars in view (camera.py)."""
        car = None if self.state is None else (float(self.state.x[0]), float(self.state.y[0]))
        game = None if self.game is None else (self.game.x, self.game.y)
        reach = (
            max(self.body["length"], self.body["width"]) / 2,
            0.0 if self.game is None else max(self.game.body["length"], self.game.body["width"]) / 2,
        )
        size = (self.width(), self.height())
        return frame(self.camera_mode, car, game, size, self.zoom, self.unit_scale, reach)

    @property
    def scale(self) -> float:
        """Screen px per model unit now."""
        return self.view()[2] * self.unit_scale

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Screen px of world point (x, y) now."""
        cx, cy, zoom = self.view()
        scale = zoom * self.unit_scale
        return self.width() / 2 + (x - cx) * scale, self.height() / 2 + (y - cy) * scale

    def _wheel_spots(self, x: float, y: float, h: float):
        """World positions of rear-left, rear-right, front-left, front-right wheels."""
        c, s = math.cos(h), math.sin(h)
        half_base, half_track = self.body["wheel_base"] / 2, self.body["track"] / 2
        spots = []
        for along, side in (
            (-half_base, -half_track),
            (-half_base, half_track),
            (half_base, -half_track),
            (half_base, half_track),
        ):
            spots.append((x + c * along - s * side, y + s * along + c * side))
        return spots

    def _rear_wheels(self, x: float, y: float, h: float):
        return self._wheel_spots(x, y, h)[:2]

    def camera(self) -> tuple[float, float]:
        return self.view()[:2]

    # --- painting ------------------------------------------------------------
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), GROUND)
        cx, cy = self.camera()
        self._paint_grid(p, cx, cy)
        if self.state is not None and "cones_knocked" in self.state.extra:
            self.world.set_knocked(knocked_numbers(self.state.extra["cones_knocked"][0]))
        self.world.paint(p, (cx, cy), self.scale, (self.width(), self.height()), self.devicePixelRatioF())
        p.save()
        p.translate(self.width() / 2, self.height() / 2)
        p.scale(self.scale, self.scale)
        p.translate(-cx, -cy)
        self._paint_origin(p)
        self._paint_trail(p)
        for overlay in self.world_overlays:
            overlay.paint(p, self)
        for ghost in self.ghosts:
            self._paint_ghost(p, *ghost)
        if self.game is not None:
            g = self.game
            self._paint_outline(p, g.x, g.y, g.heading, g.body["length"], g.body["width"], QColor(GAME))
        if self.state is not None:
            self._paint_axes(p)
            self._paint_car(p)
            self._paint_shape(p)
        p.restore()
        self.text_boxes = [("text", self._paint_hud(p))]
        plate = self.dashboard is not None and self._plate_fits()
        if plate:
            self.text_boxes.append(("dashboard", plate_rect(self.height())))
        paint_pointers(p, self, BODY)
        if plate:
            paint_dashboard(p, self.dashboard, self.height(), self.devicePixelRatioF())
        p.end()

    def _plate_fits(self) -> bool:
        """Whether the dashboard plate stays clear of the car."""
        if self.state is None:
            return True
        reach = max(self.body["length"], self.body["width"]) / 2 * self.scale + 8
        sx, sy = self.to_screen(float(self.state.x[0]), float(self.state.y[0]))
        return not plate_rect(self.height()).intersects(QRectF(sx - reach, sy - reach, 2 * reach, 2 * reach))

    def _paint_grid(self, p: QPainter, cx: float, cy: float) -> None:
        """Grid lines every GRID_BASE units (doubled until at least 24 screen px apart),
        every fifth brighter. Each line is a 1-px rectangle filled in whole screen
        pixels: half the cost of stroking them (0.22 against 0.46 ms a frame in `bench`)."""
        scale, w, h = self.scale, self.width(), self.height()
        spacing = GRID_BASE.get(self.unit, 1.0)
        while spacing * scale < 24:
            spacing *= 2
        left, top = cx - w / 2 / scale, cy - h / 2 / scale  # the world point at screen (0, 0)
        for colour, step in ((GRID_MINOR, spacing), (GRID_MAJOR, spacing * 5)):
            for x in _screen_lines(left, w / scale, step, scale):
                p.fillRect(x, 0, 1, h, colour)
            for y in _screen_lines(top, h / scale, step, scale):
                p.fillRect(0, y, w, 1, colour)

    def _paint_origin(self, p: QPainter) -> None:
        """A cross at the world origin, 40 screen px across."""
        p.setPen(_cosmetic(ORIGIN, 2))
        arm = 20 / self.scale
        p.drawLine(QLineF(-arm, 0, arm, 0))
        p.drawLine(QLineF(0, -arm, 0, arm))

    def _paint_trail(self, p: QPainter) -> None:
        """The path of the last TRAIL_SECONDS, older parts fainter; where both ends of a
        step were in the drift regime, the two rear wheels' skid marks instead.
        Each fade bucket is one path built from the arrays (pyqtgraph's arrayToQPath):
        a Python loop over segments cost ~2 ms a frame."""
        data = self.trail.view()
        # every TRAIL_STRIDE-th tick and the newest: the same picture (a tick moves a car a
        # few pixels) for half the path to stroke
        data = data[:, (data.shape[1] - 1) % TRAIL_STRIDE :: TRAIL_STRIDE]
        n = data.shape[1]
        if n < 2:
            return
        x, y, lx, ly, rx, ry, skid = data
        marked = (skid[:-1] != 0) & (skid[1:] != 0)  # step i (point i to i + 1) leaves skid marks
        edges = np.linspace(0, n - 1, FADE_BUCKETS + 1).astype(int)
        skid_width = max(0.1 * self.body["wheel_base"], 1.5 / self.scale)
        for bucket in range(FADE_BUCKETS):
            a, b = edges[bucket], edges[bucket + 1]
            if b <= a:
                continue
            fade = (bucket + 1) / FADE_BUCKETS  # older segments fainter
            steps = marked[a:b]
            skidding, gripping = steps.any(), not steps.all()
            # connect[i]: draw the step from point a + i to the next (the last point's value
            # is unused); "all" when a bucket is all of one kind, twice as fast to build
            if gripping:
                p.setPen(_cosmetic(QColor(*opaque(TRAIL_RGB, 0.67 * fade, GROUND_RGB)), 2))
                connect = np.append(~steps, False) if skidding else "all"
                p.drawPath(pg.arrayToQPath(x[a : b + 1], y[a : b + 1], connect=connect))
            if skidding:
                pen = QPen(QColor(*opaque(SKID_RGB, 0.86 * fade, GROUND_RGB)), skid_width)
                pen.setCapStyle(Qt.PenCapStyle.RoundCap)
                p.setPen(pen)
                connect = np.append(steps, False) if gripping else "all"
                # rubber on the road has rough edges anyway; without antialiasing these
                # wide strokes cost half (0.2 ms a frame in a drift)
                p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
                p.drawPath(pg.arrayToQPath(lx[a : b + 1], ly[a : b + 1], connect=connect))
                p.drawPath(pg.arrayToQPath(rx[a : b + 1], ry[a : b + 1], connect=connect))
                p.setRenderHint(QPainter.RenderHint.Antialiasing)

    def _wheel_angles(self) -> tuple[float, float]:
        extra = self.state.extra
        if "wheel_left" in extra:
            return float(extra["wheel_left"][0]), float(extra["wheel_right"][0])
        angle = float(self.state.wheel_angle[0])
        return angle, angle

    def _paint_axes(self, p: QPainter) -> None:
        """Instantaneous centre and the wheel axes through it (models with per-wheel angles)."""
        extra = self.state.extra
        if "wheel_left" not in extra or "icr_x" not in extra:
            return
        icx, icy = float(extra["icr_x"][0]), float(extra["icr_y"][0])
        if not (math.isfinite(icx) and math.isfinite(icy)):
            return
        x, y = float(self.state.x[0]), float(self.state.y[0])
        h = float(self.state.display_heading[0])
        p.setPen(_cosmetic(AXIS, 1))
        p.drawLines([QLineF(wx, wy, icx, icy) for wx, wy in self._wheel_spots(x, y, h)])
        arm = 8 / self.scale
        p.setPen(_cosmetic(AXIS, 2))
        p.drawLine(QLineF(icx - arm, icy - arm, icx + arm, icy + arm))
        p.drawLine(QLineF(icx - arm, icy + arm, icx + arm, icy - arm))

    def _paint_car(self, p: QPainter) -> None:
        s = self.state
        x, y, h = float(s.x[0]), float(s.y[0]), float(s.display_heading[0])
        wb, track = self.body["wheel_base"], self.body["track"]
        length, width = self.body["length"], self.body["width"]
        tyre_l, tyre_w = 0.22 * wb + 0.085 * length, 0.1 * wb
        left, right = self._wheel_angles()
        p.save()
        p.translate(x, y)
        p.rotate(math.degrees(h))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(TYRE)
        for ax, ay, angle in (
            (-wb / 2, -track / 2, 0.0),
            (-wb / 2, track / 2, 0.0),
            (wb / 2, -track / 2, left),
            (wb / 2, track / 2, right),
        ):
            p.save()
            p.translate(ax, ay)
            p.rotate(math.degrees(angle))
            p.drawRoundedRect(QRectF(-tyre_l / 2, -tyre_w / 2, tyre_l, tyre_w), tyre_w / 3, tyre_w / 3)
            p.restore()
        p.setBrush(BODY)
        p.setPen(_cosmetic(QColor("#0d47a1"), 1.5))
        inset = width * 0.18
        corner = 0.1 * width
        p.drawRoundedRect(QRectF(-length / 2, -width / 2 + inset / 2, length, width - inset), corner, corner)
        p.setBrush(GLASS)
        p.drawRoundedRect(QRectF(length * 0.05, -width * 0.28, length * 0.2, width * 0.56), corner / 2, corner / 2)
        p.setPen(_cosmetic(HEADING, 2))
        p.drawLine(QLineF(0, 0, length / 2 + 25 / self.scale, 0))
        p.restore()
        self._paint_arrow(p, x, y, float(s.vx[0]) * ARROW_SECONDS, float(s.vy[0]) * ARROW_SECONDS)

    def _paint_shape(self, p: QPainter) -> None:
        """The collision shape's outline, dashed, turned with the car's path heading (not
        a drawn drift illusion: walls meet the car where it is)."""
        if self.shape_outline is None:
            return
        s = self.state
        p.save()
        p.translate(float(s.x[0]), float(s.y[0]))
        p.rotate(math.degrees(float(s.heading[0])))
        pen = _cosmetic(SHAPE, 1.5)
        pen.setStyle(Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in self.shape_outline]))
        p.restore()

    def _paint_ghost(self, p: QPainter, state, body: dict, scale: float, colour: int) -> None:
        """A compare car: translucent body and its heading, in this view's units.
        (A few translucent shapes per frame; the fast-paint rule is about long lines.)"""
        x, y = float(state.x[0]) * scale, float(state.y[0]) * scale
        h = float(state.display_heading[0])
        self._paint_outline(p, x, y, h, body["length"] * scale, body["width"] * scale, QColor(ghost_colour(colour)))

    def _paint_outline(self, p: QPainter, x: float, y: float, h: float, length: float, width: float, tint) -> None:
        """A translucent body `length` × `width` at (x, y) pointing `h` (rad), with its heading line."""
        p.save()
        p.translate(x, y)
        p.rotate(math.degrees(h))
        p.setPen(_cosmetic(tint, 1.5))
        tint.setAlpha(90)
        p.setBrush(tint)
        p.drawRoundedRect(QRectF(-length / 2, -width / 2, length, width), 0.1 * width, 0.1 * width)
        p.drawLine(QLineF(0, 0, length / 2, 0))
        p.restore()

    def _paint_arrow(self, p: QPainter, x: float, y: float, dx: float, dy: float) -> None:
        size = math.hypot(dx, dy)
        if size * self.scale < 1:
            return
        p.setPen(_cosmetic(VELOCITY, 3))
        p.setBrush(VELOCITY)
        tip = QPointF(x + dx, y + dy)
        p.drawLine(QPointF(x, y), tip)
        ux, uy = dx / size, dy / size
        head = min(14.0, size * self.scale * 0.4) / self.scale  # about 14 screen px
        p.drawPolygon(
            QPolygonF(
                [
                    tip,
                    QPointF(tip.x() - ux * head - uy * head * 0.5, tip.y() - uy * head + ux * head * 0.5),
                    QPointF(tip.x() - ux * head + uy * head * 0.5, tip.y() - uy * head - ux * head * 0.5),
                ]
            )
        )

    def _paint_hud(self, p: QPainter) -> QRectF:
        """Text lines at the top left: the car's, each ghost's (and the game car's) in
        its colour after a swatch, then the zoom and the arrows' legend. Returns their box (px)."""
        per_unit = "" if self.unit == "px" else f" · {self.unit_scale:g} px/{self.unit}"
        lines = [(text, None) for text in self.hud_lines]
        lines += [(text, ghost_colour(i)) for i, text in enumerate(self.ghost_lines)]
        zoom = f"zoom {self.view()[2]:.2f}×{per_unit}"
        if self.game is not None:
            lines.append((self.game.line, GAME))
            zoom += {"both": " (both cars in view)", "game": " (following the game's car)"}.get(self.camera_mode, "")
        lines.append((f"{zoom}  ·  white: heading  ·  yellow: velocity (0.25 s ahead)", None))
        track = self.world.track
        if track is not None:
            lines.append((f"track: {track.name}" + ("" if track.is_open_field else f" ({self.contact_note})"), None))
        return paint_text_lines(p, lines)
