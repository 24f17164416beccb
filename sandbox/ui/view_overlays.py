"""What the car view draws over the world, in screen pixels: the dashboard plate
(speed, rpm and gear where the model has them, pedal and steering bars) and the
pointers at the view's edge to ghosts that have left it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap, QPolygonF

PLATE = QColor(10, 14, 11, 170)
"""The dashboard's translucent plate (one small rectangle a frame: cheap)."""
PLATE_TEXT = QColor("#f0f0f0")
DIM_TEXT = QColor("#a0a0a0")
BAR_BACK = QColor("#3a3a3a")
THROTTLE = QColor("#66bb6a")
BRAKE = QColor("#ef5350")
STEER = QColor("#4fc3f7")
PLATE_SIZE = (190, 86)
"""px: the plate's width and height."""
MARGIN = 10
"""px between the plate or a pointer and the view's edge."""


@dataclass
class Dashboard:
    """What the plate shows: speed in the model's unit (and km/h for metres), rpm and
    gear when the model has an engine, the pedals 0…1 and the steering -1…1."""

    speed: float
    unit: str
    throttle: float
    brake: float
    steer: float
    rpm: float | None = None
    gear: str | None = None


def plate_rect(height: int) -> QRectF:
    """Where the plate sits: the view's bottom-left corner."""
    w, h = PLATE_SIZE
    return QRectF(MARGIN, height - h - MARGIN, w, h)


BAR_ROWS = (("thr", THROTTLE), ("brk", BRAKE), ("str", STEER))
_PLATES: dict = {}  # font family and size -> the plate's unchanging part, drawn once


def _fonts(base: QFont) -> tuple[QFont, QFont]:
    big, small = QFont(base), QFont(base)
    big.setPointSizeF(base.pointSizeF() * 1.6)
    big.setBold(True)
    small.setPointSizeF(base.pointSizeF() * 0.9)
    return big, small


def _bar_track(i: int) -> QRectF:
    """Bar i's track, in plate coordinates."""
    w, h = PLATE_SIZE
    return QRectF(38, h - 6 - 3 * 10 + i * 10, w - 48, 5)


def _plate(base: QFont, ratio: float) -> QPixmap:
    """The plate with its bar labels and empty bars: a picture made once (a translucent
    rounded plate and text cost more than the car to paint every frame)."""
    key = (base.family(), base.pointSizeF(), ratio)
    if key not in _PLATES:
        w, h = PLATE_SIZE
        pixmap = QPixmap(round(w * ratio), round(h * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(PLATE)
        p.drawRoundedRect(QRectF(0, 0, w, h), 6, 6)
        p.setFont(_fonts(base)[1])
        p.setPen(DIM_TEXT)
        for i, (label, _) in enumerate(BAR_ROWS):
            track = _bar_track(i)
            p.drawText(
                QRectF(10, track.top() - 3, 26, 10), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label
            )
            p.fillRect(track, BAR_BACK)
        p.end()
        _PLATES[key] = pixmap
    return _PLATES[key]


def paint_dashboard(p: QPainter, dash: Dashboard, height: int, ratio: float = 1.0) -> None:
    rect = plate_rect(height)
    p.save()
    p.drawPixmap(rect.topLeft(), _plate(p.font(), ratio))
    p.translate(rect.topLeft())
    big, small = _fonts(p.font())
    p.setFont(big)
    p.setPen(PLATE_TEXT)
    speed = f"{abs(dash.speed):.0f}" if dash.unit == "px" else f"{abs(dash.speed):.1f}"
    p.drawText(QPointF(10, 26), speed)
    p.setFont(small)
    p.setPen(DIM_TEXT)
    units = f"{dash.unit}/s" + ("" if dash.unit == "px" else f" · {abs(dash.speed) * 3.6:.0f} km/h")
    p.drawText(QPointF(10, 42), units)
    if dash.rpm is not None:
        p.setPen(PLATE_TEXT)
        p.drawText(QRectF(PLATE_SIZE[0] - 90, 6, 80, 14), Qt.AlignmentFlag.AlignRight, f"{dash.rpm:.0f} rpm")
        p.drawText(QRectF(PLATE_SIZE[0] - 90, 22, 80, 14), Qt.AlignmentFlag.AlignRight, f"gear {dash.gear}")
    for i, ((_, colour), value) in enumerate(zip(BAR_ROWS, (dash.throttle, dash.brake, dash.steer))):
        track = _bar_track(i)
        value = max(-1.0, min(1.0, value))
        if i == 2:  # steering: from the middle, left or right
            mid = track.center().x()
            span = value * track.width() / 2
            p.fillRect(QRectF(min(mid, mid + span), track.top(), abs(span), track.height()), colour)
            p.fillRect(QRectF(mid - 0.5, track.top() - 1, 1, track.height() + 2), DIM_TEXT)
        else:
            p.fillRect(QRectF(track.left(), track.top(), max(0.0, value) * track.width(), track.height()), colour)
    p.restore()


def paint_edge_pointer(p: QPainter, width: int, height: int, sx: float, sy: float, colour: QColor, text: str) -> bool:
    """If screen point (sx, sy) is outside the view, an arrow at the view's edge on the
    line from the centre towards it, in `colour`, with `text` (the gap) beside it.
    Returns whether it drew one."""
    inset = MARGIN + 8
    if inset <= sx <= width - inset and inset <= sy <= height - inset:
        return False
    cx, cy = width / 2, height / 2
    dx, dy = sx - cx, sy - cy
    if dx == 0 and dy == 0:
        return False
    # the largest t with the point (cx + t·dx, cy + t·dy) still inside the inset box
    t = min((cx - inset) / abs(dx) if dx else math.inf, (cy - inset) / abs(dy) if dy else math.inf)
    ex, ey = cx + t * dx, cy + t * dy
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    size = 12.0
    tip = QPointF(ex + ux * size / 2, ey + uy * size / 2)
    p.save()
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour)
    p.drawPolygon(
        QPolygonF(
            [
                tip,
                QPointF(tip.x() - ux * size - uy * size * 0.6, tip.y() - uy * size + ux * size * 0.6),
                QPointF(tip.x() - ux * size + uy * size * 0.6, tip.y() - uy * size - ux * size * 0.6),
            ]
        )
    )
    p.setPen(colour)
    metrics = p.fontMetrics()
    w = metrics.horizontalAdvance(text) + 4
    # the text on the inner side of the arrow, kept inside the view
    lx = min(max(ex - ux * (size + w / 2) - w / 2, 2), width - w - 2)
    ly = min(max(ey - uy * (size + 10) + metrics.ascent() / 2, metrics.ascent() + 2), height - 4)
    p.drawText(QPointF(lx, ly), text)
    p.restore()
    return True
