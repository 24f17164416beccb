"""The fit's figures of `car-sandbox bench`: a recording made by the sandbox's own car
under values the fit is not told, fitted from the reference preset as `car-sandbox fit`
fits it (fit_switches: the on/off options the recording can tell tried too).

Arcade: 10 free values (every slider), a 30-s drive at 60 Hz (fit_drives.arcade_drive,
the pose only). Corvette: 8 free values, a 30-s drive at 60 Hz with the velocity
(fit_drives.corvette_drive)."""

from __future__ import annotations

import time

from ..analysis.fit import fit
from ..analysis.fit_switches import fit_switches
from ..analysis.tune_space import free_names
from ..files.presets import BUILTIN_DIR, load_preset
from ..files.recordings import drive_recording
from .fit_drives import arcade_drive, corvette_drive

ARCADE_HIDDEN = {
    "wheel_base": 82.0,
    "steering_angle": 17.3,
    "engine_power": 1037.0,
    "friction": -47.3,
    "drag": -0.0713,
    "braking": -612.0,
    "slip_speed": 353.0,
    "traction_fast": 3.17,
    "traction_slow": 8.43,
}
CORVETTE_FREE = (
    "c_drag",
    "c_rr",
    "mu",
    "cornering_front",
    "cornering_rear",
    "yaw_inertia",
    "brake_force",
    "efficiency",
)
CORVETTE_FACTORS = (1.12, 0.93, 1.07, 0.9, 1.1, 0.95, 1.08, 0.92)
"""The Corvette's hidden values: each free value of the preset times its factor."""


def cases() -> dict:
    """model -> (model, start tuning, recording, free names, hidden values)."""
    arcade = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    start = dict(arcade.tuning)
    hidden = dict(start, **ARCADE_HIDDEN)
    out = {
        "arcade": (
            arcade.model,
            start,
            drive_recording(arcade.model, hidden, arcade_drive(30.0), 60, velocity=False),
            free_names(arcade.model),
            hidden,
        )
    }
    corvette = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    start = dict(corvette.tuning)
    hidden = dict(start, **{n: start[n] * f for n, f in zip(CORVETTE_FREE, CORVETTE_FACTORS)})
    recording = drive_recording(corvette.model, hidden, corvette_drive(30.0), 60)
    out["monster"] = (corvette.model, start, recording, list(CORVETTE_FREE), hidden)
    return out


def fit_seconds() -> dict:
    """Per model: seconds of the fit (after a first short one, so nothing compiles or
    loads during it), its tunings, and the largest error of a fitted value (%)."""
    out = {}
    for name, (model, start, recording, names, hidden) in cases().items():
        fit(model, recording, start, names[:2], 60, max_evaluations=50)
        begin = time.perf_counter()
        search = fit_switches(model, recording, start, names, 60)
        seconds = time.perf_counter() - begin
        result = search.result
        errors = {
            n: 100 * abs(result.params[n] / hidden[n] - 1) for n in names if n not in result.undetermined and hidden[n]
        }
        out[name] = {
            "seconds": seconds,
            "free": len(names),
            "evaluations": sum(r.evaluations for _, r in search.tried + search.quick),
            "switch_sets": len(search.tried) + len(search.screened),
            "fitted_in_full": len(search.tried),
            "worst_error_percent": max(errors.values(), default=0.0),
            "undetermined": result.undetermined,
            "verdict": result.verdict,
        }
    return out
