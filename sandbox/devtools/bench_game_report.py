"""The lines `car-sandbox bench` prints for the work with the user's game: the fit of a
recorded drive, and the window's frames under a flooding peer (measured in
bench_link_window.py, which needs Qt; this part does not)."""

from __future__ import annotations

from .bench_lines import per_model

BUDGET_SHARE = 0.01
"""The target: at most this share of frames over one physics tick's budget."""


def flood_report(w: dict) -> list[str]:
    over = w["over_budget"]
    return [
        f"window frames while the linked peer floods the link ({w['sent_per_s']:,.0f} datagrams/s of garbage, "
        f"oversized, wrong token, NaN and telemetry, {w['seconds']:g} s): median {w['median_ms']:.1f} ms, p99 "
        f"{w['p99_ms']:.1f} ms, max {w['max_ms']:.1f} ms, {100 * over:.1f} % over one tick ({w['budget_ms']:.1f} ms)"
        f"  target ≤ {100 * BUDGET_SHARE:g} %: {'met' if over <= BUDGET_SHARE else 'NOT MET'}; dropped "
        f"{sum(w['dropped'].values()):,d} ({w['dropped']})"
    ]


def fit_report(f: dict, t: dict) -> list[str]:
    lines = per_model(
        "fit of a 30-s recording at 60 Hz (arcade: 10 free values, Corvette: 8), s:",
        f["fit_s"],
        "s",
        1,
        t["fit_s"],
        True,
    )
    lines.append(
        "  worst error of a fitted value: "
        + ", ".join(
            f"{k} {r['worst_error_percent']:.2g} % ({r['evaluations']} tunings, {r['switch_sets']} sets of "
            f"switches, {r['fitted_in_full']} fitted in full, {r['verdict']})"
            for k, r in f["fit"].items()
        )
    )
    return lines
