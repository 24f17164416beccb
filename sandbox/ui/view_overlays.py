"""What the car view draws over the world, in screen pixels: the dashboard plate
(speed, rpm and gear where the model has them, pedal and steering bars) and the
pointers at the view's edge to cars that have left it (ghosts, the game's, yours),
laid out clear of the view's text."""

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


HUD_TEXT = QColor("#e6e6e6")


def paint_text_lines(p: QPainter, lines: list[tuple[str, str | None]]) -> QRectF:
    """The view's text at the top left, one (text, colour) a line: a line with a colour
    (a ghost's, the game car's) in it after a swatch of it. Returns the box it covers (px)."""
    metrics = p.fontMetrics()
    right = bottom = MARGIN
    for i, (text, colour) in enumerate(lines):
        baseline = MARGIN + metrics.ascent() + i * metrics.height()
        x = MARGIN
        if colour is not None:
            tint = QColor(colour)
            p.fillRect(QRectF(x, baseline - metrics.ascent() + 2, 10, 10), tint)
            p.setPen(tint)
            x += 16
        else:
            p.setPen(HUD_TEXT)
        p.drawText(x, baseline, text)
        right = max(right, x + metrics.horizontalAdvance(text))
        bottom = baseline + metrics.descent()
    return QRectF(MARGIN, MARGIN, right - MARGIN, bottom - MARGIN)


ARROW_PX = 12.0
"""px: an edge pointer's arrow, tip to base."""


@dataclass(frozen=True)
class Pointer:
    """An edge pointer laid out: its arrow's tip (px), its direction (unit vector) and
    where its text goes (px)."""

    tip: QPointF
    ux: float
    uy: float
    label: QRectF

    @property
    def arrow(self) -> QRectF:
        return _arrow_box(self.tip)


def _arrow_box(tip: QPointF) -> QRectF:
    """A box around an arrow whose tip is `tip` (px)."""
    return QRectF(tip.x() - ARROW_PX, tip.y() - ARROW_PX, 2 * ARROW_PX, 2 * ARROW_PX)


def _entry(cx: float, cy: float, dx: float, dy: float, box: QRectF) -> float | None:
    """The ray (cx, cy) + t·(dx, dy), t > 0: the t where it enters `box`, if it does."""
    near, far = 0.0, math.inf
    for origin, d, low, high in ((cx, dx, box.left(), box.right()), (cy, dy, box.top(), box.bottom())):
        if d == 0:
            if not low <= origin <= high:
                return None
            continue
        t1, t2 = sorted(((low - origin) / d, (high - origin) / d))
        near, far = max(near, t1), min(far, t2)
    return near if near <= far and near > 0 else None


def place_pointer(
    width: int, height: int, sx: float, sy: float, text: tuple[float, float], keep_clear: list[QRectF]
) -> Pointer | None:
    """If screen point (sx, sy) is outside the view, an arrow at the view's edge on the
    line from the centre towards it, and a place for its `text` (width, height px):
    neither on anything in `keep_clear` (the view's text, other pointers). The arrow
    stops short of text on its line; its text goes on the arrow's inner side, else
    beside, below or above it. None when the point is in view."""
    inset = MARGIN + 8
    if inset <= sx <= width - inset and inset <= sy <= height - inset:
        return None
    cx, cy = width / 2, height / 2
    dx, dy = sx - cx, sy - cy
    if dx == 0 and dy == 0:
        return None
    # the largest t with the point (cx + t·dx, cy + t·dy) still inside the inset box,
    # or short of the first text on the line (the arrow's length clear of it)
    t = min((cx - inset) / abs(dx) if dx else math.inf, (cy - inset) / abs(dy) if dy else math.inf)
    for rect in keep_clear:
        reach = 1.5 * ARROW_PX + 2  # the arrow's box around a tip half an arrow past the line's end
        grown = rect.adjusted(-reach, -reach, reach, reach)
        if grown.contains(QPointF(cx, cy)):
            continue  # a view too small to go round it
        hit = _entry(cx, cy, dx, dy, grown)
        if hit is not None:
            t = min(t, hit)
    ex, ey = cx + t * dx, cy + t * dy
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    tip = QPointF(ex + ux * ARROW_PX / 2, ey + uy * ARROW_PX / 2)
    w, h = text
    gap = ARROW_PX + 4
    spots = (
        (ex - ux * (gap + w / 2) - w / 2, ey - uy * (gap + h / 2) - h / 2),  # inside, towards the centre
        (ex + gap, ey - h / 2),  # right of the arrow
        (ex - gap - w, ey - h / 2),  # left of it
        (ex - w / 2, ey + gap),  # below
        (ex - w / 2, ey - gap - h),  # above
    )
    arrow = _arrow_box(tip)
    labels = []
    for x, y in spots:
        x, y = min(max(x, 2.0), width - w - 2), min(max(y, 2.0), height - h - 2)  # inside the view
        labels.append(QRectF(x, y, w, h))
    clear = [label for label in labels if not any(label.intersects(r) for r in [*keep_clear, arrow])]
    return Pointer(tip, ux, uy, (clear or labels)[0])


def paint_edge_pointer(p: QPainter, pointer: Pointer, colour: QColor, text: str) -> None:
    """The arrow of `pointer` in `colour`, with `text` (the gap) in its place."""
    tip, ux, uy, size = pointer.tip, pointer.ux, pointer.uy, ARROW_PX
    p.save()
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour)
    p.drawPolygon(
        QPolygonF(
            [
                tip,
                QPointF(tip.x() - ux * size - uy * size * 0.4, tip.y() - uy * size + ux * size * 0.4),
                QPointF(tip.x() - ux * size + uy * size * 0.4, tip.y() - uy * size - ux * size * 0.4),
            ]
        )
    )
    p.setPen(colour)
    p.drawText(pointer.label, Qt.AlignmentFlag.AlignCenter, text)
    p.restore()
