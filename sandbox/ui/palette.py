"""The colours that mean the same thing everywhere: the car and each ghost are one
colour in the view, the plots, the readouts and the metrics table."""

from __future__ import annotations

CAR = "#4fc3f7"
"""The car's curves and readouts (its body is drawn in a deeper blue)."""
GHOSTS = ("#f48fb1", "#ffe082", "#80cbc4", "#b39ddb")
"""Ghost 1, 2, 3, 4: pink, amber, teal, lavender."""
GAME = "#ff5252"
"""The car in the linked Godot game (red): its body in the view, its curves and readout."""
CHANNELS = ("#aed581", "#ff8a65", "#fff176", "#ce93d8")
"""The channel plot's curves (first to fourth): green, orange, yellow, purple."""


def ghost_colour(index: int) -> str:
    return GHOSTS[index % len(GHOSTS)]
