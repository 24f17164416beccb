"""A Godot 4 TileMap's collision read into walls: each cell's tile polygons at the cell's
centre, flipped and transposed as the cell says, through the map's transform (hand-worked
from Godot 4's cell format and `map_to_local`); and the recipe "Car steering" demo's map,
whose walls are tiles, imported from its repository when a copy is on this machine."""

from pathlib import Path

import numpy as np
import pytest

from godot_level_projects import HEADER4, project
from sandbox.errors import UserError
from sandbox.files.godot_level import read_level


def cell(x: int, y: int, source: int, atlas_x: int, atlas_y: int, alternative: int = 0) -> list[int]:
    """Godot 4's three numbers of a cell: x and y, source and atlas x, atlas y and the
    alternative, 16 bits each, as signed 32-bit numbers."""

    def signed(word: int) -> int:
        return word - (1 << 32) if word & 0x80000000 else word

    return [
        signed(((y & 0xFFFF) << 16) | (x & 0xFFFF)),
        signed((atlas_x << 16) | source),
        signed((alternative << 16) | atlas_y),
    ]


CELLS = cell(0, 0, 3, 0, 0) + cell(-1, 2, 3, 0, 0, 1 << 12) + cell(3, -1, 3, 0, 0, 1 << 14) + cell(5, 5, 3, 1, 0)
TILES = (
    HEADER4
    + f"""[sub_resource type="TileSetAtlasSource" id="atlas"]
texture_region_size = Vector2i(32, 32)
0:0/0 = 0
0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-16, -16, 16, -16, -16, 16)
1:0/0 = 0
1:0/0/physics_layer_1/polygon_0/points = PackedVector2Array(-16, -16, 16, -16, 16, 16, -16, 16)
2:0/0 = 0
2:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-16, -16, 16, -16, 16, 16, -16, 16)
2:0/0/physics_layer_0/polygon_0/one_way = true

[sub_resource type="TileSet" id="tiles"]
tile_size = Vector2i(32, 32)
physics_layer_0/collision_layer = 1
physics_layer_1/collision_layer = 2
sources/3 = SubResource("atlas")

[node name="Map" type="Node2D"]

[node name="Walls" type="TileMap" parent="."]
position = Vector2(100, 0)
scale = Vector2(2, 2)
tile_set = SubResource("tiles")
format = 2
layer_0/tile_data = PackedInt32Array({", ".join(map(str, CELLS))})
layer_1/name = "decals"
layer_1/enabled = false
layer_1/tile_data = PackedInt32Array({", ".join(map(str, cell(9, 9, 3, 0, 0)))})
layer_2/tile_data = PackedInt32Array({", ".join(map(str, cell(7, 0, 3, 2, 0)))})
"""
)


def test_tile_polygons_sit_on_their_cells_flipped_as_the_cell_says(tmp_path):
    track = read_level(project(tmp_path, {"map.tscn": TILES}) / "map.tscn")
    walls = [p.points.tolist() for p in track.polylines]
    assert all(p.closed for p in track.polylines)
    # cell (0, 0): centre (16, 16); the map scales by 2 from (100, 0)
    assert [[100, 0], [164, 0], [100, 64]] in walls
    # cell (-1, 2) flipped across: centre (-16, 80), the triangle's x mirrored
    assert [[100, 128], [36, 128], [100, 192]] in walls
    # cell (3, -1) transposed: centre (112, -16), x and y swapped
    assert [[292, -64], [292, 0], [356, -64]] in walls
    # cell (7, 0) of a one-way tile: a wall, named; tile 1:0 is on physics layer 2 (the car
    # meets layer 1 only); layer_1 of the map is disabled
    assert [[548, 0], [612, 0], [612, 64], [548, 64]] in walls
    assert len(walls) == 4
    notes = "\n".join(track.notes)
    assert "one-way" in notes and "tile map physics layers the car does not meet" in notes
    assert notes.count("Map/Walls") == 2


DEMO = Path(__file__).parent / "data" / "godot_levels" / "recipe_demo"
"""The Godot recipe "Car steering" demo's project files (github.com/godotrecipes/2d_car_steering,
MIT licence, its LICENSE beside them), without its images."""


def test_the_recipe_demos_map():
    """The demo (Godot 4.4, MIT): a parking lot 18 × 14 tiles of 128 px walled by tiles
    whose polygons leave a strip of 2.5 to 5 px at the wall's foot."""
    demo = DEMO
    track = read_level(demo / "main.tscn")
    assert len(track.polylines) == 26 and not track.rects and not track.circles
    # cell (0, 0): tile 14:8, polygon (-2.5, -64), (-64, -64), (-64, 64), (-5, 64), centred on (64, 64)
    assert [[61.5, 0], [0, 0], [0, 128], [59, 128]] in [p.points.tolist() for p in track.polylines]
    left, top, right, bottom = track.bounds()
    assert (left, top, right, bottom) == (0, 0, 18 * 128, 14 * 128)
    car = np.array([563.0, 512.0])  # where the demo puts the car: clear of every wall
    assert all(np.min(np.linalg.norm(p.points - car, axis=1)) > 100 for p in track.polylines)
    assert track.notes == (
        "shapes of moving bodies (CharacterBody2D, not static): not walls: Main/Car/CollisionShape2D",
    )


def test_broken_cells_or_polygons_name_the_map(tmp_path):
    broken = TILES.replace("layer_2/tile_data = PackedInt32Array(", "layer_2/tile_data = PackedInt32Array(1, ")
    with pytest.raises(UserError, match="Map/Walls: layer_2/tile_data: not cells of three whole numbers"):
        read_level(project(tmp_path, {"map.tscn": broken}) / "map.tscn")
    broken = TILES.replace("(-16, -16, 16, -16, -16, 16)", "(-16, -16, 16, nan, -16, 16)")
    with pytest.raises(UserError, match="Map/Walls: .*polygon_0/points: point 1 is not finite"):
        read_level(project(tmp_path, {"map.tscn": broken}) / "map.tscn")
