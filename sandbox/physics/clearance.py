"""The clearance raster of a world (`world.World.clearance`): a fine grid over the
world's items where each cell holds a distance that no point of the cell is nearer
than to any item, so a contact kernel can tell in one look-up that a car cannot reach
a wall this tick (`world.clearance_at`) and move it as on the open field.

Each cell's value is the exact distance from its centre to the nearest item, less half
the cell's diagonal (a point of the cell is at most that far from the centre), never
below 0; items farther than `reach` cells are not looked for, so a cell with none
within that range holds the range (still a lower bound). Built once per track by one
compiled pass over the items (each item fills the cells within the range of its box).
"""

from __future__ import annotations

import math

import numpy as np

from .kernel import kernel

RASTER_CELLS = 1 << 20
"""The raster never has more cells than this (a huge track gets coarser cells)."""
CELLS_PER_GRID_CELL = 16
"""The raster's cell is at least the contact grid's cell / this."""
RANGE_CELLS = 16
"""cells: how far from each item the raster's distances are exact."""


def raster_grid(grid: np.ndarray) -> np.ndarray:
    """(x0, y0, cell, nx, ny) of the raster over the contact grid `grid` (the same
    five numbers of the grid holding every item's box); all zero without items."""
    x0, y0, cell, nx, ny = (float(v) for v in grid)
    if nx * ny == 0 or cell == 0.0:
        return np.zeros(5)
    width, height = cell * nx, cell * ny
    fine = max(cell / CELLS_PER_GRID_CELL, math.sqrt(width * height / RASTER_CELLS))
    while math.ceil(width / fine) * math.ceil(height / fine) > RASTER_CELLS:
        fine *= 1.25
    return np.array([x0, y0, fine, math.ceil(width / fine), math.ceil(height / fine)])


def clearance_raster(segments, circles, points, offsets, boxes, grid) -> np.ndarray:
    """The raster's values (ny·nx, row by row) for the items (world's arrays: segments
    (n, 4), circles (m, 3), polygon points (k, 2) with their offsets, every item's box
    (items, 4)) over `grid` = raster_grid(...)."""
    if grid[3] * grid[4] == 0:
        return np.zeros(0)
    return _fill(
        np.ascontiguousarray(segments, dtype=np.float64).reshape(-1, 4),
        np.ascontiguousarray(circles, dtype=np.float64).reshape(-1, 3),
        np.ascontiguousarray(points, dtype=np.float64).reshape(-1, 2),
        np.asarray(offsets, dtype=np.int64),
        np.ascontiguousarray(boxes, dtype=np.float64).reshape(-1, 4),
        np.asarray(grid, dtype=np.float64),
    )


@kernel
def _segment_distance(px, py, ax, ay, bx, by) -> float:
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 == 0.0 else min(max(((px - ax) * ex + (py - ay) * ey) / length2, 0.0), 1.0)
    dx, dy = px - (ax + t * ex), py - (ay + t * ey)
    return math.sqrt(dx * dx + dy * dy)


@kernel
def _polygon_distance(px, py, points, a, b) -> float:
    """Distance from (px, py) to the convex polygon of points[a:b] (0 inside)."""
    inside = True
    sign = 0.0
    best = math.inf
    for i in range(a, b):
        j = i + 1 if i + 1 < b else a
        ax, ay, bx, by = points[i, 0], points[i, 1], points[j, 0], points[j, 1]
        best = min(best, _segment_distance(px, py, ax, ay, bx, by))
        cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        if cross != 0.0:
            if sign == 0.0:
                sign = cross
            elif (cross > 0.0) != (sign > 0.0):
                inside = False
    return 0.0 if inside else best


@kernel
def _fill(segments, circles, points, offsets, boxes, grid):
    x0, y0, cell, nx, ny = grid[0], grid[1], grid[2], int(grid[3]), int(grid[4])
    reach = RANGE_CELLS * cell
    half_diagonal = cell * math.sqrt(0.5)
    values = np.full(nx * ny, reach)
    n_seg, n_circ = segments.shape[0], circles.shape[0]
    for item in range(boxes.shape[0]):
        i0 = max(int(math.floor((boxes[item, 0] - reach - x0) / cell)), 0)
        i1 = min(int(math.floor((boxes[item, 2] + reach - x0) / cell)), nx - 1)
        j0 = max(int(math.floor((boxes[item, 1] - reach - y0) / cell)), 0)
        j1 = min(int(math.floor((boxes[item, 3] + reach - y0) / cell)), ny - 1)
        for j in range(j0, j1 + 1):
            py = y0 + (j + 0.5) * cell
            for i in range(i0, i1 + 1):
                px = x0 + (i + 0.5) * cell
                if item < n_seg:
                    s = segments[item]
                    d = _segment_distance(px, py, s[0], s[1], s[2], s[3])
                elif item < n_seg + n_circ:
                    c = circles[item - n_seg]
                    d = max(math.sqrt((px - c[0]) ** 2 + (py - c[1]) ** 2) - c[2], 0.0)
                else:
                    p = item - n_seg - n_circ
                    d = _polygon_distance(px, py, points, offsets[p], offsets[p + 1])
                d = max(d - half_diagonal, 0.0)
                k = j * nx + i
                if d < values[k]:
                    values[k] = d
    return values
