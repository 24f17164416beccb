"""How `car-sandbox bench` words a figure against its target."""

from __future__ import annotations


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def per_model(label: str, values: dict, unit: str, scale: float, goal, better_low: bool) -> list[str]:
    lines = [label]
    for name, value in values.items():
        target = goal[name] if isinstance(goal, dict) else goal
        ok = value <= target if better_low else value >= target
        sign = "≤" if better_low else "≥"
        lines.append(f"  {name:10s} {value / scale:9.2f} {unit}  target {sign} {target / scale:g}: {verdict(ok)}")
    return lines
