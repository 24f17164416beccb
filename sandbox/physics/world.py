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
Cones are not walls (a car knocks them over and is not stopped; `cones.py` counts
them): `cones` (c, 4) holds x, y, radius and the cone's number in the track, sorted by
x, so a query finds the cones near a box by bisection; `cone_reach` (1,) is the
largest cone's radius (0 without cones).
Surfaces of other grip (`surfaces.py` looks a point up): `surface_points` (k, 2) their
corners in order, `surface_offsets` (s + 1,) where each starts, `surface_grips` (s,)
their grip factors, `surface_boxes` (s, 4) their bounding boxes.

Items are numbered segments first, then circles, then polygons. A uniform grid finds
the items near a box without looking at the others: `grid` = (x0, y0, cell, nx, ny),
cell (i, j) covering [x0 + i·cell, x0 + (i+1)·cell) × [y0 + j·cell, ...); the items
whose bounding box touches cell c are `cell_items[cell_start[c]:cell_start[c + 1]]`
(CSR); `boxes` (items, 4) holds each item's bounding box (left, top, right, bottom),
also used to visit an item once when a query covers several of its cells.
A finer raster, `clear_grid` = (x0, y0, cell, nx, ny) over the same area, holds in
`clearance` a distance no point of each of its cells is nearer than to any item
(`clearance.py`): a car whose whole reach over a tick is shorter than that meets
nothing, found in one look-up (`clearance_at`); that keeps a car driving between
walls nearly as cheap as one on the open field.

These parts are the `World`'s properties; a kernel gets them packed in two flat arrays
(`World.floats`, `World.ints`) and reads them through the accessors below (`segment`,
`circle`, `corner`, `box`, ...): every array a compiled function is handed costs it
reference counting on each call, about 5 ns an array, so ten arrays cost a car more
than its whole tick.

The open field is the empty world (`EMPTY`): no items, no cells, and the contact
kernels move a car by exactly v·dt there (`has_walls` is false: a caller's loop can
test it once and skip the contact altogether).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .clearance import clearance_raster, raster_grid
from .kernel import kernel
from .track import Track

SEGMENT, CIRCLE, POLYGON = 0, 1, 2
"""Item kinds, in the order items are numbered."""
MAX_CELLS = 1 << 20
"""The grid never has more cells than this (a huge sparse track gets bigger cells)."""


_FLOAT_PARTS = (
    "grid", "segments", "circles", "poly_points", "poly_normals", "boxes", "clear_grid", "clearance",
    "cones", "cone_reach", "surface_points", "surface_grips", "surface_boxes",
)  # fmt: skip
_FLOAT_WIDTHS = (0, 4, 3, 2, 2, 4, 0, 0, 4, 0, 2, 0, 4)
"""Row widths of the float parts (0: a flat array)."""
_INT_PARTS = ("concave", "poly_offsets", "cell_start", "cell_items", "surface_offsets")
F_GRID, F_SEGMENTS, F_CIRCLES, F_POINTS, F_NORMALS, F_BOXES, F_CLEAR_GRID, F_CLEARANCE = range(8)
F_CONES, F_CONE_REACH, F_SURFACE_POINTS, F_SURFACE_GRIPS, F_SURFACE_BOXES = range(8, 13)
I_CONCAVE, I_POLY_OFFSETS, I_CELL_START, I_CELL_ITEMS, I_SURFACE_OFFSETS = range(13, 18)
N_SEGMENTS, N_CIRCLES, N_POLYGONS, N_CELL_ITEMS, N_CONES, N_SURFACES = range(18, 24)
HEADER = 24
"""`World.ints` starts with where each part starts (in `floats`, F_*; in `ints`, I_*)
and the counts (N_*)."""


class World(NamedTuple):
    """The world as a kernel takes it: two flat arrays (every array a kernel is handed
    costs it reference counting on each call, so the parts are packed in two). The
    parts, as arrays, are the properties of the same names (see the module's
    docstring); a kernel reads them through this module's accessors."""

    floats: np.ndarray
    ints: np.ndarray

    def _float_part(self, k: int) -> np.ndarray:
        begin = self.ints[k]
        end = self.ints[k + 1] if k + 1 < len(_FLOAT_PARTS) else len(self.floats)
        part = self.floats[begin:end]
        return part.reshape(-1, _FLOAT_WIDTHS[k]) if _FLOAT_WIDTHS[k] else part

    def _int_part(self, k: int) -> np.ndarray:
        begin = self.ints[k]
        end = self.ints[k + 1] if k + 1 < I_CONCAVE + len(_INT_PARTS) else len(self.ints)
        return self.ints[begin:end]

    grid = property(lambda self: self._float_part(F_GRID))
    segments = property(lambda self: self._float_part(F_SEGMENTS))
    circles = property(lambda self: self._float_part(F_CIRCLES))
    poly_points = property(lambda self: self._float_part(F_POINTS))
    poly_normals = property(lambda self: self._float_part(F_NORMALS))
    boxes = property(lambda self: self._float_part(F_BOXES))
    clear_grid = property(lambda self: self._float_part(F_CLEAR_GRID))
    clearance = property(lambda self: self._float_part(F_CLEARANCE))
    concave = property(lambda self: self._int_part(I_CONCAVE))
    poly_offsets = property(lambda self: self._int_part(I_POLY_OFFSETS))
    cell_start = property(lambda self: self._int_part(I_CELL_START))
    cell_items = property(lambda self: self._int_part(I_CELL_ITEMS))
    cones = property(lambda self: self._float_part(F_CONES))
    cone_reach = property(lambda self: self._float_part(F_CONE_REACH))
    surface_points = property(lambda self: self._float_part(F_SURFACE_POINTS))
    surface_grips = property(lambda self: self._float_part(F_SURFACE_GRIPS))
    surface_boxes = property(lambda self: self._float_part(F_SURFACE_BOXES))
    surface_offsets = property(lambda self: self._int_part(I_SURFACE_OFFSETS))


def _packed(parts: dict) -> World:
    """A World of its parts (name -> array)."""
    floats = [np.asarray(parts[name], dtype=np.float64).reshape(-1) for name in _FLOAT_PARTS]
    ints = [np.asarray(parts[name], dtype=np.int64).reshape(-1) for name in _INT_PARTS]
    float_starts = np.cumsum([0] + [len(f) for f in floats[:-1]])
    int_starts = HEADER + np.cumsum([0] + [len(i) for i in ints[:-1]])
    counts = [
        len(parts["segments"]),
        len(parts["circles"]),
        len(parts["poly_offsets"]) - 1,
        len(parts["cell_items"]),
        len(parts["cones"]),
        len(parts["surface_offsets"]) - 1,
    ]
    header = np.concatenate([float_starts, int_starts, counts]).astype(np.int64)
    world = World(np.concatenate(floats), np.concatenate([header, *ints]))
    world.floats.setflags(write=False)
    world.ints.setflags(write=False)
    return world


def build_world(track: Track, concave: bool = False) -> World:
    """The world of `track`'s walls (polylines, rectangles, circles), cones and surfaces
    in its unit; `concave`: its polylines are Godot concave polygons (else segment
    shapes)."""
    segments = []
    for line in track.polylines:
        points = np.asarray(line.points, dtype=np.float64)
        if line.closed and len(points) > 2:
            points = np.vstack([points, points[:1]])
        segments.extend(np.hstack([points[:-1], points[1:]]))
    circles = [(c.x, c.y, c.radius) for c in track.circles]
    polygons = [np.asarray(r.corners(), dtype=np.float64) for r in track.rects]
    cones = [(c.x, c.y, c.radius) for c in track.cones]
    surfaces = [(s.polygon, s.grip) for s in track.surfaces]
    return from_shapes(segments, circles, polygons, np.full(len(segments), concave), cones=cones, surfaces=surfaces)


def from_shapes(segments, circles, polygons, concave=None, max_cells: int = MAX_CELLS, cones=(), surfaces=()) -> World:
    """A world of `segments` ((n, 4) or rows of 4), `circles` (rows x, y, r) and convex
    `polygons` (a list of (k, 2) vertex arrays, in order around each); `concave`
    (n,): which segments are pieces of Godot concave polygons (default none);
    `max_cells`: the most cells the grid may have; `cones` (rows x, y, r, numbered
    in their order); `surfaces` (pairs of a (k, 2) polygon and its grip factor)."""
    seg = np.asarray(segments, dtype=np.float64).reshape(-1, 4)
    flags = np.zeros(len(seg), dtype=np.uint8) if concave is None else np.asarray(concave, dtype=np.uint8).reshape(-1)
    circ = np.asarray(circles, dtype=np.float64).reshape(-1, 3)
    points, normals, offsets = _polygons(polygons)
    boxes = np.vstack([_segment_boxes(seg), _circle_boxes(circ), _polygon_boxes(points, offsets)])
    grid, cell_start, cell_items = _grid(boxes, max_cells)
    clear_grid = raster_grid(grid)
    clearance = clearance_raster(seg, circ, points, offsets, boxes, clear_grid)
    return _packed(
        dict(
            segments=seg,
            concave=flags,
            circles=circ,
            poly_points=points,
            poly_normals=normals,
            poly_offsets=offsets,
            boxes=boxes,
            grid=grid,
            cell_start=cell_start,
            cell_items=cell_items,
            clear_grid=clear_grid,
            clearance=clearance,
            cones=_cones(cones),
            cone_reach=[max((float(c[2]) for c in cones), default=0.0)],
            **_surfaces(surfaces),
        )
    )


def _cones(cones) -> np.ndarray:
    """Rows x, y, radius, number (the cone's place in `cones`), sorted by x."""
    c = np.asarray(cones, dtype=np.float64).reshape(-1, 3)
    rows = np.column_stack([c, np.arange(len(c), dtype=np.float64)])
    return rows[np.argsort(rows[:, 0], kind="stable")]


def _surfaces(surfaces) -> dict:
    points = [np.asarray(polygon, dtype=np.float64).reshape(-1, 2) for polygon, _ in surfaces]
    return dict(
        surface_points=np.vstack(points) if points else np.zeros((0, 2)),
        surface_grips=np.array([float(grip) for _, grip in surfaces]),
        surface_boxes=np.array([[*p.min(axis=0), *p.max(axis=0)] for p in points]).reshape(-1, 4),
        surface_offsets=np.concatenate([[0], np.cumsum([len(p) for p in points])]).astype(np.int64),
    )


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
def grid_value(world, k: int) -> float:
    """The grid's x0, y0, cell, nx or ny (k = 0 … 4)."""
    return world.floats[world.ints[F_GRID] + k]


@kernel
def cell_index(world, value: float, axis: int) -> int:
    """The grid column (axis 0) or row (axis 1) holding `value`, clamped."""
    k = math.floor((value - grid_value(world, axis)) / grid_value(world, 2))
    return int(min(max(k, 0.0), grid_value(world, 3 + axis) - 1))


@kernel(inline=True)
def raster_of(world):
    """The clearance raster as (x0, y0, cell, nx, ny, where its values start in
    `world.floats`): read once, out of a loop over cars."""
    at = world.ints[F_CLEAR_GRID]
    f = world.floats
    return f[at], f[at + 1], f[at + 2], f[at + 3], f[at + 4], world.ints[F_CLEARANCE]


@kernel(inline=True)
def raster_look(raster, x: float, y: float):
    """(how far (x, y) lies outside `raster` (0 inside), where its nearest cell's value
    sits in `world.floats`): a look-up without the read, so that a loop over cars
    computes it for all of them at once and reads the values after."""
    x0, y0, cell, nx, ny, first = raster
    u, v = (x - x0) / cell, (y - y0) / cell
    i, j = min(max(math.floor(u), 0.0), nx - 1), min(max(math.floor(v), 0.0), ny - 1)
    return max(-u, u - nx, -v, v - ny, 0.0) * cell, first + int(j * nx + i)


@kernel(inline=True)
def clearance_at(world, x: float, y: float) -> float:
    """A distance from (x, y) that no item is nearer than: the clearance raster's
    value at the point; a point outside the raster is at least as far from every item
    as from the raster's edge, and at least its nearest raster cell's value (the items
    lie inside, so the point's nearest raster point is between them and it). A world
    with walls only (`has_walls`): the open field has no raster."""
    outside, at = raster_look(raster_of(world), x, y)
    return max(outside, world.floats[at])


@kernel
def has_walls(world) -> bool:
    """Whether there is anything to meet (the open field has nothing)."""
    return world.ints[N_CELL_ITEMS] > 0


@kernel
def cell_first(world, c: int) -> int:
    """Where cell `c`'s items start in the CSR list (cell c + 1's start is its end)."""
    return world.ints[world.ints[I_CELL_START] + c]


@kernel
def cell_item(world, k: int) -> int:
    """Item number `k` of the CSR list."""
    return world.ints[world.ints[I_CELL_ITEMS] + k]


@kernel
def box(world, item: int, k: int) -> float:
    """Item `item`'s bounding box: left, top, right, bottom (k = 0 … 3)."""
    return world.floats[world.ints[F_BOXES] + 4 * item + k]


@kernel
def segment(world, i: int, k: int) -> float:
    """Segment `i`'s x1, y1, x2, y2 (k = 0 … 3)."""
    return world.floats[world.ints[F_SEGMENTS] + 4 * i + k]


@kernel
def is_concave(world, i: int) -> bool:
    """Whether segment `i` is a piece of a Godot concave polygon."""
    return world.ints[world.ints[I_CONCAVE] + i] != 0


@kernel
def circle(world, i: int, k: int) -> float:
    """Circle `i`'s x, y, radius (k = 0 … 2)."""
    return world.floats[world.ints[F_CIRCLES] + 3 * i + k]


@kernel
def polygon_start(world, p: int) -> int:
    """Where polygon `p`'s corners start (polygon p + 1's start is its end)."""
    return world.ints[world.ints[I_POLY_OFFSETS] + p]


@kernel
def corner(world, k: int, axis: int) -> float:
    """Polygon corner `k`'s x (axis 0) or y (1)."""
    return world.floats[world.ints[F_POINTS] + 2 * k + axis]


@kernel
def face_normal(world, k: int, axis: int) -> float:
    """The outward normal's x (axis 0) or y (1) of the face from corner k to the next."""
    return world.floats[world.ints[F_NORMALS] + 2 * k + axis]


@kernel
def item_kind(world, item: int) -> tuple[int, int]:
    """(kind, index among its kind) of item number `item`."""
    n_seg = world.ints[N_SEGMENTS]
    if item < n_seg:
        return SEGMENT, item
    item -= n_seg
    if item < world.ints[N_CIRCLES]:
        return CIRCLE, item
    return POLYGON, item - world.ints[N_CIRCLES]


EMPTY = from_shapes(np.zeros((0, 4)), np.zeros((0, 3)), [])
"""The open field: nothing to meet."""
