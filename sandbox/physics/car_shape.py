"""The car's collision shape: its parameters, declared once here and included in every
model's PARAMS (section "Collision shape" of the tuning panel), and the shape a tuning
gives (`CarShape`).

The shape is drawn in the car's own frame: x forward along the heading, y to the
right (y down on screen, as everywhere in the sandbox), about the model's reference
point. `length` runs along the shape's own axis, `width` across it; the shape is
then turned by `rotation` and moved by (`offset_x`, `offset_y`):

- rectangle: length × width;
- capsule: a rectangle with semicircles of diameter `width` at both ends, `length`
  from end to end (caps included); a length below the width is a circle;
- circle: diameter `width` (the length is not used).

Nothing in the motion on the open field reads these values; they are the car's shape
for walls (contact) and what a Godot export writes into its CollisionShape2D.

The kinematic models (arcade, bicycle, Ackermann) add `engine_param()` right after
the shape: which Godot's `move_and_slide` rules their walls follow (`ENGINE_CHOICES`,
Godot 4 by default); `contact_slots` checks the order the kernels read them in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from .params import Param

SHAPE_KINDS = ("rectangle", "capsule", "circle")
"""The kinds of shape, in the order of their index (a tuning holds the index)."""
SHAPE_GROUP = "Collision shape"
SHAPE_SINCE = 5
"""The preset format that introduced the shape: older files load with the declared default."""
SIZES = {"px": (4.0, 400.0, 1.0), "m": (0.1, 10.0, 0.01)}
"""(min, max, step) of a length in each unit of length."""
NAMES = ("shape_kind", "shape_length", "shape_width", "shape_offset_x", "shape_offset_y", "shape_rotation")
ENGINE_NAME = "godot_engine"
ENGINE_CHOICES = ("Godot 4", "Godot 3")
"""The engines whose wall rules a kinematic car can follow, in the order of their index:
Godot 4 (0, `CharacterBody2D`, the default: the recipe demo's engine), Godot 3 (1,
`KinematicBody2D`)."""
GODOT4, GODOT3 = 0.0, 1.0
"""The tuning's `godot_engine` values (indices of ENGINE_CHOICES)."""
ENGINE_GROUP = "Walls"
ENGINE_SINCE = 6
"""The preset format that introduced the engine option: older files load with Godot 4."""


def shape_params(unit: str, kind: str, length: float, width: float) -> tuple[Param, ...]:
    """The collision shape's parameters of a model whose lengths are in `unit` (px or m),
    with its default `kind`, `length` and `width` (centred, along the heading)."""
    low, high, step = SIZES[unit]
    common = {"since": SHAPE_SINCE, "group": SHAPE_GROUP, "scene": True}
    return (
        Param.choice(
            "shape_kind",
            "Shape",
            SHAPE_KINDS,
            kind,
            "The car's collision shape against walls: a rectangle, a capsule (a rectangle with round ends, "
            "which slides off corners) or a circle. Exported as the scene's CollisionShape2D.",
            **common,
        ),
        Param(
            "shape_length",
            "Shape length",
            unit,
            length,
            low,
            high,
            step,
            "Length of the collision shape along its axis (along the heading unless turned), end to end; "
            "a capsule's includes its round ends. Not used by a circle.",
            **common,
        ),
        Param(
            "shape_width",
            "Shape width",
            unit,
            width,
            low,
            high,
            step,
            "Width of the collision shape across its axis: a capsule's round ends and a circle have this diameter.",
            **common,
        ),
        Param(
            "shape_offset_x",
            "Shape offset forward",
            unit,
            0.0,
            -high / 2,
            high / 2,
            step,
            "How far the shape's centre sits ahead of the car's reference point (negative: behind it).",
            **common,
        ),
        Param(
            "shape_offset_y",
            "Shape offset right",
            unit,
            0.0,
            -high / 2,
            high / 2,
            step,
            "How far the shape's centre sits to the right of the car's reference point (negative: left).",
            **common,
        ),
        Param(
            "shape_rotation",
            "Shape rotation",
            "°",
            0.0,
            -180.0,
            180.0,
            0.5,
            "The shape turned on the car, clockwise on screen; 0 lays its length along the heading.",
            **common,
        ),
    )


def engine_param() -> Param:
    """The kinematic models' choice of engine whose `move_and_slide` meets the walls."""
    return Param.choice(
        ENGINE_NAME,
        "Engine",
        ENGINE_CHOICES,
        "Godot 4",
        "Which engine's move_and_slide the car meets walls by: Godot 4 (CharacterBody2D, floating: a hit "
        "within 15° of head-on stops the car, a glancing one slides on at nearly full speed) or Godot 3 "
        "(KinematicBody2D: the velocity loses its share into the wall). Set by import-godot from the "
        "script or scene it reads; pick the engine your game runs in. The open field is the same in both.",
        since=ENGINE_SINCE,
        group=ENGINE_GROUP,
        scene=True,
    )


@dataclass(frozen=True)
class CarShape:
    """A tuning's collision shape in the car's frame (lengths in the model's unit,
    `rotation` in degrees clockwise on screen)."""

    kind: str
    length: float
    width: float
    offset_x: float = 0.0
    offset_y: float = 0.0
    rotation: float = 0.0

    @classmethod
    def of(cls, values: Mapping[str, object]) -> "CarShape":
        """The shape a tuning (or any mapping of the shape parameters) gives."""
        return cls(
            SHAPE_KINDS[int(values["shape_kind"])],
            *(float(values[name]) for name in NAMES[1:]),
        )

    def values(self) -> dict[str, float]:
        """The shape as parameter values (the kind as its index)."""
        numbers = (self.length, self.width, self.offset_x, self.offset_y, self.rotation)
        return {"shape_kind": float(SHAPE_KINDS.index(self.kind)), **dict(zip(NAMES[1:], numbers))}

    def scaled(self, factor: float) -> "CarShape":
        """The same shape with its lengths times `factor` (m to px on export)."""
        return CarShape(
            self.kind,
            self.length * factor,
            self.width * factor,
            self.offset_x * factor,
            self.offset_y * factor,
            self.rotation,
        )

    @property
    def straight(self) -> float:
        """A capsule's straight middle: the distance between its caps' centres (≥ 0)."""
        return max(self.length - self.width, 0.0)

    def outline(self, points_per_cap: int = 12) -> np.ndarray:
        """The shape's outline in the car's frame, (n, 2): a polygon (for drawing)."""
        if self.kind == "rectangle":
            a, b = self.length / 2, self.width / 2
            local = np.array([(a, -b), (a, b), (-a, b), (-a, -b)])
        else:
            radius = self.width / 2
            half = 0.0 if self.kind == "circle" else self.straight / 2
            turn = np.linspace(-math.pi / 2, math.pi / 2, points_per_cap + 1)
            front = np.column_stack((half + radius * np.cos(turn), radius * np.sin(turn)))
            local = np.vstack((front, -front))
        angle = math.radians(self.rotation)
        c, s = math.cos(angle), math.sin(angle)
        turned = local @ np.array([[c, s], [-s, c]])
        return turned + (self.offset_x, self.offset_y)


def first_shape_slot(params) -> int:
    """Where the shape parameters start in a model's PARAMS (its tuning rows): the
    kernels read them from there in car_shape.NAMES's order (body_shape.of_tuning)."""
    names = [p.name for p in params]
    first = names.index(NAMES[0])
    if tuple(names[first : first + len(NAMES)]) != NAMES:
        raise ValueError(f"the shape parameters must follow each other in the order {', '.join(NAMES)}")
    return first


def contact_slots(params) -> int:
    """`first_shape_slot` of a kinematic model, whose engine option (`engine_param`)
    follows the shape: the walls' kernels read it at first + len(NAMES)."""
    first = first_shape_slot(params)
    names = [p.name for p in params]
    if first + len(NAMES) >= len(names) or names[first + len(NAMES)] != ENGINE_NAME:
        raise ValueError(f"{ENGINE_NAME} must follow the shape parameters")
    return first
