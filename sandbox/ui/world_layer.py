"""The world under the car in the car view: a track drawn in the view's units, kept as
a picture of the part around the view at the view's scale, so a frame only copies
pixels (the club circuit's 463 wall points drawn afresh cost 1.5–2 ms a frame; the copy
a fraction of that, see docs/window.md). The picture is drawn again when the scale
changes or the view nears its edge.

How each model's car meets the walls drawn is said beside the track (`contact_note`).
The cones the car has knocked (`set_knocked`, from its state) are drawn knocked over;
the picture is drawn again when that set changes (a knock, a reset)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter

from ..physics.car_shape import ENGINE_CHOICES, ENGINE_NAME
from ..physics.track import Track
from .track_painter import paint_racing_line, paint_track

CONTACT = (
    "the arcade, bicycle and Ackermann cars meet its walls as move_and_slide does in the engine "
    "their tuning names (Engine: Godot 4 or Godot 3); the rigid body and the dynamic car bounce off "
    "them (the track's restitution and friction); every car knocks cones over (counted, never solid); "
    "a surface's grip scales the dynamic car's and the rigid body's tyre grip"
)
"""What cars do at a track's walls, cones and surfaces, said where a track is chosen."""


def contact_note(model, tuning) -> str:
    """What `model`'s car with `tuning` does at a track's walls, said where the track is shown."""
    if getattr(model, "WALL_IMPULSE", False):
        return "walls met with a bounce: the track's restitution and friction"
    if getattr(model, "MEETS_WALLS", False):
        return f"walls met as in {ENGINE_CHOICES[int(tuning[ENGINE_NAME])]}"
    return f"the {model.TITLE} car passes through walls for now"


def surface_note(model) -> str:
    """What a track's surfaces do to `model`'s car (its `GRIP_PARAMS`: physics/surfaces.py)."""
    if getattr(model, "GRIP_PARAMS", ()):
        return "surfaces scale its tyre grip"
    return "surfaces leave it as it is (it has no tyre grip to scale)"


def world_note(model, tuning, track: Track | None) -> str:
    """What `model`'s car with `tuning` does on `track`: `contact_note`, and
    `surface_note` where the track has surfaces."""
    note = contact_note(model, tuning)
    return note if track is None or not track.surfaces else f"{note}; {surface_note(model)}"


MARGIN = 0.25
"""The picture reaches this share of the view's size beyond each of its edges (cut to
the track's bounds: no picture of empty ground)."""
EDGE_PX = 20
"""Screen px kept around the track's bounds in the picture: wide lines, the spawn's arrow."""


class WorldLayer:
    """The track drawn under the car: `set_track` (any unit) and `set_unit` (the view's
    model unit) give `track` in the view's unit; `paint` draws it from the picture kept."""

    def __init__(self):
        self.source: Track | None = None  # as opened, in its own unit
        self.track: Track | None = None  # in the view's unit
        self.unit = "px"
        self._image: QImage | None = None  # None: not drawn, or nothing of the track near the view
        self._key = None  # (scale, device pixel ratio) the picture was drawn at
        self._covered = QRectF()  # the world (view units) the picture stands for
        self._area = QRectF()  # the part of it drawn: the track's bounds within it
        self.knocked: frozenset[int] = frozenset()  # the cones drawn knocked over (their numbers)
        self.racing_line = None  # the lap driver's line (view units) while it drives; None: not drawn

    def set_track(self, track: Track | None) -> None:
        self.source = track
        self._convert()

    def set_unit(self, unit: str) -> None:
        self.unit = unit
        self._convert()

    def set_knocked(self, numbers) -> None:
        """Draw the cones numbered `numbers` (their places in the track) knocked over."""
        knocked = frozenset(int(n) for n in numbers)
        if knocked != self.knocked:
            self.knocked = knocked
            self._image, self._key = None, None

    def set_racing_line(self, points) -> None:
        """Draw the lap driver's racing line (points (n, 2) in the view's unit, closed), or
        none (None)."""
        self.racing_line = None if points is None else [(float(x), float(y)) for x, y in points]
        self._image, self._key = None, None

    def _convert(self) -> None:
        self.track = None if self.source is None else self.source.in_unit(self.unit)
        self._image, self._key = None, None

    def paint(
        self, p: QPainter, centre: tuple[float, float], scale: float, size: tuple[int, int], ratio: float
    ) -> None:
        """Draw the track with `p` in screen px (no transform): the view centred on
        `centre` (view units) at `scale` screen px per unit, `size` (px) the view's,
        `ratio` the device pixel ratio."""
        if self.track is None:
            return
        w, h = size
        seen = QRectF(centre[0] - w / 2 / scale, centre[1] - h / 2 / scale, w / scale, h / scale)
        if self._key != (scale, ratio) or not self._covered.contains(seen):
            self._draw(seen, scale, ratio)
        if self._image is None:
            return
        # the picture's top left on screen, whole device pixels: no resampling
        x = round((self._area.left() - seen.left()) * scale * ratio) / ratio
        y = round((self._area.top() - seen.top()) * scale * ratio) / ratio
        p.drawImage(QPointF(x, y), self._image)

    def _draw(self, seen: QRectF, scale: float, ratio: float) -> None:
        """The picture of `seen` and MARGIN of it around, at `scale`, cut to the track."""
        mx, my = seen.width() * MARGIN, seen.height() * MARGIN
        covered = seen.adjusted(-mx, -my, mx, my)
        left, top, right, bottom = self.track.bounds()
        edge = EDGE_PX / scale
        area = covered.intersected(QRectF(left, top, right - left, bottom - top).adjusted(-edge, -edge, edge, edge))
        self._key, self._covered, self._area = (scale, ratio), covered, area
        if area.isEmpty():
            self._image = None
            return
        width = max(1, math.ceil(area.width() * scale * ratio))
        height = max(1, math.ceil(area.height() * scale * ratio))
        image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        try:
            painter.scale(scale, scale)
            painter.translate(-area.left(), -area.top())
            paint_track(painter, self.track, self.knocked)
            if self.racing_line is not None:
                paint_racing_line(painter, self.racing_line)
        finally:
            painter.end()
        self._image = image

    def fit_zoom(
        self, around: tuple[float, float], size: tuple[int, int], unit_scale: float, margin_px: float
    ) -> float:
        """The zoom that shows the whole track in a view of `size` px centred on
        `around` (view units), `margin_px` inside each edge; `unit_scale` screen px per
        unit at zoom 1."""
        left, top, right, bottom = self.track.bounds()
        reach_x = max(around[0] - left, right - around[0], 1e-9)
        reach_y = max(around[1] - top, bottom - around[1], 1e-9)
        room_x, room_y = max(size[0] / 2 - margin_px, 1.0), max(size[1] / 2 - margin_px, 1.0)
        return min(room_x / reach_x, room_y / reach_y) / unit_scale
