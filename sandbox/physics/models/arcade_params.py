"""The arcade controller of the Godot recipe: its parameters, declared once (name, unit, range, step, help).

The tuning panel, preset files, the Godot scripts and the parameter tables are made
from this tuple; the kernel reads the values by name through `P`."""

from ..car_shape import engine_param, shape_params
from ..params import Param, Variant
from ..steer_feel import feel_params

PARAMS = (
    Param(
        name="wheel_base",
        label="Wheel base",
        unit="px",
        default=70,
        min=10,
        max=300,
        step=1,
        help="Distance from rear to front wheel. Longer turns wider.",
        group="Chassis",
    ),
    Param(
        name="steering_angle",
        label="Steering angle",
        unit="°",
        default=15,
        min=1,
        max=60,
        step=0.5,
        help="How far the front wheels turn at full steer.",
        group="Steering",
    ),
    Param(
        name="engine_power",
        label="Engine power",
        unit="px/s²",
        default=900,
        min=0,
        max=4000,
        step=10,
        help="Forward acceleration while the throttle is held.",
        group="Engine and brakes",
    ),
    Param(
        name="friction",
        label="Friction",
        unit="1/s²",
        default=-55,
        min=-400,
        max=0,
        step=1,
        help="Ground friction, proportional to speed (the recipe multiplies it by "
        "the tick length twice). More negative = stickier ground.",
        group="Resistance",
        variant=Variant(
            when="recipe_2020",
            unit="1/s",
            default=-0.9,
            min=-20,
            max=0,
            step=0.01,
            help="Ground friction, proportional to speed, applied once (the 2020 recipe: no tick "
            "length) and tripled below 100 px/s. More negative = stickier ground.",
        ),
    ),
    Param(
        name="drag",
        label="Drag",
        unit="1/(px·s)",
        default=-0.06,
        min=-1,
        max=0,
        step=0.001,
        help="Air drag, proportional to speed squared (also applied with the tick length twice). "
        "Mostly sets the top speed.",
        group="Resistance",
        variant=Variant(
            when="recipe_2020",
            unit="1/px",
            default=-0.0015,
            min=-0.05,
            max=0,
            step=0.0001,
            help="Air drag, proportional to speed squared, applied once (the 2020 recipe). Mostly sets the top speed.",
        ),
    ),
    Param(
        name="braking",
        label="Braking",
        unit="px/s²",
        default=-450,
        min=-4000,
        max=0,
        step=10,
        help="Deceleration while the brake is held; past zero it drives in reverse.",
        group="Engine and brakes",
    ),
    Param(
        name="max_speed_reverse",
        label="Reverse speed limit",
        unit="px/s",
        default=250,
        min=0,
        max=2000,
        step=5,
        help="Reverse speed is clamped to this before each tick's acceleration.",
        group="Engine and brakes",
    ),
    Param(
        name="slip_speed",
        label="Slip speed",
        unit="px/s",
        default=400,
        min=0,
        max=3000,
        step=5,
        help="Above this speed the tyres use traction_fast and the car slides.",
        group="Traction",
    ),
    Param(
        name="traction_fast",
        label="Traction fast",
        unit="1/s",
        default=2.5,
        min=0,
        max=60,
        step=0.1,
        help="Grip above slip speed: how fast the velocity turns toward the heading. Low values drift.",
        group="Traction",
        variant=Variant(
            when="recipe_2020",
            unit="per tick",
            default=0.1,
            min=0,
            max=1,
            step=0.01,
            help="Grip above slip speed: the share of the turn toward the heading taken each "
            "tick (the 2020 recipe's lerp weight). Low values drift.",
        ),
    ),
    Param(
        name="traction_slow",
        label="Traction slow",
        unit="1/s",
        default=10,
        min=0,
        max=60,
        step=0.1,
        help="Grip below slip speed.",
        group="Traction",
        variant=Variant(
            when="recipe_2020",
            unit="per tick",
            default=0.7,
            min=0,
            max=1,
            step=0.01,
            help="Grip below slip speed: the share of the turn taken each tick (2020 recipe).",
        ),
    ),
    Param.switch(
        name="rate_independent",
        label="Rate independent",
        default=False,
        help="Off: the recipe as written (friction, drag and traction change with the "
        "tick rate). On: the same feel at every tick rate, equal to the recipe at 60 Hz. "
        "The 2020 recipe has no such form.",
        since=2,
        unused_with="recipe_2020",
    ),
    Param.switch(
        name="recipe_2020",
        label="Godot 3 recipe (2020)",
        default=False,
        help="The recipe's Godot 3 version: friction and drag without the tick length, "
        "friction tripled below 100 px/s, a stop below 5 px/s, traction as a share per "
        "tick. Turning it sets friction, drag and traction to that recipe's values.",
        since=4,
    ),
    Param.switch(
        name="analog_pedals",
        label="Analog pedals",
        default=False,
        help="Off: any press of accelerate or brake gives the whole engine power or braking, "
        "as the recipe's is_action_pressed does. On: scaled by how far the pedal is "
        "pressed (a gamepad trigger).",
        since=4,
        legacy=True,
    ),
) + (*shape_params("px", "capsule", 138, 68), engine_param(), *feel_params("px", assists=True))
"""The shape: the Godot recipe demo's car, a CapsuleShape2D of radius 34 and height 70 turned 90°
(as Godot 3 reads the height: the straight middle; 70 + 2 × 34 = 138 px end to end), lying along
the heading; the recipe's text recommends a capsule so the car does not catch on corners."""
