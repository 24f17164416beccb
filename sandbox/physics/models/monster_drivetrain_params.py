"""The dynamic car's drivetrain parameters (Marco Monster, 2003): the gearbox, the
differential and the engine's torque curve, declared once; `monster_params.PARAMS`
takes them in this order between the brakes and the options."""

from ..params import Param

TORQUE_RPM = (1000, 2000, 2500, 3500, 4400, 5000, 5600, 6000)
TORQUE_NM = (390, 430, 448, 465, 475, 462, 438, 400)
"""LS1-like curve: 475 N·m peak at 4400 rpm and 448 at 2500 as the seed says; 438 at
5600 rpm is the seed's 257 kW power peak. Editable: one parameter per point."""
GEAR_NAMES = ("1", "2", "3", "4", "5", "6")

GEARBOX = (
    Param(
        name="gear_1",
        label="Gear 1",
        unit="ratio",
        default=2.66,
        min=0.5,
        max=6,
        step=0.01,
        help="Gear ratio xg (Corvette C5).",
        group="Gearbox",
    ),
    Param(
        name="gear_2",
        label="Gear 2",
        unit="ratio",
        default=1.78,
        min=0.3,
        max=5,
        step=0.01,
        help="Gear ratio.",
        group="Gearbox",
    ),
    Param(
        name="gear_3",
        label="Gear 3",
        unit="ratio",
        default=1.30,
        min=0.3,
        max=4,
        step=0.01,
        help="Gear ratio.",
        group="Gearbox",
    ),
    Param(
        name="gear_4",
        label="Gear 4",
        unit="ratio",
        default=1.00,
        min=0.3,
        max=3,
        step=0.01,
        help="Gear ratio.",
        group="Gearbox",
    ),
    Param(
        name="gear_5",
        label="Gear 5",
        unit="ratio",
        default=0.74,
        min=0.2,
        max=3,
        step=0.01,
        help="Gear ratio.",
        group="Gearbox",
    ),
    Param(
        name="gear_6",
        label="Gear 6",
        unit="ratio",
        default=0.50,
        min=0.2,
        max=3,
        step=0.01,
        help="Gear ratio.",
        group="Gearbox",
    ),
    Param(
        name="gear_reverse",
        label="Reverse gear",
        unit="ratio",
        default=2.90,
        min=0.5,
        max=6,
        step=0.01,
        help="Reverse ratio.",
        group="Gearbox",
    ),
    Param(
        name="differential",
        label="Differential",
        unit="ratio",
        default=3.42,
        min=1,
        max=6,
        step=0.01,
        help="xd: multiplies every gear.",
        group="Gearbox",
    ),
    Param(
        name="efficiency",
        label="Transmission efficiency",
        unit="fraction",
        default=0.7,
        min=0.3,
        max=1,
        step=0.01,
        help="η: the seed's guess of 70 %.",
        group="Gearbox",
    ),
    Param(
        name="idle_rpm",
        label="Idle rpm",
        unit="rpm",
        default=1000,
        min=500,
        max=2000,
        step=50,
        help="rpm floor: the engine drives from standstill.",
        group="Engine",
    ),
    Param(
        name="redline_rpm",
        label="Redline",
        unit="rpm",
        default=6000,
        min=3000,
        max=9000,
        step=100,
        help="No torque above this (rev limiter).",
        group="Engine",
    ),
    Param(
        name="shift_up",
        label="Shift up at",
        unit="rpm",
        default=5500,
        min=2000,
        max=9000,
        step=100,
        help="Automatic gearbox: next gear above this.",
        group="Gearbox",
    ),
    Param(
        name="shift_down",
        label="Shift down at",
        unit="rpm",
        default=2500,
        min=1000,
        max=6000,
        step=100,
        help="Automatic gearbox: lower gear below this.",
        group="Gearbox",
    ),
)
TORQUE_CURVE = tuple(
    Param(
        name=f"torque_{rpm}",
        label=f"Torque at {rpm} rpm",
        unit="N·m",
        default=nm,
        min=0,
        max=1500,
        step=1,
        help="A point of the engine's torque curve.",
        group="Engine",
    )
    for rpm, nm in zip(TORQUE_RPM, TORQUE_NM)
)
DRIVETRAIN = GEARBOX + TORQUE_CURVE
"""In the order the tuning panel and the tuning rows take them."""
