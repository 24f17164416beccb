"""The window's docks as data: one row each (title, object name, what builds the widget
it holds, where it sits or whose tabs it joins, its View menu item), built in one place
by `Panels` (panels.py). A new view is one row."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from .divergence_plot import DivergencePlot

if TYPE_CHECKING:
    from .panels import Panels

Area = Qt.DockWidgetArea


@dataclass(frozen=True)
class Dock:
    """One dock of the window, a row of DOCKS: `build(panels)` makes the widget it
    holds. `name` is its object name, which the layout kept between runs (QSettings
    "window/state") is keyed on: never change it. `behind`: the object name of the
    dock whose tabs it joins (an earlier row). `menu_text`, `shortcut` and `tip` are
    for its View menu item (show or hide it; the title when no text is given).
    `shown(panels, visible)` is told each time its tab comes to the front or leaves it.
    `attribute`: the Panels attribute it is kept as (its object name unless given)."""

    title: str
    name: str
    build: Callable[[Panels], QWidget]
    area: Qt.DockWidgetArea
    behind: str = ""
    menu_text: str = ""
    shortcut: str = ""
    tip: str = ""
    shown: Callable[[Panels, bool], object] | None = None
    shown_at_start: bool = True
    attribute: str = ""


DOCKS = (
    Dock(
        "Tuning",
        "tuning_dock",
        lambda panels: panels.tuning_widget(),
        Area.RightDockWidgetArea,
        attribute="panel_dock",
    ),
    Dock("Plots", "plots_dock", lambda panels: panels.plots_widget(), Area.BottomDockWidgetArea),
    Dock(
        "Metrics",
        "metrics_dock",
        lambda panels: panels.metrics_widget(),
        Area.RightDockWidgetArea,
        behind="tuning_dock",
        shown=lambda panels, visible: panels.window.metrics.set_active(visible),
    ),
    Dock(
        "Sweep",
        "sweep_dock",
        lambda panels: panels.sweep_widget(),
        Area.RightDockWidgetArea,
        behind="metrics_dock",
        shown=lambda panels, visible: visible and panels.sync_sweep(),
    ),
    Dock(
        "Tune",
        "tune_dock",
        lambda panels: panels.tune_widget(),
        Area.RightDockWidgetArea,
        behind="sweep_dock",
        shown=lambda panels, visible: visible and panels.sync_tune(),
    ),
    Dock("Link", "link_dock", lambda panels: panels.link_widget(), Area.RightDockWidgetArea, behind="tune_dock"),
    Dock(
        "What changes what",
        "sensitivity_dock",
        lambda panels: panels.sensitivity_widget(),
        Area.BottomDockWidgetArea,
        behind="plots_dock",
        shown=lambda panels, visible: panels.sensitivity_shown(visible),
    ),
    Dock(
        "Laps",
        "laps_dock",
        lambda panels: panels.laps_widget(),
        Area.BottomDockWidgetArea,
        behind="plots_dock",
        tip="The laps timed: sector colours, two laps overlaid with their delta, the map by a channel, CSV export",
    ),
    Dock(
        "Tyres",
        "tyres_dock",
        lambda panels: panels.tyres_widget(),
        Area.BottomDockWidgetArea,
        behind="plots_dock",
        tip="Each tyre's force curve for the tuning, where the wheels are on it while driving, handles to drag",
        shown=lambda panels, visible: panels.window.tyres.set_active(visible),
    ),
    Dock(
        "g-g",
        "gg_dock",
        lambda panels: panels.gg_widget(),
        Area.BottomDockWidgetArea,
        behind="plots_dock",
        menu_text="&g-g diagram",
        tip="Longitudinal against lateral acceleration with the grip envelope, each tyre's grip used, the loads",
        shown=lambda panels, visible: panels.gg_shown(visible),
    ),
    Dock(
        "Recording",
        "recording_dock",
        lambda panels: DivergencePlot(),
        Area.BottomDockWidgetArea,
        behind="plots_dock",
        menu_text="Game recording's &divergence",
        shown_at_start=False,  # until a game recording is opened
    ),
)
"""The window's docks, in the View menu's order: a new view is one row."""
