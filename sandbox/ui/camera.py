"""Where the car view looks and how close: the camera follows your car, the linked
game's car, or keeps both in view (zooming out as far as that needs, never closer than
your zoom). Pure geometry in the view's units and screen pixels, no painting."""

from __future__ import annotations

import math

ZOOM_RANGE = (0.01, 8.0)
"""The view's zoom range (×): the mouse wheel and View → Zoom stay within it (its low
end shows a whole quarter-mile drag strip, View → Zoom to track)."""
BOTH_LOWEST_ZOOM = 0.1
"""Keeping both cars in view zooms out no further than this (×): a car stays a few px."""
CAMERAS = (
    (
        "car",
        "Follow &my car",
        "F2",
        "The camera follows the sandbox car (the game's car, when off the view, is an arrow)",
    ),
    (
        "game",
        "Follow the &game's car",
        "F3",
        "The camera follows the linked game's car; your car, when off the view, is an arrow",
    ),
    (
        "both",
        "Keep &both cars in view",
        "F4",
        "While a game is linked, the camera keeps your car and the game's in view, zooming out as far as "
        "that needs (never closer than your zoom); your car alone otherwise",
    ),
)
"""View menu's camera choices: (value, text, shortcut, tip)."""
CAMERA_VALUES = tuple(value for value, *_ in CAMERAS)
DEFAULT_CAMERA = "both"
"""Linked, a user watches the game's car as much as their own; unlinked it is the same as "car"."""
FIT_MARGIN_PX = 60
"""Screen px kept between either car and the view's edge while both are in view."""


def frame(
    mode: str,
    car: tuple[float, float] | None,
    game: tuple[float, float] | None,
    size: tuple[int, int],
    zoom: float,
    unit_scale: float,
    reach: tuple[float, float] = (0.0, 0.0),
) -> tuple[float, float, float]:
    """(centre x, centre y, zoom shown) for camera `mode` ("car", "game", "both"): `car`
    and `game` the two cars' positions (view units; None when absent), `size` the view
    (px), `zoom` the user's, `unit_scale` px per unit at zoom 1, `reach` each car's
    half-length (units). "both" centres the box around both and zooms out until it fits
    within FIT_MARGIN_PX of the edges, down to BOTH_LOWEST_ZOOM; further apart
    than that, your car stays in view and the centre moves as far towards the game's as
    it can."""
    home = car if car is not None else (game if game is not None else (0.0, 0.0))
    if mode == "game" and game is not None:
        return game[0], game[1], zoom
    if mode != "both" or car is None or game is None:
        return home[0], home[1], zoom
    width, height = size
    room_x, room_y = max(width - 2 * FIT_MARGIN_PX, 1), max(height - 2 * FIT_MARGIN_PX, 1)
    xs = (car[0] - reach[0], car[0] + reach[0], game[0] - reach[1], game[0] + reach[1])
    ys = (car[1] - reach[0], car[1] + reach[0], game[1] - reach[1], game[1] + reach[1])
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    fit = min(room_x / max(span_x * unit_scale, 1e-9), room_y / max(span_y * unit_scale, 1e-9))
    shown = max(min(zoom, fit), min(BOTH_LOWEST_ZOOM, zoom))
    mid_x, mid_y = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    # how far the centre may stray from your car with your car still FIT_MARGIN_PX inside
    scale = shown * unit_scale
    free_x = max(width / 2 - FIT_MARGIN_PX, 0) / scale - reach[0]
    free_y = max(height / 2 - FIT_MARGIN_PX, 0) / scale - reach[0]
    cx = car[0] + _clamp(mid_x - car[0], max(free_x, 0.0))
    cy = car[1] + _clamp(mid_y - car[1], max(free_y, 0.0))
    return cx, cy, shown


def _clamp(value: float, limit: float) -> float:
    return math.copysign(min(abs(value), limit), value)
