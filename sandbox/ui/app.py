"""Main window: the car view, the tuning panel, live plots, menus and the frame loop."""

from __future__ import annotations

import html
import json
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..errors import UserError
from ..files.disk import png_complete, write_atomic
from ..files.presets import Preset, declared_preset, list_presets, load_preset
from ..physics.models import MODELS
from ..session.drive import DriveSession
from .curves import ForceCurvePlot
from .drive_view import DriveViewMixin
from .file_actions import FileActions
from .ghosts import GhostMixin
from .godot_actions import GodotActions
from .godot_export_dialog import GodotExportDialog
from .godot_into_dialog import UpdateScriptDialog
from .input import DriveKeys
from .menu_bar import MENU_BAR, PX_PER_METRE_CHOICES
from .menus import Menus, add_action, shortcut_rows
from .metrics_panel import MetricsPanel
from .qt import collect_in_window_thread
from .replay_control import ReplayMixin
from .screen_fit import PREFERRED_SIZE, fit_to_screen
from .sensitivity_panel import SensitivityPanel
from .session import AUTOSAVE_MS, SHOWN_MS, SessionMixin, settings
from .sweep_panel import SweepPanel
from .telemetry import LivePlots
from .track_view import TrackView
from .tune_panel import TunePanel
from .tuning_panel import TuningPanel

DEFAULT_PX_PER_METRE = 25.0
CONTROLS_HELP = """<b>Driving</b><br>
W / ↑ accelerate · S / ↓ brake, then reverse · A / ← steer left · D / → steer right<br>
Space handbrake · Q / E shift down / up (dynamic car, manual gearbox)<br>
R reset the car · mouse wheel zoom · Tab hide/show every panel<br><br>
<b>Tuning</b><br>
Drag a slider or type in its number box (Enter gives the keys back to the car); the next<br>
physics tick uses the new value. Sections open and close with their headers.<br>
Shift while dragging: 10× slower · a clicked number box: the wheel moves one step a notch<br>
↺ resets one parameter · undo and redo go back and forth (one drag = one step)"""


class LoadPreset(QUndoCommand):
    """Undoable preset switch: values, tick rate, and which preset the window is on."""

    def __init__(self, window: "MainWindow", preset: Preset):
        super().__init__(f"Load preset {preset.name}")
        self.window = window
        self.old = (window.preset, dict(window.tuning), window.sim.hz)
        self.new = (preset, dict(preset.tuning), preset.hz)

    def redo(self) -> None:
        self.window._show_preset(*self.new)

    def undo(self) -> None:
        self.window._show_preset(*self.old)


class SetRate(QUndoCommand):
    """Undoable change of the physics tick rate."""

    def __init__(self, window: "MainWindow", hz: int):
        super().__init__(f"Tick rate {window.sim.hz} → {hz} Hz")
        self.window, self.old, self.new = window, window.sim.hz, hz

    def redo(self) -> None:
        self.window._apply_rate(self.new)

    def undo(self) -> None:
        self.window._apply_rate(self.old)


DESCRIPTION_CHARS = 90
"""The preset's description above the sliders is cut after about this many characters."""
PANEL_MIN = 280
"""px: the narrowest a panel can be made (the side panels' width, the plots' width)."""
PANEL_MIN_HEIGHT = 150
"""px: the lowest a panel can be made."""
PANEL_WIDTH = 330
"""px: the side panels' starting width."""
UNDO_LIMIT = 1000
"""Undo steps kept (older ones are dropped): hours of slider moves stay bounded."""
TUNE_MIN_HEIGHT = 720
"""px: the Tune tab's least height (its tables two rows of boxes each beside a search's
list of changes); a shorter window scrolls it."""


def _sections(text: str) -> dict[str, bool]:
    """Open (true) and closed panel sections, from their JSON text; ValueError if it is not that."""
    opened = json.loads(text)
    if not isinstance(opened, dict):
        raise ValueError("not an object of sections")
    return {str(k): bool(v) for k, v in opened.items()}


class MainWindow(SessionMixin, ReplayMixin, GhostMixin, DriveViewMixin, QMainWindow):
    """The sandbox window. `remember=False` neither reads nor writes QSettings."""

    def __init__(self, remember: bool = True):
        super().__init__()
        collect_in_window_thread()  # before any worker thread runs
        self.remember = remember
        self.last_error: str | None = None
        self.undo = QUndoStack(self)
        self._quit_agreed = False  # see quit_asking
        self.undo.setUndoLimit(UNDO_LIMIT)
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.setInterval(AUTOSAVE_MS)
        self._autosave_timer.timeout.connect(self.autosave)
        self._startup_note = ""
        self.preset, restored = self._initial_preset()
        self.model = self.preset.model
        current = restored or self.preset
        self.tuning = current.tuning.copy()
        hz = current.hz
        self.drive = DriveSession(self.model, self.tuning, hz)  # what is driven; drawn here

        self.px_per_metre = DEFAULT_PX_PER_METRE
        if remember:
            self.px_per_metre = self.setting(
                "view/px_per_metre",
                float(DEFAULT_PX_PER_METRE),
                low=min(PX_PER_METRE_CHOICES),
                high=max(PX_PER_METRE_CHOICES),
            )
        self.drive.px_per_metre = self.px_per_metre
        self.body = self.model.body(self.tuning)
        self.track = TrackView(hz)
        self.setCentralWidget(self.track)
        self.panel = self._make_panel(hz)
        self.panel_dock = self._dock("Tuning", "tuning_dock", self.panel, Qt.DockWidgetArea.RightDockWidgetArea)

        self.plots = LivePlots(hz, self.model.LENGTH_UNIT)
        self.channel_box = QComboBox()
        self.channel_box.setObjectName("telemetry_channels")
        self.channel_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.channel_box.setToolTip("What the third plot shows: the model's own telemetry")
        self.channel_box.currentTextChanged.connect(self._show_channels)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        row = QHBoxLayout()
        row.addWidget(self.plots.readout, 1)
        row.addWidget(self.channel_box)
        column.addLayout(row)
        column.addWidget(self.plots, 1)
        self._set_units()
        self.curves = ForceCurvePlot()
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.curves)
        split.setSizes([600, 500])
        self.plots_dock = self._dock("Plots", "plots_dock", split, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.sensitivity = SensitivityPanel()
        self.sensitivity_dock = self._dock(
            "What changes what", "sensitivity_dock", self.sensitivity, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.tabifyDockWidget(self.plots_dock, self.sensitivity_dock)
        self.plots_dock.raise_()
        self.sensitivity_dock.visibilityChanged.connect(self._sensitivity_shown)
        self.sensitivity.open_sweep.connect(self.open_sweep_of)

        self.metrics = MetricsPanel()
        self.metrics_dock = self._dock("Metrics", "metrics_dock", self.metrics, Qt.DockWidgetArea.RightDockWidgetArea)
        self.metrics_dock.visibilityChanged.connect(self.metrics.set_active)
        self.tabifyDockWidget(self.panel_dock, self.metrics_dock)
        self.sweep = SweepPanel()
        self.sweep.load_point.connect(self._load_sweep_point)
        self.sweep_dock = self._dock("Sweep", "sweep_dock", self.sweep, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.metrics_dock, self.sweep_dock)
        self.sweep_dock.visibilityChanged.connect(lambda shown: shown and self._sync_sweep())
        self.tune = TunePanel()
        self.tune.now = lambda: (self.model, self.tuning)  # a result is applied only to the tuning it was searched from
        self.tune.undo_stack = self.undo  # Back takes a trial's step off it
        # on a small screen the Tune tab scrolls rather than squeezing its tables below a row
        self.tune.setMinimumHeight(TUNE_MIN_HEIGHT)
        tune_scroll = QScrollArea()
        tune_scroll.setWidgetResizable(True)
        tune_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        tune_scroll.setWidget(self.tune)
        self.tune_dock = self._dock("Tune", "tune_dock", tune_scroll, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.sweep_dock, self.tune_dock)
        self.tune_dock.visibilityChanged.connect(lambda shown: shown and self._sync_tune())
        self.tune.apply_requested.connect(lambda values, text: self.panel.set_values(values, text))
        self.tune.candidate.connect(self._tune_ghost)
        self._shown_once = False

        self.status = QLabel()
        self.statusBar().addPermanentWidget(self.status, 1)
        self.keys = DriveKeys(self)
        self.drive.live = self.keys
        self.keys.tab_pressed.connect(self.toggle_panels)
        self._add_replay_bar()
        self._hidden_docks: list = []  # the panels Tab hid, to bring back
        self.files = FileActions(self)
        self.godot = GodotActions(self, self.files)
        self.menus = Menus(self, MENU_BAR)
        self.sweep.finished.connect(self.menus.refresh)
        self.undo.indexChanged.connect(self._update_title)

        self._watch_drive()
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self.frame)
        self.start_frames()

        fit_to_screen(self, PREFERRED_SIZE)
        for dock in self.docks():
            dock.setMinimumSize(PANEL_MIN, PANEL_MIN_HEIGHT)
        # the side panels run the window's full height (their sliders and tables need it
        # most on a small screen); the plots sit under the car view
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        # the Tuning tab in front before the first show: the last tab added (Tune) would
        # show first and compute the metrics in the window's thread (a first start compiles them)
        self.panel_dock.raise_()
        self._default_layout = self.saveState()
        self._size_panels()
        if remember:
            self._restore_layout()
            fit_to_screen(self)  # a size saved on a larger screen
        self._on_tuning_changed()
        self.reset_car()
        if restored is not None:
            self._startup_note += f"Restored your tuning from last session (based on {self.preset.name}). "
        if self._startup_note:
            self.statusBar().showMessage(self._startup_note.strip(), 10000)
        if "could not be shown" in self._startup_note:  # set aside: say it where it is seen
            QTimer.singleShot(0, lambda: self.show_error(self._startup_note.strip(), "Last session set aside"))
        self.track.setFocus()

    # --- construction --------------------------------------------------------
    def _make_panel(self, hz: int) -> TuningPanel:
        panel = TuningPanel(self.tuning, self.undo, self._sections_opened())
        panel.section_toggled.connect(self._remember_sections)
        panel.tuning_changed.connect(self._on_tuning_changed)
        panel.edit_finished.connect(self.track.setFocus)
        panel.rate_requested.connect(self.set_rate)
        panel.show_rate(hz)
        return panel

    def _sections_opened(self) -> dict[str, bool]:
        """The tuning panel's open and closed sections of this model, as last left."""
        if not self.remember:
            return {}
        return _sections(self.setting(f"panel/sections/{self.model.NAME}", "{}", check=_sections))

    def _remember_sections(self) -> None:
        if self.remember and hasattr(self, "panel"):
            settings().setValue(f"panel/sections/{self.model.NAME}", json.dumps(self.panel.opened()))

    def _set_units(self) -> None:
        """Units, scale and telemetry channels of the current model."""
        unit = self.model.LENGTH_UNIT
        self.track.set_units(unit, 1.0 if unit == "px" else self.px_per_metre)
        self.plots.set_units(unit)
        self.channel_box.blockSignals(True)
        self.channel_box.clear()
        self.channel_box.addItems(list(self.model.TELEMETRY))
        self.channel_box.blockSignals(False)
        self._show_channels(self.channel_box.currentText())

    def _show_channels(self, group: str) -> None:
        if group in self.model.TELEMETRY:
            unit, channels = self.model.TELEMETRY[group]
            self.plots.set_channels(group, unit, channels)

    def _dock(self, title: str, name: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    # --- menus (menu_bar.py declares them, menus.py builds them) ------------------
    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        return add_action(menu, text, slot, shortcut, tip)

    def _fill_presets_menu(self) -> None:
        self.menus.fill_presets()

    @property
    def sim(self):
        """The driven car's simulation."""
        return self.drive.sim

    # --- tuning and presets --------------------------------------------------
    def _on_tuning_changed(self) -> None:
        self.body = self.model.body(self.tuning)
        self.curves.set_tuning(self.model, self.tuning, self.sim.hz, title=self.preset.name)
        self._update_title()
        self._request_metrics()
        self._autosave_timer.start()
        if hasattr(self, "sweep"):
            self._sync_sweep()
        if hasattr(self, "tune") and self.tune_dock.isVisible():
            self._sync_tune()
        if hasattr(self, "sensitivity"):
            self.sensitivity.request(self.model, self.tuning, self.sim.hz)

    def _sensitivity_shown(self, shown: bool) -> None:
        self.sensitivity.set_active(shown)
        if shown:
            self.sensitivity.request(self.model, self.tuning, self.sim.hz)

    def open_sweep_of(self, name: str, metric: str) -> None:
        """Sweep `metric` over `name`'s range in the Sweep tab (a Sensitivity cell)."""
        self._sync_sweep()
        self.sweep_dock.raise_()
        self.sweep.sweep_one(name, metric)

    def _sync_tune(self) -> None:
        self.tune.set_model(self.model, self.tuning, self.sim.hz)

    def _sync_sweep(self) -> None:
        self.sweep.set_model(self.model, self.tuning, self.sim.hz)

    def _load_sweep_point(self, values: dict, text: str) -> None:
        self.panel.set_values(values, text)
        self.statusBar().showMessage(f"Loaded {text}", 5000)

    def _request_metrics(self) -> None:
        """Recompute the metrics panel for a snapshot of the tuning (and the ghosts')."""
        ghosts = [(g.sim.model, dict(g.sim.params), g.sim.hz) for g in self.ghosts]
        self.metrics.request((self.model, dict(self.tuning), self.sim.hz), ghosts, [g.name for g in self.ghosts])

    def modified(self) -> bool:
        return dict(self.tuning) != dict(self.preset.tuning) or self.sim.hz != self.preset.hz

    def set_rate(self, hz: int) -> None:
        """Change the physics tick rate as one undo step."""
        if hz != self.sim.hz:
            self.undo.push(SetRate(self, hz))
        else:
            self.panel.show_rate(hz)

    def _apply_rate(self, hz: int) -> None:
        self.drive.set_hz(hz)
        self.track.set_hz(hz)
        self.plots.set_hz(hz)
        self.panel.show_rate(hz)
        self.menus.refresh()
        self._on_tuning_changed()
        self._refresh_views()

    def _update_title(self) -> None:
        star = " *" if self.modified() else ""
        title = f"car-sandbox — {self.preset.name}{star}"
        if title != self.windowTitle():
            self.setWindowTitle(title)
        about = self.preset.description
        if len(about) > DESCRIPTION_CHARS:  # the whole of it in the tooltip
            about = about[:DESCRIPTION_CHARS].rsplit(" ", 1)[0] + " …"
        text = (
            f"<b>{self.model.TITLE}</b><br>preset: {html.escape(self.preset.name)}{star}<br>"
            f"<span style='color:gray'>{html.escape(about)}</span>"
        )
        if text != self.panel.title.text():  # a new text lays the whole panel out again: not on every drag step
            self.panel.title.setText(text)
            self.panel.title.setToolTip(self.preset.description)

    def apply_preset(self, preset: Preset) -> bool:
        """Switch to `preset` (its values and its name) as one undo step; a preset of
        another model switches the model, which starts a new undo history: first an
        unsaved tuning is saved or given up (asked). False if the user kept it."""
        if preset.model is not self.model:
            if not self.files.keep_or_drop_changes(f"Switching to the {preset.model.TITLE} model ({preset.name})"):
                self.menus.refresh()  # the menu ticked the new model already
                return False
            self._switch_to(preset)
        elif (preset.name, preset.path, dict(preset.tuning), preset.hz) != (
            self.preset.name,
            self.preset.path,
            dict(self.tuning),
            self.sim.hz,
        ):
            self.undo.push(LoadPreset(self, preset))  # loading what is already there changes nothing to undo
        if self.remember and preset.path is not None:
            settings().setValue("preset/last_path", str(Path(preset.path).resolve()))
        self.statusBar().showMessage(f"Preset {preset.name} loaded", 4000)
        return True

    def _show_preset(self, preset: Preset, values, hz: int) -> None:
        """Make `preset` current with `values` and `hz` (used by undo/redo)."""
        self.preset = preset
        self.panel.apply_values(values)
        if hz != self.sim.hz:
            self._apply_rate(hz)
        self._on_tuning_changed()

    def switch_model(self, name: str) -> bool:
        """Drive model `name`, starting from its first built-in preset; False if the
        user kept the unsaved tuning of the model driven now."""
        model = MODELS[name]
        if model is self.model:
            return True
        firsts = [path for path, _, builtin, m in list_presets() if builtin and m == name]
        preset = None
        if firsts:
            try:
                preset = load_preset(firsts[0])
            except UserError:
                preset = None
        return self.apply_preset(preset or declared_preset(model, f"{model.TITLE} defaults"))

    def _switch_to(self, preset: Preset) -> None:
        """Replace the model: new tuning, panel, simulation and units; undo starts afresh
        (the old model's steps cannot apply to the new one's parameters)."""
        self.model = preset.model
        self.preset = preset
        self.tuning = preset.tuning.copy()
        self.drive.set_car(self.model, self.tuning, preset.hz)
        old = self.panel
        self.panel = self._make_panel(preset.hz)
        self.panel_dock.setWidget(self.panel)
        old.deleteLater()
        self.undo.clear()
        self._set_units()
        self.track.set_hz(preset.hz)
        self.plots.set_hz(preset.hz)
        self.menus.refresh()
        self._on_tuning_changed()
        self.reset_car()
        self.statusBar().showMessage(f"Model {self.model.TITLE}, preset {preset.name} (undo history cleared)", 6000)

    def set_px_per_metre(self, value: float) -> None:
        self.px_per_metre = self.drive.px_per_metre = value
        if self.remember:
            settings().setValue("view/px_per_metre", value)
        self.menus.refresh()
        self._set_units()

    # --- files (file_actions.py, godot_actions.py) ------------------------------------
    def open_preset_file(self, path) -> bool:
        return self.files.open_preset_file(path)

    def preset_file_dialog(self) -> QFileDialog:
        return self.files.preset_file_dialog()

    def save(self) -> bool:
        return self.files.save()

    def save_as_dialog(self) -> bool:
        return self.files.save_as_dialog()

    def save_preset_to(self, path, name: str | None = None) -> bool:
        return self.files.save_preset_to(path, name)

    def export_plots(self, path) -> bool:
        return self.files.export_plots(path)

    def export_curve(self, path) -> bool:
        return self.files.export_curve(path)

    def export_sweep(self, path) -> bool:
        return self.files.export_sweep(path)

    def _read(self, loader, path):
        return self.files.read(loader, path)

    def _attempt(self, action, done: str) -> bool:
        return self.files.attempt(action, done)

    def current_preset(self) -> Preset:
        """The tuning on screen as a preset (name and description of the loaded one)."""
        return Preset(self.model, self.tuning.copy(), self.preset.name, self.preset.description, self.sim.hz)

    def godot_export_dialog(self) -> GodotExportDialog:
        return self.godot.export_dialog()

    def export_godot(self, path, godot: int, scene: bool = False) -> bool:
        return self.godot.export(path, godot, scene)

    def update_script(self, path) -> UpdateScriptDialog | None:
        return self.godot.update_script(path)

    def import_godot(self, path) -> bool:
        return self.godot.import_script(path)

    # --- view ------------------------------------------------------------------
    def show_tab(self, name: str) -> None:
        """Bring the panel's tab `name` (tuning, metrics, sweep, tune; sensitivity, below) to the front
        and wait for what it shows: the metrics computed, a sweep of the first two
        parameters run, or an auto-tune of the first metric with a value to 10 % more
        (for screenshots)."""
        dock = {
            "tuning": self.panel_dock,
            "metrics": self.metrics_dock,
            "sweep": self.sweep_dock,
            "tune": self.tune_dock,
            "sensitivity": self.sensitivity_dock,
        }[name]
        dock.raise_()
        QApplication.processEvents()
        if name == "metrics":
            self.metrics.settle()
        elif name == "sweep":
            self.sweep.use_second.setChecked(True)
            self.sweep.run()
            self.sweep.settle()
        elif name == "sensitivity":
            self.sensitivity.settle()
        elif name == "tune":
            self._sync_tune()
            self.tune.example()
            self.tune.settle()

    def docks(self) -> list[QDockWidget]:
        return [
            self.panel_dock,
            self.metrics_dock,
            self.sweep_dock,
            self.tune_dock,
            self.plots_dock,
            self.sensitivity_dock,
        ]

    def toggle_panels(self) -> None:
        """Tab: hide every panel (the car gets the whole window), or bring back the ones
        hidden that way."""
        shown = [dock for dock in self.docks() if dock.isVisible()]
        if shown:
            self._hidden_docks = [dock for dock in self.docks() if not dock.isHidden()]
            for dock in self._hidden_docks:
                dock.hide()
        else:
            for dock in self._hidden_docks or self.docks():
                dock.show()
            self.panel_dock.raise_()
            self._hidden_docks = []
        self.menus.refresh()
        self.track.setFocus()

    def reset_layout(self) -> None:
        """Every panel back to its starting place and size."""
        self.restoreState(self._default_layout)
        for dock in self.docks():
            dock.show()
        self.panel_dock.raise_()
        self.plots_dock.raise_()
        self._hidden_docks = []
        self.menus.refresh()
        self._size_panels()

    def _size_panels(self) -> None:
        """The starting sizes: the side panels PANEL_WIDTH wide or a quarter of a wider
        window (longer sliders), the plots a third of the window's height; the car view
        takes the rest."""
        self.resizeDocks([self.panel_dock], [max(PANEL_WIDTH, self.width() // 4)], Qt.Orientation.Horizontal)
        self.resizeDocks([self.plots_dock], [max(PANEL_MIN_HEIGHT, self.height() // 3)], Qt.Orientation.Vertical)

    def show_controls(self) -> None:
        QMessageBox.information(self, "Controls", self.help_text())

    def help_text(self) -> str:
        """The driving keys, then every menu command that has a shortcut, read from the
        menus themselves (so the list is never out of date)."""
        return CONTROLS_HELP + "<br><br><b>Menu shortcuts</b><br>" + "<br>".join(shortcut_rows(self.menuBar()))

    def show_error(self, message: str, title: str = "car-sandbox") -> None:
        """A dialog that names the problem; non-blocking so the car keeps running."""
        self.last_error = message
        self.statusBar().showMessage(message.splitlines()[0], 10000)
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def save_screenshot(self, path, widget=None) -> None:
        """PNG of the whole window (or of `widget`, e.g. a dialog) as it is drawn now."""
        image = (widget or self).grab()
        write_atomic(path, lambda name: image.save(name, "PNG"), check=png_complete)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown_once:  # tab order only takes effect once the window exists
            self._shown_once = True
            QTimer.singleShot(SHOWN_MS, self._session_shown)
            if not (self.remember and settings().value("window/state") is not None):
                self.panel_dock.raise_()
                self._size_panels()

    def quit_asking(self) -> None:
        """Quit (menu, Ctrl+Q, Ctrl+C in the terminal), asking first about unsaved work."""
        if self.files.keep_or_drop_changes("Quitting"):
            self._quit_agreed = True
            self.close()

    def close_now(self) -> None:
        """Close without asking (told to stop by the system): the autosave keeps an
        unsaved tuning for the next start."""
        self._quit_agreed = True
        self.close()

    def closeEvent(self, event) -> None:
        if event.spontaneous() and not self._quit_agreed:  # the window's close button
            if not self.files.keep_or_drop_changes("Closing the window"):
                event.ignore()
                return
        self.timer.stop()
        self.metrics.wait()
        self.curves.job.wait()
        self.sweep.wait()
        self.tune.stop()
        self.tune.wait()
        self.sensitivity.job.wait()
        if self.remember:
            store = settings()
            store.setValue("window/geometry", self.saveGeometry())
            store.setValue("window/state", self.saveState())
            store.setValue("view/zoom", self.track.zoom)
            store.sync()
            self.autosave()
            self._session_shown()
        self.keys.detach()
        super().closeEvent(event)
