"""A Godot 4 TileMap's collision as walls: each cell's tile's physics polygons (solid, as
Godot builds them) placed at the cell's centre on the map.

Read: a `TileMap` node (Godot 4.0 to 4.4) with its `layer_N/tile_data` (Godot's cell format
of three 32-bit numbers per cell: x and y in the first, the source id and the atlas x in
the second, the atlas y and the alternative tile in the third, each in 16 bits), a
`TileSet` of square tiles (`tile_size`) whose atlas sources hold the polygons as
`X:Y/ALT/physics_layer_P/polygon_I/points`, around the tile's centre; a cell is centred on
(cell + ½) × tile_size in the map's own coordinates (Godot's `map_to_local` for square
tiles). An alternative tile's flips and transpose (its `flip_h`, `flip_v`, `transpose`, or
the flags Godot 4.2+ keeps in the alternative id's bits 12 to 14) are applied as Godot's
TileData::get_transformed_vertices does: transpose first, then the flips. A physics layer
the car does not meet (its `collision_layer`, Godot 4's one-way test), a disabled map
layer and one-way polygons (kept as walls, named) are handled as bodies' shapes are.
Named and left out: Godot 3 tile maps, `TileMapLayer` nodes (Godot 4.3+'s packed byte
format), tiles that are not square, scene-collection sources.
"""

from __future__ import annotations

import re

import numpy as np

from ..physics.track import Polyline
from .godot_level_shapes import Transform, apply
from .godot_level_walls import points_of, resource, vector
from .tscn_reader import Call

FLIP_H, FLIP_V, TRANSPOSE = 1 << 12, 1 << 13, 1 << 14
"""Godot 4.2+'s transform flags in an alternative tile's id."""
_POLYGON = re.compile(r"(-?\d+):(-?\d+)/(\d+)/physics_layer_(\d+)/polygon_(\d+)/points")
_LAYER = re.compile(r"layer_(\d+)/tile_data")


def _polygons(atlas: dict, where: str, error) -> dict:
    """{(atlas x, atlas y, alternative): [(physics layer, polygon index, (n, 2) points)]}."""
    found: dict = {}
    for key, value in atlas.items():
        m = _POLYGON.fullmatch(key)
        if m:
            points = points_of(value, f"{where}: {key}", error)
            if len(points) >= 3:
                x, y, alternative, layer, index = (int(g) for g in m.groups())
                found.setdefault((x, y, alternative), []).append((layer, index, points))
    return found


def _turned(points: np.ndarray, transpose: bool, flip_h: bool, flip_v: bool) -> np.ndarray:
    if transpose:
        points = points[:, ::-1]
    return points * np.array([-1.0 if flip_h else 1.0, -1.0 if flip_v else 1.0])


def tile_walls(level, node, here: Transform, where: str, error, meets) -> list[Polyline]:
    """The walls of a Godot 4 TileMap `node` at its global transform `here`; what is not
    read is noted on `level`. `meets(layer, mask)`: whether the car meets a physics layer."""
    if level.godot != 4 or node.type != "TileMap":
        level.note("tile maps: their collision is not read (Godot 4 TileMap nodes only)", where)
        return []
    value, file = node.source("tile_set")
    found = resource(level, value, file, f"{where}: tile_set", error)
    if found is None:
        return []
    _, tile_set, tile_file = found
    if tile_set.get("tile_shape", 0) != 0:
        level.note("tile maps of tiles that are not square: their collision is not read", where)
        return []
    size = vector(tile_set.get("tile_size", Call("Vector2i", (16, 16))), f"{where}: tile_set tile_size", error)
    sources = {}
    for key, ref in tile_set.items():
        if key.startswith("sources/"):
            source = resource(level, ref, tile_file, f"{where}: tile_set {key}", error)
            if source is not None and source[0] == "TileSetAtlasSource":
                sources[int(key.split("/")[1])] = (_polygons(source[1], f"{where}: tile_set {key}", error), source[1])
    walls: list[Polyline] = []
    for key, data in node.props.items():
        m = _LAYER.fullmatch(key)
        if m is None or node.props.get(f"layer_{m.group(1)}/enabled") is False:
            continue
        words = data.args if isinstance(data, Call) else None
        if words is None or len(words) % 3 or not all(isinstance(w, int) and not isinstance(w, bool) for w in words):
            raise error(f"{where}: {key}: not cells of three whole numbers each, as Godot 4 writes them")
        cells = np.asarray(words, dtype=np.int64).reshape(-1, 3) & 0xFFFFFFFF
        for packed, source_word, atlas_word in cells.tolist():
            x, y = _int16(packed & 0xFFFF), _int16(packed >> 16)
            source_id, atlas_x = source_word & 0xFFFF, source_word >> 16
            atlas_y, alternative = atlas_word & 0xFFFF, atlas_word >> 16
            polygons, atlas = sources.get(source_id, ({}, {}))
            base = alternative & 0xFFF
            flags = (
                bool(alternative & TRANSPOSE) or atlas.get(f"{atlas_x}:{atlas_y}/{base}/transpose") is True,
                bool(alternative & FLIP_H) or atlas.get(f"{atlas_x}:{atlas_y}/{base}/flip_h") is True,
                bool(alternative & FLIP_V) or atlas.get(f"{atlas_x}:{atlas_y}/{base}/flip_v") is True,
            )
            centre = np.array([(x + 0.5) * size[0], (y + 0.5) * size[1]])
            for layer, index, points in polygons.get((atlas_x, atlas_y, base), ()):
                layer_of = tile_set.get(f"physics_layer_{layer}/collision_layer", 1)
                if not meets(layer_of, tile_set.get(f"physics_layer_{layer}/collision_mask", 1)):
                    level.note("tile map physics layers the car does not meet: not walls", where)
                    continue
                if atlas.get(f"{atlas_x}:{atlas_y}/{base}/physics_layer_{layer}/polygon_{index}/one_way") is True:
                    level.note("one-way collision is not read: these are walls from both sides", where)
                walls.append(Polyline(apply(here, _turned(points, *flags) + centre), closed=True))
    return walls


def _int16(value: int) -> int:
    return value - 0x10000 if value & 0x8000 else value
