"""Top-down view: ground grid, trail and skid marks, the car with its wheels and arrows.

World coordinates are the model's (Godot: x right, y down), so the painter maps them
with a plain translate and scale; the camera stays centred on the first car.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from ..telemetry import RingBuffer
from .plot_style import opaque

TRAIL_SECONDS = 8.0
ZOOM_RANGE = (0.1, 8.0)
ZOOM_STEP = 1.15
FADE_BUCKETS = 10
ARROW_SECONDS = 0.25
"""The velocity arrow ends where the car would be this many seconds from now."""

# Everything below is opaque: Qt paints translucent lines 20-40x slower (plot_style.py).
GROUND_RGB = (0x2B, 0x3A, 0x2E)
TRAIL_RGB = (144, 202, 249)
SKID_RGB = (12, 12, 12)
GROUND = QColor(*GROUND_RGB)
GRID_MINOR = QColor(*opaque((255, 255, 255), 0.09, GROUND_RGB))
GRID_MAJOR = QColor(*opaque((255, 255, 255), 0.22, GROUND_RGB))
ORIGIN = QColor(*opaque((255, 255, 255), 0.47, GROUND_RGB))
BODY = QColor("#1e88e5")
GLASS = QColor("#a9d2f5")
HUD_TEXT = QColor("#e6e6e6")
TYRE = QColor("#111111")
HEADING = QColor("#ffffff")
VELOCITY = QColor("#ffeb3b")


def car_size(wheel_base: float) -> tuple[float, float]:
    """Body length and width (px) drawn for a wheel base: overhangs front and back."""
    return wheel_base + 30.0, 0.4 * wheel_base + 20.0


class TrackView(QWidget):
    """Paints one car (state index 0) and its recent path."""

    zoom_changed = Signal(float)

    def __init__(self, hz: int = 60, parent=None):
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumSize(320, 240)
        self.zoom = 1.0
        self.state = None
        self.wheel_base = 70.0
        self.hud_lines: list[str] = []
        self.set_hz(hz)

    def set_hz(self, hz: int) -> None:
        """Size the trail for TRAIL_SECONDS at `hz` ticks per second (starts it afresh)."""
        # x, y, rear-left x, y, rear-right x, y, skid flag per tick
        self.trail = RingBuffer(int(TRAIL_SECONDS * hz), 7)
        self.update()

    # --- data in -------------------------------------------------------------
    def record(self, state, wheel_base: float) -> None:
        """Add the state after one tick to the trail."""
        self.state = state
        self.wheel_base = wheel_base
        x, y, h = float(state.x[0]), float(state.y[0]), float(state.heading[0])
        (lx, ly), (rx, ry) = self._rear_wheels(x, y, h)
        self.trail.append((x, y, lx, ly, rx, ry, float(state.traction_fast[0])))

    def show_state(self, state, wheel_base: float) -> None:
        self.state = state
        self.wheel_base = wheel_base
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
            self.set_zoom(self.zoom * ZOOM_STEP ** notches)
        event.accept()

    # --- geometry ------------------------------------------------------------
    def _rear_wheels(self, x: float, y: float, h: float):
        length, width = car_size(self.wheel_base)
        c, s = math.cos(h), math.sin(h)
        back = -self.wheel_base / 2
        side = width / 2 - 4
        return ((x + c * back - s * -side, y + s * back + c * -side),
                (x + c * back - s * side, y + s * back + c * side))

    def camera(self) -> tuple[float, float]:
        if self.state is None:
            return 0.0, 0.0
        return float(self.state.x[0]), float(self.state.y[0])

    # --- painting ------------------------------------------------------------
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), GROUND)
        cx, cy = self.camera()
        p.save()
        p.translate(self.width() / 2, self.height() / 2)
        p.scale(self.zoom, self.zoom)
        p.translate(-cx, -cy)
        self._paint_grid(p, cx, cy)
        self._paint_trail(p)
        if self.state is not None:
            self._paint_car(p)
        p.restore()
        self._paint_hud(p)
        p.end()

    def _paint_grid(self, p: QPainter, cx: float, cy: float) -> None:
        half_w = self.width() / 2 / self.zoom
        half_h = self.height() / 2 / self.zoom
        spacing = 50.0
        while spacing * self.zoom < 24:  # keep lines at least 24 screen px apart
            spacing *= 2
        major = spacing * 5
        for colour, step in ((GRID_MINOR, spacing), (GRID_MAJOR, major)):
            pen = QPen(colour, 1)
            pen.setCosmetic(True)
            p.setPen(pen)
            x0 = math.floor((cx - half_w) / step) * step
            y0 = math.floor((cy - half_h) / step) * step
            lines = [QLineF(x, cy - half_h, x, cy + half_h) for x in np.arange(x0, cx + half_w + step, step)]
            lines += [QLineF(cx - half_w, y, cx + half_w, y) for y in np.arange(y0, cy + half_h + step, step)]
            p.drawLines(lines)
        pen = QPen(ORIGIN, 2)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.drawLine(QLineF(-20, 0, 20, 0))
        p.drawLine(QLineF(0, -20, 0, 20))

    def _paint_trail(self, p: QPainter) -> None:
        data = self.trail.view()
        n = data.shape[1]
        if n < 2:
            return
        x, y, lx, ly, rx, ry, skid = data
        edges = np.linspace(0, n - 1, FADE_BUCKETS + 1).astype(int)
        for bucket in range(FADE_BUCKETS):
            a, b = edges[bucket], edges[bucket + 1]
            if b <= a:
                continue
            fade = (bucket + 1) / FADE_BUCKETS  # older segments fainter
            trail, marks = [], []
            for i in range(a, b):
                if skid[i] and skid[i + 1]:
                    marks.append(QLineF(lx[i], ly[i], lx[i + 1], ly[i + 1]))
                    marks.append(QLineF(rx[i], ry[i], rx[i + 1], ry[i + 1]))
                else:
                    trail.append(QLineF(x[i], y[i], x[i + 1], y[i + 1]))
            if trail:
                pen = QPen(QColor(*opaque(TRAIL_RGB, 0.67 * fade, GROUND_RGB)), 2)
                pen.setCosmetic(True)
                p.setPen(pen)
                p.drawLines(trail)
            if marks:
                pen = QPen(QColor(*opaque(SKID_RGB, 0.86 * fade, GROUND_RGB)), 5)
                pen.setCapStyle(Qt.PenCapStyle.RoundCap)
                p.setPen(pen)
                p.drawLines(marks)

    def _paint_car(self, p: QPainter) -> None:
        s = self.state
        x, y, h = float(s.x[0]), float(s.y[0]), float(s.heading[0])
        wb = self.wheel_base
        length, width = car_size(wb)
        tyre_l, tyre_w = 0.22 * wb + 6, 7.0
        p.save()
        p.translate(x, y)
        p.rotate(math.degrees(h))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(TYRE)
        side = width / 2 - 4
        for ax, ay, angle in ((-wb / 2, -side, 0.0), (-wb / 2, side, 0.0),
                              (wb / 2, -side, float(s.wheel_angle[0])), (wb / 2, side, float(s.wheel_angle[0]))):
            p.save()
            p.translate(ax, ay)
            p.rotate(math.degrees(angle))
            p.drawRoundedRect(QRectF(-tyre_l / 2, -tyre_w / 2, tyre_l, tyre_w), 2, 2)
            p.restore()
        p.setBrush(BODY)
        p.setPen(QPen(QColor("#0d47a1"), 1.5))
        inset = width * 0.18
        p.drawRoundedRect(QRectF(-length / 2, -width / 2 + inset / 2, length, width - inset), 8, 8)
        p.setBrush(GLASS)
        p.drawRoundedRect(QRectF(length * 0.05, -width * 0.28, length * 0.2, width * 0.56), 4, 4)
        pen = QPen(HEADING, 2)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.drawLine(QLineF(0, 0, length / 2 + 25, 0))
        p.restore()
        self._paint_arrow(p, x, y, float(s.vx[0]) * ARROW_SECONDS, float(s.vy[0]) * ARROW_SECONDS)

    def _paint_arrow(self, p: QPainter, x: float, y: float, dx: float, dy: float) -> None:
        size = math.hypot(dx, dy)
        if size < 1:
            return
        pen = QPen(VELOCITY, 3)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.setBrush(VELOCITY)
        tip = QPointF(x + dx, y + dy)
        p.drawLine(QPointF(x, y), tip)
        ux, uy = dx / size, dy / size
        head = min(14.0, size * 0.4) / self.zoom ** 0.5
        p.drawPolygon(QPolygonF([tip,
                                 QPointF(tip.x() - ux * head - uy * head * 0.5, tip.y() - uy * head + ux * head * 0.5),
                                 QPointF(tip.x() - ux * head + uy * head * 0.5, tip.y() - uy * head - ux * head * 0.5)]))

    def _paint_hud(self, p: QPainter) -> None:
        p.setPen(HUD_TEXT)
        lines = self.hud_lines + [f"zoom {self.zoom:.2f}×  ·  white: heading  ·  yellow: velocity (0.25 s ahead)"]
        metrics = p.fontMetrics()
        for i, text in enumerate(lines):
            p.drawText(10, 10 + metrics.ascent() + i * metrics.height(), text)
