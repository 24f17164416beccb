"""Regenerate the Godot golden trajectories in tests/goldens (needs godot3-server).

    python tools/make_goldens.py

    python tools/make_goldens.py recipe_2020      # one tuning only

Writes the scenario control traces (tests/goldens/traces/*.csv), runs each through
the Godot 3 port of the recipe (tools/godot_oracle; the 2020 recipe's own port for a
tuning with that option) for each tuning and tick rate,
and writes Godot's trajectories (tests/goldens/<tuning>/<scenario>_<hz>hz.csv). It
then prints how far `car-sandbox simulate` is from each, the figure the test bounds.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox.csv_rows import format_rows  # noqa: E402
from sandbox.devtools.oracle import PROJECT, compare, godot_binary, run_oracle  # noqa: E402
from sandbox.files.presets import BUILTIN_DIR, load_preset  # noqa: E402
from sandbox.files.traces import TRAJECTORY_COLUMNS, load_trace, save_trace  # noqa: E402
from sandbox.physics.sim import run_trace  # noqa: E402

GOLDENS = ROOT / "tests" / "goldens"
TUNINGS = ("recipe_defaults", "drift", "go_kart", "recipe_2020")
HZ = 60
EXTRA_RATES = {"recipe_defaults": (30, 120, 144, 240), "recipe_2020": (30, 144)}  # rate dependence, checked too
PORT_2020 = PROJECT / "recipe_2020_car.gd"
"""The 2020 recipe's own port, for tunings with `recipe_2020` on."""


def seconds(s: float) -> int:
    return round(s * HZ)


def rows(duration: float, steer: float = 0.0, throttle: float = 0.0, brake: float = 0.0) -> list:
    return [(steer, throttle, brake)] * seconds(duration)


def scenarios() -> dict[str, np.ndarray]:
    """The control traces, one row per 60 Hz tick (other rates replay the same rows)."""
    slalom = [(float(np.sin(2 * np.pi * i / seconds(2.0))), 1.0, 0.0) for i in range(seconds(12))]
    pulsed = [(1.0, 1.0 if i % 30 < 6 else 0.0, 0.0) for i in range(seconds(6))]
    rng = np.random.default_rng(2026)
    mixed = []
    pedals = [(1, 0), (1, 0), (0, 1), (0, 0), (1, 1)]
    while len(mixed) < seconds(60):
        throttle, brake = pedals[rng.integers(len(pedals))]
        steer = float(rng.choice([-1, -0.6, -0.3, 0, 0, 0.3, 0.6, 1]))
        mixed += [(steer, float(throttle), float(brake))] * int(rng.integers(seconds(0.4), seconds(2.0)))
    return {
        "straight_top_speed": np.array(rows(20, throttle=1)),
        "brake_into_reverse": np.array(rows(3, throttle=1) + rows(5, brake=1) + rows(3)),
        "full_lock_fast": np.array(rows(4, throttle=1) + rows(5, steer=1, throttle=1)),
        "full_lock_slow": np.array(rows(0.3, throttle=1) + pulsed),
        "slalom": np.array(slalom),
        "hairpin": np.array(
            rows(3, throttle=1) + rows(0.8, brake=1) + rows(2.5, steer=1, throttle=1) + rows(2, throttle=1)
        ),
        "reverse_steering": np.array(rows(3, brake=1) + rows(3, steer=-1, brake=1) + rows(2, steer=1)),
        "mixed_60s": np.array(mixed[: seconds(60)]),
        # a gamepad: part throttle and brake, part lock (the recipe's pedals take any press as a whole one)
        "analog_pad": np.array(
            rows(3, throttle=0.6)
            + rows(4, steer=0.45, throttle=0.3)
            + rows(2, brake=0.35)
            + rows(3, steer=-0.7, throttle=0.8)
            + rows(3, brake=0.2)
            + rows(3, steer=0.25)
        ),
    }


ON_OFF_ONLY = ("analog_pad",)
"""Drives a recipe script reads differently from a tuning with analog pedals: recorded only
for the tunings whose pedals are on/off, as the recipe's."""


def main() -> int:
    if godot_binary() is None:
        print("godot3-server not found: apt-get install godot3-server", file=sys.stderr)
        return 1
    (GOLDENS / "traces").mkdir(parents=True, exist_ok=True)
    for name, trace in scenarios().items():
        save_trace(GOLDENS / "traces" / f"{name}.csv", trace)
    worst = {"position_px": 0.0, "heading_rad": 0.0}
    for tuning in sys.argv[1:] or TUNINGS:
        preset = load_preset(BUILTIN_DIR / f"{tuning}.json")
        port = PORT_2020.read_text() if preset.tuning.get("recipe_2020") else None
        (GOLDENS / tuning).mkdir(exist_ok=True)
        for trace_path in sorted((GOLDENS / "traces").glob("*.csv")):
            if trace_path.stem in ON_OFF_ONLY and preset.tuning["analog_pedals"]:
                continue
            rates = (HZ,) + (
                EXTRA_RATES.get(tuning, ()) if trace_path.stem in ("straight_top_speed", "mixed_60s") else ()
            )
            for hz in rates:
                godot = run_oracle(trace_path, dict(preset.tuning), hz, script_text=port)
                out = GOLDENS / tuning / f"{trace_path.stem}_{hz}hz.csv"
                out.write_text(format_rows(TRAJECTORY_COLUMNS, godot))
                gap = compare(run_trace(preset.model, preset.tuning, load_trace(trace_path), hz), godot)
                worst = {k: max(worst[k], gap[k]) for k in worst}
                print(
                    f"{tuning:16s} {trace_path.stem:20s} {hz:3d} Hz  {len(godot):5d} ticks  "
                    f"position {gap['position_px']:.5f} px  heading {gap['heading_rad']:.2e} rad"
                )
    print(f"worst: position {worst['position_px']:.5f} px, heading {worst['heading_rad']:.2e} rad")
    return 0


if __name__ == "__main__":
    sys.exit(main())
