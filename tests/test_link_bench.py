"""The live link's figures in `car-sandbox bench`: the report's verdicts, and the
measurement itself against the real game (its times are printed, never asserted)."""

import pytest

from conftest import ENGINE_REASON
from sandbox.devtools import bench_link, oracle
from sandbox.devtools.oracle import OracleError, godot_binary


def test_installed_without_the_clone_the_link_figures_say_why_they_are_not_measured(monkeypatch, tmp_path):
    """pip or pipx installs the package only: the Godot test game of tools/ is not there,
    so the figures are skipped with the reason (even with Godot 3 installed), and the
    oracle refuses to run naming it, rather than a traceback."""
    monkeypatch.setattr(oracle, "godot_binary", lambda: "/usr/bin/godot3-server")
    monkeypatch.setattr(oracle, "PROJECT", tmp_path / "site-packages" / "tools" / "godot_oracle")
    figures = bench_link.run(quick=True)
    assert figures == {"skipped": oracle.NO_PROJECT}
    said = bench_link.report(figures)
    assert said == [f"live link to the game: not measured ({oracle.NO_PROJECT})"]
    assert "tools/godot_oracle" in said[0] and "source checkout" in said[0]
    with pytest.raises(OracleError, match="source checkout only"):
        oracle.copy_project(tmp_path / "copy", None, None)


def figures(p99_ms: float, lost: int) -> dict:
    return {
        "latency": {
            "hz": 60,
            "moves": 300,
            "p50_ms": 9.0,
            "p99_ms": p99_ms,
            "max_ms": 30.0,
            "target_ms": 1000 / 60 + 2,
        },
        "telemetry": {
            "hz": 240,
            "seconds": 60.0,
            "ticks_run": 14400,
            "received": 14400 - lost,
            "lost": lost,
            "dropped": {},
            "node_cost_mean_us": 30.0,
            "node_cost_p99_us": 60.0,
            "node_cost_max_us": 400.0,
        },
    }


def test_the_report_holds_each_figure_to_its_target():
    met = "\n".join(bench_link.report(figures(p99_ms=18.0, lost=0)))
    assert "target ≤ one tick + 2 ms = 18.7 ms: met" in met and "0 lost" in met and "target none lost: met" in met
    missed = "\n".join(bench_link.report(figures(p99_ms=19.0, lost=3)))
    assert "18.7 ms: NOT MET" in missed and "target none lost: NOT MET" in missed
    assert "not measured (no Godot" in bench_link.report({"skipped": "no Godot 3 binary"})[0]


def test_the_flood_line_holds_the_share_of_the_games_ticks_to_99_percent():
    def flood(recorded: int) -> str:
        measured = {"hz": 60, "seconds": 22.0, "ticks_run": 1320, "recorded": recorded, "flood_sent": 3_740_000}
        measured.update(flood_per_s=170_000.0, dropped={"flood": 3_700_000})
        return "\n".join(bench_link.report({**figures(p99_ms=18.0, lost=0), "flood": measured}))

    assert "170,000 tiny datagrams/s without the token" in flood(1307)
    assert "1,307 of 1,320 game ticks recorded (99.0 %)  target ≥ 99 %: met" in flood(1307)
    assert "157 of 1,320 game ticks recorded (11.9 %)  target ≥ 99 %: NOT MET" in flood(157)


@pytest.mark.skipif(godot_binary() is None, reason=ENGINE_REASON)
def test_every_value_sent_is_acknowledged_by_the_game_and_every_tick_arrives():
    latency = bench_link.slider_to_game(moves=5)
    assert latency["moves"] == 5 and 0 < latency["p50_ms"] <= latency["max_ms"]
    stream = bench_link.telemetry_stream(seconds=2.0, hz=240)
    fast = bench_link.node_cost_back_to_back(ticks=600)
    assert fast["ticks"] > 100 and fast["mean_us"] > 0
    assert stream["ticks_run"] >= 240 and stream["received"] == stream["ticks_run"] and stream["lost"] == 0
    flood = bench_link.flooded_ticks(seconds=2.0)
    assert flood["ticks_run"] > 60 and 0 <= flood["recorded"] <= flood["ticks_run"] and flood["flood_sent"] > 0
    print(f"\nlink: {latency}\n{stream}\n{flood}")
