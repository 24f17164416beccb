"""The car view's pointers to cars that have left it: an arrow at the edge towards each
(the ghosts, the linked game's car, and yours when the camera follows the game's), with
the distance, each laid out clear of the view's text and of the pointers before it."""

from __future__ import annotations

import math

from PySide6.QtGui import QColor, QPainter

from .palette import GAME, ghost_colour
from .view_overlays import paint_edge_pointer, place_pointer


def paint_pointers(p: QPainter, view, own: QColor) -> None:
    """Pointers of TrackView `view` in its units: the ghosts' and the game's with their
    distance from your car, yours (in `own`) with its distance from the game's. Each
    is added to `view.text_boxes` ("game pointer", "game distance", …) as drawn."""
    home = (0.0, 0.0) if view.state is None else (float(view.state.x[0]), float(view.state.y[0]))
    spots = [
        (f"ghost {c}", float(s.x[0]) * scale, float(s.y[0]) * scale, ghost_colour(c), home)
        for s, _, scale, c in view.ghosts
    ]
    if view.game is not None:
        spots.append(("game", view.game.x, view.game.y, GAME, home))
        if view.state is not None:
            spots.append(("car", *home, own.name(), (view.game.x, view.game.y)))
    metrics = p.fontMetrics()
    keep_clear = [box for _, box in view.text_boxes]
    for name, x, y, colour, other in spots:
        gap = math.hypot(x - other[0], y - other[1])
        text = f"{gap:.0f} {view.unit}" if gap >= 100 else f"{gap:.1f} {view.unit}"
        size = (metrics.horizontalAdvance(text) + 4, metrics.height())
        pointer = place_pointer(view.width(), view.height(), *view.to_screen(x, y), size, keep_clear)
        if pointer is None:
            continue
        paint_edge_pointer(p, pointer, QColor(colour), text)
        keep_clear += [pointer.label, pointer.arrow]
        view.text_boxes += [(f"{name} pointer", pointer.arrow), (f"{name} distance", pointer.label)]
