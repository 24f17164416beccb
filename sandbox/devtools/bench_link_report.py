"""The line `car-sandbox bench` prints for the window's frames under a flooding peer
(measured in bench_link_window.py, which needs Qt; this part does not)."""

from __future__ import annotations

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
