"""How a rigid car (the rigid body, the dynamic car) meets walls: Godot's
`move_and_collide` of the tick's motion, then an impulse at the contact point.

Each tick the model works out its new velocity, yaw rate and heading as on the open
field; then `bounce`:
 1. the body, turned to the tick's new heading, is moved from where the tick began by
    the tick's motion with Godot 3's `move_and_collide` (`contact_godot3.body_test_motion`:
    the recovery out of any wall it overlaps, the cast of the whole motion, which stops
    at the last free fraction, so nothing tunnels however fast, and the contact at the
    first touching fraction: the wall's point and the normal out of the wall);
 2. at that point (at the middle of the car's face when a face meets the wall flat:
    `pressure_point`), the impulse of a rigid body against a fixed wall (`wall_impulse`),
    on the linear and the angular velocity: the normal impulse makes the contact
    point's speed into the wall −e times what it was (e the track's `wall_restitution`),
    then the friction impulse along the wall removes the point's sliding speed, at most
    μ times the normal impulse (Coulomb, μ the track's `wall_friction`). Both use the
    mass felt at the point, 1/(1/m + (r×d)²/I) for a lever r and a direction d, so a hit
    off the centre of mass turns the car: a clipped corner spins it.
What is left of the tick's motion after the contact is not travelled (as a script that
calls move_and_collide once a tick). Neither impulse adds energy: the normal one
changes it by ½·m_n·v_n²·(e² − 1) ≤ 0, the friction one, a share λ ≤ 1 of the impulse
that stops the sliding, by m_t·v_t²·λ·(λ/2 − 1) ≤ 0.

Units: the geometry in px, as the kinematic cars' (`walls`: a metric car's position
and motion are scaled to px by the world's scale, so the engine's 0.08 px safe margin
keeps its meaning), the impulse in the model's own units (m, kg, kg·m², rad/s for a
metric car: the contact point is scaled back first).
"""

from __future__ import annotations

import math

from numba.extending import overload

from .body_shape import body_at, of_tuning
from .contact_godot3 import SAFE_MARGIN, _within_reach, body_test_motion
from .contact_sat import body_supports
from .kernel import OPTIONS, kernel
from .walls import clear_of_walls, is_none, scaled
from .world import has_walls

END_TOLERANCE = 1e-3
"""Share of a face's length within which a contact point counts as its end (with
the safe margin: a face within the engine's support threshold of the wall, 0.0063 rad,
has its corners that much off the wall's line)."""


@kernel
def wall_impulse(vx, vy, omega, rx, ry, nx, ny, mass, inertia, restitution, friction):
    """(vx, vy, omega) of a rigid body (velocity, yaw rate; `mass`, yaw `inertia` about
    its reference point) after its contact with a fixed wall at the lever (rx, ry) from
    that point, (nx, ny) the unit normal out of the wall. A contact point already
    leaving the wall (or sliding along it) gets no normal impulse, hence no friction."""
    px, py = vx - omega * ry, vy + omega * rx  # the contact point's velocity
    vn = px * nx + py * ny
    if vn >= 0.0:
        return vx, vy, omega
    lever_n = rx * ny - ry * nx
    jn = -(1.0 + restitution) * vn / (1.0 / mass + lever_n * lever_n / inertia)
    vx, vy, omega = vx + jn * nx / mass, vy + jn * ny / mass, omega + lever_n * jn / inertia
    # friction, from the point's sliding speed after the normal impulse (never past stopping it)
    px, py = vx - omega * ry, vy + omega * rx
    vn = px * nx + py * ny
    tx, ty = px - vn * nx, py - vn * ny
    sliding = math.sqrt(tx * tx + ty * ty)
    if sliding == 0.0:
        return vx, vy, omega
    tx, ty = tx / sliding, ty / sliding
    lever_t = rx * ty - ry * tx
    jt = min(sliding / (1.0 / mass + lever_t * lever_t / inertia), friction * jn)
    return vx - jt * tx / mass, vy - jt * ty / mass, omega - lever_t * jt / inertia


@kernel
def pressure_point(body, dx, dy, nx, ny, px, py) -> tuple[float, float]:
    """Where the impulse acts: the point move_and_collide gave (px, py), unless the car
    meets the wall with a face (its supports along −n an edge, `body` moved by
    (dx, dy)) and that point is one end of it (a flat face on a longer wall: the engine
    reports one of two equally deep corners, picked by rounding): then the face's middle,
    along the wall."""
    count, ax, ay, bx, by = body_supports(body, dx, dy, -nx, -ny)
    if count < 2.0:
        return px, py
    tx, ty = -ny, nx
    a, b, at = ax * tx + ay * ty, bx * tx + by * ty, px * tx + py * ty
    near = END_TOLERANCE * abs(b - a) + SAFE_MARGIN
    if min(abs(at - a), abs(at - b)) > near:
        return px, py
    middle = (a + b) / 2 - at
    return px + middle * tx, py + middle * ty


def bounce(walls, p, first, x0, y0, x, y, heading, vx, vy, omega, mass, inertia):
    """A rigid car meeting walls: it was at (x0, y0) and the tick would put it at
    (x, y) turned to `heading` (rad), with velocity (vx, vy), yaw rate `omega`, `mass`
    and yaw `inertia` (the model's units); its collision shape is tuning row `p`'s from
    slot `first`. (x, y, vx, vy, omega, contacts): the tick's own values when no wall
    was met (the same bits as the open field), else where move_and_collide stopped the
    car and its velocity and yaw rate after the impulse (contacts 1.0). `walls`: a
    walls.Walls, or None (the open field: no contact code). Compiled code only."""
    raise TypeError("contact_impulse.bounce is called from compiled code")


@overload(bounce, jit_options=OPTIONS, inline="always")
def _bounce_of(walls, p, first, x0, y0, x, y, heading, vx, vy, omega, mass, inertia):
    if is_none(walls):

        def open_field(walls, p, first, x0, y0, x, y, heading, vx, vy, omega, mass, inertia):
            return x, y, vx, vy, omega, 0.0

        return open_field

    def among_walls(walls, p, first, x0, y0, x, y, heading, vx, vy, omega, mass, inertia):
        if not has_walls(walls.world) or clear_of_walls(walls, p, first, x0, y0, x - x0, y - y0):
            return x, y, vx, vy, omega, 0.0
        return _bounce_near(walls, p, first, x0, y0, x, y, heading, vx, vy, omega, mass, inertia)

    return among_walls


@kernel
def _bounce_near(walls, p, first, x0, y0, x, y, heading, vx, vy, omega, mass, inertia):
    """`bounce` where a wall may be within the tick's reach (a separate compiled call,
    so that a tick away from walls stays as small as the open field's)."""
    k = walls.scale
    mx, my = (x - x0) * k, (y - y0) * k
    shape = scaled(of_tuning(p, first), k)
    if not _within_reach(walls.world, shape, x0 * k, y0 * k, heading, mx, my, SAFE_MARGIN):
        return x, y, vx, vy, omega, 0.0  # no wall's box near the swept car: move_and_slide's own test
    body = body_at(shape, x0 * k, y0 * k, heading)
    hit, tx, ty, _, _, nx, ny, px, py, _ = body_test_motion(walls.world, body, mx, my, SAFE_MARGIN)
    if not hit:
        if tx == mx and ty == my:  # the whole motion, free: the tick's own bits
            return x, y, vx, vy, omega, 0.0
        return x0 + tx / k, y0 + ty / k, vx, vy, omega, 0.0
    x, y = x0 + tx / k, y0 + ty / k
    px, py = pressure_point(body, tx, ty, nx, ny, px, py)
    vx, vy, omega = wall_impulse(
        vx, vy, omega, px / k - x, py / k - y, nx, ny, mass, inertia, walls.restitution, walls.friction
    )
    return x, y, vx, vy, omega, 1.0
