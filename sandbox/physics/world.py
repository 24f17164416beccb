"""The world a car meets, as the compiled kernels take it: static arrays built once
from a `Track`, in the track's unit (the model's: px or m).

Shapes are the kinds Godot's 2D physics has, so a contact kernel can follow the
engine's rules shape by shape:
- segments (n, 4): x1, y1, x2, y2: every open polyline's pieces and every closed
  polyline's outline, each as a Godot `SegmentShape2D`; `concave` (n,) is 1 for the
  pieces of a `ConcavePolygonShape2D` (or a `CollisionPolygon2D` in segments mode),
  which Godot 3 looks at only when the car's own box already crosses them (see
  docs/tracks.md): a level importer that read one says so, `build_world(track,
  concave=True)`;
- circles (m, 3): x, y, radius (`CircleShape2D`);
- convex polygons: their vertices in order, `poly_points` (k, 2), each edge's outward
  unit normal `poly_normals` (k, 2) (edge i runs from vertex i to the next), and where
  each polygon starts, `poly_offsets` (p + 1,): a rectangle is one (`RectangleShape2D`
  and `ConvexPolygonShape2D` have the same faces and corners).
Cones are not walls here: a knocked cone stops being solid, which needs a car's state.

Items are numbered segments first, then circles, then polygons. A uniform grid finds
the items near a box without looking at the others: `grid` = (x0, y0, cell, nx, ny),
cell (i, j) covering [x0 + i·cell, x0 + (i+1)·cell) × [y0 + j·cell, ...); the items
whose bounding box touches cell c are `cell_items[cell_start[c]:cell_start[c + 1]]`
(CSR); `boxes` (items, 4) holds each item's bounding box (left, top, right, bottom),
also used to visit an item once when a query covers several of its cells.

The open field is the empty world (`EMPTY`): no items, no cells, and the contact
kernels move a car by exactly v·dt there.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .kernel import kernel
from .track import Track

SEGMENT, CIRCLE, POLYGON = 0, 1, 2
"""Item kinds, in the order items are numbered."""
MAX_CELLS = 1 << 20
"""The grid never has more cells than this (a huge sparse track gets bigger cells)."""


class World(NamedTuple):
    """Static arrays a kernel takes as one argument (see the module's docstring)."""

    segments: np.ndarray
    concave: np.ndarray
    circles: np.ndarray
    poly_points: np.ndarray
    poly_normals: np.ndarray
    poly_offsets: np.ndarray
    boxes: np.ndarray
    grid: np.ndarray
    cell_start: np.ndarray
    cell_items: np.ndarray


def build_world(track: Track, concave: bool = False) -> World:
    """The world of `track`'s walls (polylines, rectangles, circles) in its unit;
    `concave`: its polylines are Godot concave polygons (else segment shapes)."""
    segments = []
    for line in track.polylines:
        points = np.asarray(line.points, dtype=np.float64)
        if line.closed and len(points) > 2:
            points = np.vstack([points, points[:1]])
        segments.extend(np.hstack([points[:-1], points[1:]]))
    circles = [(c.x, c.y, c.radius) for c in track.circles]
    polygons = [np.asarray(r.corners(), dtype=np.float64) for r in track.rects]
    return from_shapes(segments, circles, polygons, np.full(len(segments), concave))


def from_shapes(segments, circles, polygons, concave=None, max_cells: int = MAX_CELLS) -> World:
    """A world of `segments` ((n, 4) or rows of 4), `circles` (rows x, y, r) and convex
    `polygons` (a list of (k, 2) vertex arrays, in order around each); `concave`
    (n,): which segments are pieces of Godot concave polygons (default none);
    `max_cells`: the most cells the grid may have."""
    seg = np.asarray(segments, dtype=np.float64).reshape(-1, 4)
    flags = np.zeros(len(seg), dtype=np.uint8) if concave is None else np.asarray(concave, dtype=np.uint8).reshape(-1)
    circ = np.asarray(circles, dtype=np.float64).reshape(-1, 3)
    points, normals, offsets = _polygons(polygons)
    boxes = np.vstack([_segment_boxes(seg), _circle_boxes(circ), _polygon_boxes(points, offsets)])
    grid, cell_start, cell_items = _grid(boxes, max_cells)
    world = World(seg, flags, circ, points, normals, offsets, boxes, grid, cell_start, cell_items)
    for array in world:
        array.setflags(write=False)
    return world


def _polygons(polygons):
    points, normals, offsets = [], [], [0]
    for polygon in polygons:
        p = np.asarray(polygon, dtype=np.float64).reshape(-1, 2)
        edges = np.roll(p, -1, axis=0) - p
        n = np.column_stack([edges[:, 1], -edges[:, 0]])
        n /= np.hypot(n[:, 0], n[:, 1])[:, None]
        middles = p + edges / 2
        if np.sum(n * (middles - p.mean(axis=0))) < 0:  # inward: the other winding
            n = -n
        points.append(p)
        normals.append(n)
        offsets.append(offsets[-1] + len(p))
    empty = np.zeros((0, 2))
    return (
        np.vstack(points) if points else empty,
        np.vstack(normals) if normals else empty.copy(),
        np.asarray(offsets, dtype=np.int64),
    )


def _segment_boxes(seg):
    return np.column_stack(
        [
            np.minimum(seg[:, 0], seg[:, 2]),
            np.minimum(seg[:, 1], seg[:, 3]),
            np.maximum(seg[:, 0], seg[:, 2]),
            np.maximum(seg[:, 1], seg[:, 3]),
        ]
    ).reshape(-1, 4)


def _circle_boxes(circ):
    x, y, r = circ[:, 0], circ[:, 1], circ[:, 2]
    return np.column_stack([x - r, y - r, x + r, y + r]).reshape(-1, 4)


def _polygon_boxes(points, offsets):
    return np.array(
        [[*points[a:b].min(axis=0), *points[a:b].max(axis=0)] for a, b in zip(offsets[:-1], offsets[1:])]
    ).reshape(-1, 4)


def _grid(boxes, max_cells):
    """(grid, cell_start, cell_items) for items with bounding `boxes`: cells about
    the size of an item, as many as items or so, at most `max_cells`."""
    if len(boxes) == 0:
        return np.zeros(5), np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    left, top = boxes[:, 0].min(), boxes[:, 1].min()
    width, height = boxes[:, 2].max() - left, boxes[:, 3].max() - top
    extent = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    cell = max(float(np.median(extent)), math.sqrt(width * height / len(boxes)), 1e-9 * max(width, height, 1.0))
    while max(1, math.ceil(width / cell + 1e-9)) * max(1, math.ceil(height / cell + 1e-9)) > max_cells:
        cell *= 2
    nx, ny = max(1, math.ceil(width / cell + 1e-9)), max(1, math.ceil(height / cell + 1e-9))
    grid = np.array([left, top, cell, nx, ny], dtype=np.float64)
    first = _cells(boxes[:, 0], boxes[:, 1], grid)
    last = _cells(boxes[:, 2], boxes[:, 3], grid)
    counts = np.zeros(nx * ny, dtype=np.int64)
    pairs = []
    for item, ((i0, j0), (i1, j1)) in enumerate(zip(first, last)):
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                pairs.append((j * nx + i, item))
                counts[j * nx + i] += 1
    pairs.sort()
    cell_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    cell_items = np.array([item for _, item in pairs], dtype=np.int64)
    return grid, cell_start, cell_items


def _cells(x, y, grid):
    """Cell columns and rows of points (x, y) (arrays), clamped into the grid."""
    i = np.clip(np.floor((x - grid[0]) / grid[2]), 0, grid[3] - 1).astype(np.int64)
    j = np.clip(np.floor((y - grid[1]) / grid[2]), 0, grid[4] - 1).astype(np.int64)
    return np.column_stack([i, j])


@kernel
def cell_index(grid, value: float, origin: int, count: int) -> int:
    """The grid column (origin 0, count 3) or row (1, 4) holding `value`, clamped."""
    k = math.floor((value - grid[origin]) / grid[2])
    return int(min(max(k, 0.0), grid[count] - 1))


@kernel
def item_kind(world, item: int) -> tuple[int, int]:
    """(kind, index in its kind's arrays) of item number `item`."""
    n_seg = world.segments.shape[0]
    if item < n_seg:
        return SEGMENT, item
    item -= n_seg
    n_circ = world.circles.shape[0]
    if item < n_circ:
        return CIRCLE, item
    return POLYGON, item - n_circ


EMPTY = from_shapes(np.zeros((0, 4)), np.zeros((0, 3)), [])
"""The open field: nothing to meet."""
