"""The window's panels and their docks (a row each in docks.py, built here): the tuning
panel, the live plots and force curve, What changes what, Metrics, Sweep, Tune, Link and
a game recording's divergence; where they sit, their starting sizes, Tab hiding them all,
View → Reset layout, and which tuning sections were left open (remembered per model)."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QHBoxLayout,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..session.input_channels import plot_channels
from ..session.tuning import TuningChange
from .channel_chooser import ChannelChooser, channel_names
from .docks import DOCKS, Dock
from .force_curve_plot import ForceCurvePlot
from .gg_panel import GGPanel
from .laps_tab import LapsTab
from .link_panel import LinkPanel
from .metrics_panel import MetricsPanel
from .sensitivity_panel import SensitivityPanel
from .sweep_panel import SweepPanel
from .telemetry import LivePlots
from .tune_panel import TunePanel
from .tuning_panel import TuningPanel
from .tyres_panel import TyresPanel
from .window_memory import settings
from .world_layer import contact_note

PANEL_MIN = 280
"""px: the narrowest a panel can be made (the side panels' width, the plots' width)."""
PANEL_MIN_HEIGHT = 150
"""px: the lowest a panel can be made."""
PANEL_WIDTH = 330
"""px: the side panels' starting width."""
_Area = Qt.DockWidgetArea


def _sections(text: str) -> dict[str, bool]:
    """Open (true) and closed panel sections, from their JSON text; ValueError if it is not that."""
    opened = json.loads(text)
    if not isinstance(opened, dict):
        raise ValueError("not an object of sections")
    return {str(k): bool(v) for k, v in opened.items()}


class Panels:
    """The docks of `window` (a MainWindow, which owns this) and the panels in them.
    The window keeps its own references to the panels it drives (`window.panel`,
    `plots`, `curves`, `metrics`, `sweep`, `tune`, `sensitivity`, `link_panel`); the
    Recording tab's plot is the recording control's (`recording_dock.widget()`)."""

    def __init__(self, window, hz: int):
        self.window = window
        self.hz = hz  # the tuning panel's first tick rate
        self.hidden: list[QDockWidget] = []  # the panels Tab hid, to bring back
        self.by_name: dict[str, QDockWidget] = {}  # every dock, by its object name
        for row in DOCKS:
            self._dock(row)
        self.plots_dock.raise_()
        window.tuning.changed.connect(self.tuning_changed)

    def _dock(self, row: Dock) -> None:
        dock = QDockWidget(row.title, self.window)
        dock.setObjectName(row.name)
        dock.setWidget(row.build(self))
        self.window.addDockWidget(row.area, dock)
        if row.behind:
            self.window.tabifyDockWidget(self.by_name[row.behind], dock)
        show = dock.toggleViewAction()
        if row.menu_text:
            show.setText(row.menu_text)
        if row.shortcut:
            show.setShortcut(row.shortcut)
        if row.tip:
            show.setStatusTip(row.tip)
            show.setToolTip(row.tip)
        if row.shown is not None:
            dock.visibilityChanged.connect(lambda shown, on=row.shown: on(self, shown))
        if not row.shown_at_start:
            dock.hide()
        self.by_name[row.name] = dock
        setattr(self, row.attribute or row.name, dock)

    # --- what each dock holds (the `build` of its row in docks.DOCKS) ------------------
    def tuning_widget(self) -> QWidget:
        self.window.panel = self.tuning_panel(self.hz)
        return self.window.panel

    def plots_widget(self) -> QWidget:
        """The live plots (their readout and channel choice above them) beside the force curve."""
        w = self.window
        w.plots = LivePlots(self.hz, w.model.LENGTH_UNIT)
        self.chooser = ChannelChooser()
        self.channel_box = self.chooser.box  # the presets
        self.chooser.chosen.connect(self._show_channels)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        row = QHBoxLayout()
        row.addWidget(w.plots.readout, 1)
        row.addWidget(self.chooser)
        column.addLayout(row)
        column.addWidget(w.plots, 1)
        self.set_units()
        w.curves = ForceCurvePlot()
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(w.curves)
        split.setSizes([600, 500])
        return split

    def sensitivity_widget(self) -> QWidget:
        w = self.window
        w.sensitivity = SensitivityPanel()
        w.sensitivity.open_sweep.connect(self.open_sweep_of)
        return w.sensitivity

    def metrics_widget(self) -> QWidget:
        self.window.metrics = MetricsPanel()
        return self.window.metrics

    def sweep_widget(self) -> QWidget:
        w = self.window
        w.sweep = SweepPanel()
        w.sweep.load_point.connect(self._load_sweep_point)
        return w.sweep

    def tune_widget(self) -> QWidget:
        w = self.window
        w.tune = TunePanel()
        w.tune.now = lambda: (w.model, w.tuning)  # a result is applied only to the tuning it was searched from
        w.tune.undo_stack = w.undo  # Back takes a trial's step off it
        w.tune.apply_requested.connect(lambda values, text: w.panel.set_values(values, text))
        w.tune.candidate.connect(w.compare.follow_tune)
        return w.tune

    def laps_widget(self) -> QWidget:
        self.window.laps = LapsTab()
        return self.window.laps

    def tyres_widget(self) -> QWidget:
        w = self.window
        w.tyres = TyresPanel(w.tuning, w.undo, lambda: (w.model, w.sim.hz, w.sim.state))
        return w.tyres

    def gg_widget(self) -> QWidget:
        self.window.gg = GGPanel()
        if self.window.remember:
            self.window.gg.remember_trail(self.window.memory)
        return self.window.gg

    def gg_shown(self, shown: bool) -> None:
        """The g-g tab came to the front (it follows the car from now) or left it."""
        w = self.window
        if shown:
            w.gg.set_car(w.model, w.tuning, w.sim.hz)
        w.gg.set_active(shown)

    def link_widget(self) -> QWidget:
        self.window.link_panel = LinkPanel()
        return self.window.link_panel

    def lay_out(self) -> None:
        """The docks' least sizes and places, before the first show; keeps that layout
        for Reset layout."""
        w = self.window
        for dock in self.docks():
            dock.setMinimumSize(PANEL_MIN, PANEL_MIN_HEIGHT)
        # the side panels run the window's full height (their sliders and tables need it
        # most on a small screen); the plots sit under the car view
        w.setCorner(Qt.Corner.BottomRightCorner, _Area.RightDockWidgetArea)
        # the Tuning tab in front before the first show: the last tab added (Tune) would
        # show first and compute the metrics in the window's thread (a first start compiles them)
        self.panel_dock.raise_()
        self._default_layout = w.saveState()
        self.size_panels()

    # --- the tuning panel (replaced when the model changes) -------------------------
    def tuning_panel(self, hz: int) -> TuningPanel:
        """A tuning panel for the window's model and tuning, its sections as last left."""
        w = self.window
        panel = TuningPanel(w.tuning, w.undo, self._sections_opened())
        panel.section_toggled.connect(self._remember_sections)
        panel.edit_finished.connect(w.track.setFocus)
        panel.rate_requested.connect(lambda rate: w.switcher.set_rate(rate))
        panel.show_rate(hz)
        return panel

    def replace_tuning_panel(self, hz: int) -> None:
        old = self.window.panel
        self.window.panel = self.tuning_panel(hz)
        self.panel_dock.setWidget(self.window.panel)
        old.deleteLater()

    def _sections_opened(self) -> dict[str, bool]:
        """The tuning panel's open and closed sections of this model, as last left."""
        w = self.window
        if not w.remember:
            return {}
        return _sections(w.memory.setting(f"panel/sections/{w.model.NAME}", "{}", check=_sections))

    def _remember_sections(self) -> None:
        w = self.window
        if w.remember and hasattr(w, "panel"):
            settings().setValue(f"panel/sections/{w.model.NAME}", json.dumps(w.panel.opened()))

    # --- what the panels show --------------------------------------------------------
    def set_units(self) -> None:
        """Units, scale and telemetry channels of the current model."""
        w = self.window
        unit = w.model.LENGTH_UNIT
        w.track.set_units(unit, 1.0 if unit == "px" else w.px_per_metre)
        w.track.contact_note = contact_note(w.model, w.tuning)
        w.plots.set_units(unit)
        self.chooser.set_model(w.model, self._channels_chosen())
        w.plots.set_channels(self.chooser.chosen_channels())

    def _channels_chosen(self) -> tuple[str, ...] | None:
        """The channels last chosen for this model (None: none kept, or not remembering)."""
        w = self.window
        if not w.remember:
            return None
        channels, key = plot_channels(w.model), f"plots/channels/{w.model.NAME}"
        kept = settings().contains(key)
        text = w.memory.setting(key, "", check=lambda t: channel_names(t, channels))
        if kept and not text:  # damaged: said after the switch's own message, which would hide it
            note = f"The channels kept for the {w.model.TITLE} ({key}) could not be used; its first preset is shown."
            QTimer.singleShot(0, lambda: w.statusBar().showMessage(f"{w.statusBar().currentMessage()} {note}", 10000))
        return channel_names(text, channels) if text else None

    def _show_channels(self, channels: tuple) -> None:
        """The channel plot shows `channels`, kept for this model."""
        w = self.window
        w.plots.set_channels(channels)
        if w.remember:
            settings().setValue(f"plots/channels/{w.model.NAME}", ",".join(c.name for c in channels))

    def tuning_changed(self, change: TuningChange | None = None) -> None:
        """The panels that follow the tuning (the force curve, the metrics, the sweep,
        the auto-tune, the sensitivity) for its values now."""
        w = self.window
        w.track.contact_note = contact_note(w.model, w.tuning)  # the engine may have changed
        self.show_curves()
        w._request_metrics()
        self.sync_sweep()
        # a tabbed dock behind another tab still says isVisible(): only the tab in front is
        # filled (154 number boxes); the others fill when brought forward (visibilityChanged).
        # Minimized, nothing has a visible region and no signal comes back with the window.
        front = w.isMinimized() or not self.tune_dock.visibleRegion().isEmpty()
        if self.tune_dock.isVisible() and front:
            self.sync_tune()
        w.sensitivity.request(w.model, w.tuning, w.sim.hz)
        if w.gg.active:
            w.gg.set_car(w.model, w.tuning, w.sim.hz)

    def show_curves(self) -> None:
        """The force curve of the tuning now, under the preset's name."""
        w = self.window
        w.curves.set_tuning(w.model, w.tuning, w.sim.hz, title=w.preset.name)

    def sensitivity_shown(self, shown: bool) -> None:
        w = self.window
        w.sensitivity.set_active(shown)
        if shown:
            w.sensitivity.request(w.model, w.tuning, w.sim.hz)

    def open_sweep_of(self, name: str, metric: str) -> None:
        """Sweep `metric` over `name`'s range in the Sweep tab (a Sensitivity cell)."""
        self.sync_sweep()
        self.sweep_dock.raise_()
        self.window.sweep.sweep_one(name, metric)

    def sync_tune(self) -> None:
        w = self.window
        w.tune.set_model(w.model, w.tuning, w.sim.hz)

    def sync_sweep(self) -> None:
        w = self.window
        w.sweep.set_model(w.model, w.tuning, w.sim.hz)

    def _load_sweep_point(self, values: dict, text: str) -> None:
        self.window.panel.set_values(values, text)
        self.window.statusBar().showMessage(f"Loaded {text}", 5000)

    # --- layout ----------------------------------------------------------------------
    def show_tab(self, name: str) -> None:
        """Bring the tab `name` (its dock's object name without "_dock": tuning, metrics,
        sweep, tune, link; sensitivity, plots, recording, below) to the front and wait for
        what it shows (and the force curve beside the sliders): the metrics computed, a
        sweep of the first two parameters run, or an auto-tune of the first metric with a
        value to 10 % more (for screenshots)."""
        w = self.window
        dock = self.by_name[f"{name}_dock"]
        dock.raise_()
        w.panel.complete()  # every slider row built (the rows come a slice a turn after a switch)
        w.curves.settle()  # the force curve beside the sliders drawn, even on a first use that compiles it
        QApplication.processEvents()
        if name == "metrics":
            w.metrics.settle()
        elif name == "sweep":
            w.sweep.use_second.setChecked(True)
            w.sweep.run()
            w.sweep.settle()
        elif name == "sensitivity":
            w.sensitivity.settle()
        elif name == "gg":
            w.gg.settle()
            w.gg.refresh()
        elif name == "tune":
            self.sync_tune()
            w.tune.settle_targets()
            w.tune.example()
            w.tune.settle()

    def docks(self) -> list[QDockWidget]:
        """Every dock, in the order of DOCKS."""
        return list(self.by_name.values())

    def _returning(self) -> list[QDockWidget]:
        """The docks Reset layout (or Tab, when it hid none) shows: all of them, the
        Recording tab only once a game recording was opened (empty before)."""
        opened = self.window.recordings.recording is not None
        return [dock for dock in self.docks() if dock is not self.recording_dock or opened]

    def toggle(self) -> None:
        """Tab: hide every panel (the car gets the whole window), or bring back the ones
        hidden that way."""
        shown = [dock for dock in self.docks() if dock.isVisible()]
        if shown:
            self.hidden = [dock for dock in self.docks() if not dock.isHidden()]
            for dock in self.hidden:
                dock.hide()
        else:
            for dock in self.hidden or self._returning():
                dock.show()
            self.panel_dock.raise_()
            self.hidden = []
        self.window.menus.refresh()
        self.window.track.setFocus()

    def reset_layout(self) -> None:
        """Every panel back to its starting place and size."""
        self.window.restoreState(self._default_layout)
        for dock in self._returning():
            dock.show()
        self.panel_dock.raise_()
        self.plots_dock.raise_()
        self.hidden = []
        self.window.menus.refresh()
        self.size_panels()

    def size_panels(self) -> None:
        """The starting sizes: the side panels PANEL_WIDTH wide or a quarter of a wider
        window (longer sliders), the plots a third of the window's height; the car view
        takes the rest."""
        w = self.window
        w.resizeDocks([self.panel_dock], [max(PANEL_WIDTH, w.width() // 4)], Qt.Orientation.Horizontal)
        w.resizeDocks([self.plots_dock], [max(PANEL_MIN_HEIGHT, w.height() // 3)], Qt.Orientation.Vertical)
