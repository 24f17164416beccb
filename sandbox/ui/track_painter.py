"""A track drawn with QPainter: walls, cones, surfaces, timing lines, the centre line
and the spawn, in the track's own coordinates (the caller's transform maps them to the
screen; lines keep their width in screen pixels whatever the zoom). The window draws it
under the car; `track_image` draws a whole track to a picture (`track info --png`)."""

from __future__ import annotations

import math
from collections.abc import Collection

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPainterPath, QPen, QPolygonF

from ..physics.track import Line, Track

GROUND = "#3b4a3a"
"""The ground between the walls (a picture's background)."""
WALL = "#b0b6bf"
WALL_FILL = "#6d737c"
CONE = "#ff9800"
CONE_KNOCKED = "#7a5a2a"
START = "#ffffff"
SECTOR = "#ffd54f"
CENTRE = "#9fb7a0"
SPAWN = "#4fc3f7"
SURFACE = "#8d6e63"
RACING_LINE = "#e040fb"
"""The lap driver's racing line (drawn while it drives)."""


def _pen(colour: str, width: float, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(QColor(colour), width, style)
    pen.setCosmetic(True)  # the width in screen pixels at any zoom
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return pen


def _polygon(points) -> QPolygonF:
    return QPolygonF([QPointF(float(x), float(y)) for x, y in points])


def paint_racing_line(painter: QPainter, points, line_px: float = 2.0) -> None:
    """The driver's racing line, a closed polyline of `points` in the painter's units."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(_pen(RACING_LINE, line_px))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPolygon(_polygon(points))
    painter.restore()


def paint_track(painter: QPainter, track: Track, knocked: Collection[int] = (), line_px: float = 2.0) -> None:
    """Draw `track` with `painter`, whose transform maps the track's units to the
    device; `knocked`: the indices of the cones knocked over (drawn flat and dim);
    `line_px`: the walls' line width in device pixels."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    for surface in track.surfaces:
        colour = QColor(SURFACE)
        colour.setAlphaF(min(0.8, 0.25 + 0.3 * abs(1.0 - surface.grip)))  # the farther from normal grip, the darker
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawPolygon(_polygon(surface.polygon))
    if track.centre_line is not None:
        painter.setPen(_pen(CENTRE, 1.0, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        outline = _polygon(track.centre_line.points)
        painter.drawPolygon(outline) if track.centre_line.closed else painter.drawPolyline(outline)
    painter.setPen(_pen(WALL, line_px))
    for line in track.polylines:
        outline = _polygon(line.points)
        if line.closed:
            painter.setBrush(QColor(WALL_FILL))
            painter.drawPolygon(outline)
        else:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolyline(outline)
    painter.setBrush(QColor(WALL_FILL))
    for rect in track.rects:
        painter.drawPolygon(_polygon(rect.corners()))
    for circle in track.circles:
        painter.drawEllipse(QPointF(circle.x, circle.y), circle.radius, circle.radius)
    _cones(painter, track, knocked, line_px)
    _spawn(painter, track, line_px)
    for sector in track.sectors:
        _timing_line(painter, sector, SECTOR, line_px)
    if track.start is not None:
        _timing_line(painter, track.start, START, line_px * 1.5)
    painter.restore()


def _scale(painter: QPainter) -> float:
    """Device pixels per track unit of the painter's transform."""
    t = painter.worldTransform()
    return max(math.hypot(t.m11(), t.m12()), 1e-12)


def _cones(painter: QPainter, track: Track, knocked: Collection[int], line_px: float) -> None:
    """Cones at their size, but never smaller than a few device pixels (a slalom seen whole)."""
    least = 2.5 * line_px / _scale(painter)
    painter.setPen(Qt.PenStyle.NoPen)
    for index, cone in enumerate(track.cones):
        painter.setBrush(QColor(CONE_KNOCKED if index in knocked else CONE))
        r = max(cone.radius, least)
        painter.drawEllipse(QPointF(cone.x, cone.y), r, r)


def _timing_line(painter: QPainter, line: Line, colour: str, width: float) -> None:
    """The line, and a short arrow from its middle the way a lap crosses it."""
    painter.setPen(_pen(colour, width))
    a, b = QPointF(line.x1, line.y1), QPointF(line.x2, line.y2)
    painter.drawLine(a, b)
    middle = (a + b) / 2
    size = max(math.hypot(line.x2 - line.x1, line.y2 - line.y1) * 0.25, 6 * width / _scale(painter))
    dx, dy = line.direction
    tip = middle + QPointF(dx, dy) * size
    painter.drawLine(middle, tip)
    for side in (1, -1):
        back = QPointF(-dx * 0.35 + side * -dy * 0.25, -dy * 0.35 + side * dx * 0.25) * size
        painter.drawLine(tip, tip + back)


def _spawn(painter: QPainter, track: Track, line_px: float) -> None:
    """A small arrow where the car starts, pointing its way."""
    s = track.spawn
    size = 8 * line_px / _scale(painter)
    c, n = QPointF(math.cos(s.heading), math.sin(s.heading)), QPointF(-math.sin(s.heading), math.cos(s.heading))
    at = QPointF(s.x, s.y)
    path = QPainterPath(at + c * size)
    path.lineTo(at - c * size * 0.6 + n * size * 0.5)
    path.lineTo(at - c * size * 0.6 - n * size * 0.5)
    path.closeSubpath()
    painter.setPen(_pen(SPAWN, line_px * 0.5))
    painter.setBrush(QBrush(QColor(SPAWN)))
    painter.drawPath(path)


MARGIN = 0.05
"""The picture's margin around the track, a share of its larger side."""


def fit_transform(track: Track, width: int, height: int, margin_px: float = 24.0):
    """(scale in device px per track unit, x offset, y offset) that shows the whole
    track in a device of width × height pixels, centred, with a margin."""
    left, top, right, bottom = track.bounds()
    span_x, span_y = max(right - left, 1e-9), max(bottom - top, 1e-9)
    if right - left == 0 and bottom - top == 0:  # the open field: only the spawn
        span_x = span_y = 50.0 if track.unit == "m" else 50.0 * track.pixels_per_metre
        left, top = track.spawn.x - span_x / 2, track.spawn.y - span_y / 2
    scale = min((width - 2 * margin_px) / span_x, (height - 2 * margin_px) / span_y)
    return scale, (width - scale * span_x) / 2 - scale * left, (height - scale * span_y) / 2 - scale * top


def picture_height(track: Track, width: int) -> int:
    """The height of a picture `width` wide that fits the track's shape (within 1/3 … 1 of the width)."""
    left, top, right, bottom = track.bounds()
    shape = (bottom - top) / (right - left) if right > left else 0.5
    return round(width * min(max(shape, 1 / 3), 1.0))


def track_image(track: Track, width: int = 1200, height: int | None = None) -> QImage:
    """A picture of the whole track: the ground, the track fitted in it, its name and a
    scale bar; `height` by the track's shape when not given (needs a QGuiApplication for
    the text)."""
    height = picture_height(track, width) if height is None else height
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(GROUND))
    painter = QPainter(image)
    try:
        scale, dx, dy = fit_transform(track, width, height)
        painter.translate(dx, dy)
        painter.scale(scale, scale)
        paint_track(painter, track)
        painter.resetTransform()
        _caption(painter, track, scale, height)
    finally:
        painter.end()
    return image


def _caption(painter: QPainter, track: Track, scale: float, height: int) -> None:
    """The track's name top left, and a scale bar of a round length bottom left."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    font = QFont()
    font.setPixelSize(16)
    painter.setFont(font)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(QRectF(12, 8, 800, 24), Qt.AlignmentFlag.AlignLeft, track.name)
    length = 10 ** math.floor(math.log10(max(150 / scale, 1e-9)))
    for k in (5, 2, 1):
        if k * length * scale <= 150:
            length *= k
            break
    bar = length * scale
    painter.setPen(_pen("#ffffff", 2.0))
    painter.drawLine(QPointF(12, height - 14), QPointF(12 + bar, height - 14))
    painter.drawText(QRectF(12, height - 38, 300, 20), Qt.AlignmentFlag.AlignLeft, f"{length:g} {track.unit}")
