"""Main window: the car view, the tuning panel, live plots, menus and the frame loop."""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..errors import PresetError, UserError
from ..files.disk import make_folder, png_complete, write_atomic, write_failure
from ..files.godot import export_script, has_script, save_script
from ..files.godot_import import load_script
from ..files.godot_scene import save_scene
from ..files.presets import BUILTIN_DIR, Preset, declared_preset, list_presets, load_preset, save_preset, user_dir
from ..physics.models import MODELS
from ..physics.sim import TICK_RATES
from ..session.drive import DriveSession
from ..session.ghosts import MAX_GHOSTS
from .curves import ForceCurvePlot
from .drive_view import DriveViewMixin
from .ghosts import GhostMixin
from .godot_export_dialog import GodotExportDialog
from .godot_into_dialog import UpdateScriptDialog
from .input import DriveKeys
from .live_plot_export import export_live_plots
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
PX_PER_METRE_CHOICES = (10.0, 15.0, 25.0, 40.0, 60.0)
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


def _mark(group: QActionGroup, value) -> None:
    """Tick the action of `group` whose data is `value`."""
    for action in group.actions():
        action.setChecked(action.data() == value)


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
        self._asking = self._quit_agreed = False  # see keep_or_drop_changes, quit_asking
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
        self._build_menus()
        _mark(self.rate_actions, hz)
        self.undo.indexChanged.connect(self._update_title)

        self._watch_drive()
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self.frame)
        self.start_frames()

        fit_to_screen(self, PREFERRED_SIZE)
        for dock in self.docks():
            dock.setMinimumSize(PANEL_MIN, PANEL_MIN_HEIGHT)
        self._hidden_docks: list = []  # the panels Tab hid, to bring back
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

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, menu)  # owned by the menu: menu.clear() deletes it
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _choices(self, menu, items, pick) -> QActionGroup:
        """An exclusive group of checkable actions, one per (label, value, tip);
        triggering one calls pick(value). `_mark` ticks the current value."""
        group = QActionGroup(self)
        for label, value, tip in items:
            action = self._action(menu, label, lambda _=False, v=value: pick(v), None, tip)
            action.setCheckable(True)
            action.setData(value)
            group.addAction(action)
        return group

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = file = bar.addMenu("&File")
        self._action(file, "&Open preset…", self.open_preset_dialog, QKeySequence.StandardKey.Open)
        self._action(
            file,
            "&Save preset",
            self.save,
            QKeySequence.StandardKey.Save,
            "Save over the current preset (built-in presets are saved as a copy)",
        )
        self._action(file, "Save preset &as…", self.save_as_dialog, "Ctrl+Shift+S")
        file.addSeparator()
        self.import_menu = imports = file.addMenu("&Import")
        self._action(
            imports,
            "&Godot script (.gd)…",
            self.import_godot_dialog,
            "Ctrl+I",
            "Read the tuning of a Godot car script into the sliders (nothing in the file is run)",
        )
        self.export_menu = export = file.addMenu("&Export")
        self._action(export, "Force curve as &PNG image…", lambda: self.export_curve_dialog(".png"), "Ctrl+E")
        self._action(export, "Force curve as &SVG drawing…", lambda: self.export_curve_dialog(".svg"))
        self._action(export, "Force curve as &CSV data…", lambda: self.export_curve_dialog(".csv"))
        export.addSeparator()
        for kind, suffix in (("PNG image", ".png"), ("SVG drawing", ".svg"), ("CSV data", ".csv")):
            self._action(
                export,
                f"Live plots as {kind}…",
                lambda _=False, s=suffix: self.export_plots_dialog(s),
                None,
                "Speed, slip angle and the model's channels over the last 10 s (ghosts too)",
            )
        export.addSeparator()
        self.sweep_exports = [
            self._action(export, "Sweep as CS&V data…", lambda: self.export_sweep_dialog(".csv")),
            self._action(export, "Sweep plot as P&NG…", lambda: self.export_sweep_dialog(".png")),
            self._action(export, "Sweep plot as S&VG…", lambda: self.export_sweep_dialog(".svg")),
        ]
        export.addSeparator()
        self.godot_exports = [
            self._action(
                export,
                "&Godot script or scene…",
                self.export_godot_dialog,
                "Ctrl+G",
                "The car as a Godot 3 or 4 script, or a scene to open and play",
            ),
            self._action(
                export,
                "Copy Godot sc&ript",
                self.copy_godot_script,
                "Ctrl+Shift+C",
                "Put the car's Godot script on the clipboard (the version last exported, else Godot 4)",
            ),
            self._action(
                export,
                "&Update my script…",
                self.update_script_dialog,
                None,
                "Write the tuning's values into your own Godot car script; nothing else in it changes",
            ),
        ]
        self.sweep.finished.connect(self._update_exports)
        self._update_exports()
        file.addSeparator()
        self._action(file, "&Quit", self.quit_asking, QKeySequence.StandardKey.Quit)

        edit = bar.addMenu("&Edit")
        undo = self.undo.createUndoAction(self, "&Undo")
        undo.setShortcuts([QKeySequence("Ctrl+Z")])
        redo = self.undo.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addAction(undo)
        edit.addAction(redo)
        edit.addSeparator()
        self._action(edit, "Reset all &parameters", self.panel.reset_all, "Ctrl+Shift+R")

        self.presets_menu = bar.addMenu("&Presets")
        self.presets_menu.aboutToShow.connect(self._fill_presets_menu)
        self._fill_presets_menu()

        view = bar.addMenu("&View")
        self.panel_action = self._action(
            view,
            "Show &panels\tTab",
            self.toggle_panels,
            None,
            "Hide every panel to give the car the whole window; Tab again brings them back",
        )
        self.panel_action.setCheckable(True)
        self.panel_action.setChecked(True)
        self._action(
            view,
            "&Reset layout",
            self.reset_layout,
            None,
            "Panels back to where and how large they start: the car view first",
        )
        view.addSeparator()
        view.addAction(self.panel_dock.toggleViewAction())
        view.addAction(self.plots_dock.toggleViewAction())
        view.addAction(self.metrics_dock.toggleViewAction())
        view.addAction(self.sweep_dock.toggleViewAction())
        view.addAction(self.tune_dock.toggleViewAction())
        view.addAction(self.sensitivity_dock.toggleViewAction())
        view.addSeparator()
        self._action(view, "Zoom &in", lambda: self.track.set_zoom(self.track.zoom * 1.25), "Ctrl+=")
        self._action(view, "Zoom &out", lambda: self.track.set_zoom(self.track.zoom / 1.25), "Ctrl+-")
        self._action(view, "&Actual size", lambda: self.track.set_zoom(1.0), "Ctrl+0")
        scale = view.addMenu("&Pixels per metre (models in metres)")
        self.scale_actions = self._choices(
            scale, [(f"{v:g} px/m", v, "") for v in PX_PER_METRE_CHOICES], self.set_px_per_metre
        )
        _mark(self.scale_actions, self.px_per_metre)

        self.model_menu = bar.addMenu("&Model")
        models = [(m.TITLE, name, f"Drive the {m.TITLE} model (its first preset)") for name, m in MODELS.items()]
        self.model_actions = self._choices(self.model_menu, models, self.switch_model)
        _mark(self.model_actions, self.model.NAME)

        traces = bar.addMenu("&Traces")
        self.replay_bar.record_action.setShortcut(QKeySequence("Ctrl+R"))
        traces.addAction(self.replay_bar.record_action)
        self._action(
            traces,
            "&Save recording as…",
            self.save_recording_dialog,
            None,
            "Write the last recording as a control trace CSV",
        )
        traces.addSeparator()
        self.replay_bar.play_action.setShortcut(QKeySequence("F6"))
        self.replay_bar.step_action.setShortcut(QKeySequence("F7"))
        self.replay_bar.live_action.setShortcut(QKeySequence("F8"))
        for action in (self.replay_bar.play_action, self.replay_bar.step_action, self.replay_bar.live_action):
            traces.addAction(action)
        traces.addSeparator()
        self._action(traces, "&Open trace…", self.open_trace_dialog, None, "Replay a control trace CSV")
        self.traces_menu = traces.addMenu("&Replay a test drive")
        self.traces_menu.aboutToShow.connect(self._fill_traces_menu)
        self._fill_traces_menu()

        compare = bar.addMenu("C&ompare")
        self._action(
            compare,
            "&Pin this tuning as a ghost",
            self.pin_ghost,
            "Ctrl+P",
            f"A car with these values, driven by the same controls, drawn translucent (up to {MAX_GHOSTS})",
        )
        self.ghost_presets_menu = compare.addMenu("Add a ghost from &preset")
        self.ghost_presets_menu.aboutToShow.connect(self._fill_ghost_menu)
        self._action(compare, "&Remove the ghosts", self.remove_ghost, "Ctrl+Shift+P")

        physics = bar.addMenu("P&hysics")
        self.rate_actions = self._choices(physics, [(f"{hz} Hz", hz, "") for hz in TICK_RATES], self.set_rate)

        car = bar.addMenu("&Car")
        self._action(car, "&Reset car", self.reset_car, "R", "Put the car back at the origin, at rest")

        help_ = bar.addMenu("&Help")
        self._action(help_, "&Controls…", self.show_controls, QKeySequence.StandardKey.HelpContents)

    def _fill_presets_menu(self) -> None:
        """This model's presets first (Ctrl+1…9), then other models', then yours."""
        menu = self.presets_menu
        menu.clear()
        entries = list_presets()
        here = [e for e in entries if e[2] and e[3] == self.model.NAME]
        others = [e for e in entries if e[2] and e[3] != self.model.NAME]
        mine = [e for e in entries if not e[2]]
        sections = {0: f"Built-in · {self.model.TITLE}"}
        if others:
            sections[len(here)] = "Built-in · other models (switches the model)"
        if mine:
            sections[len(here) + len(others)] = "Yours"
        for index, (path, name, _, model) in enumerate(here + others + mine):
            if index in sections:
                menu.addSection(sections[index])
            number = index + 1
            if model is not None and model != self.model.NAME:
                name = f"{name} ({MODELS[model].TITLE})"
            shortcut = f"Ctrl+{number}" if number <= 9 and index < len(here) else None
            action = self._action(menu, name, lambda _=False, p=path: self.open_preset_file(p), shortcut, str(path))
            action.setCheckable(True)
            action.setChecked(self.preset.path is not None and path.resolve() == self.preset.path.resolve())
        if not mine:
            hint = menu.addAction(f"(your presets go to {user_dir()})")
            hint.setEnabled(False)

    def _fill_ghost_menu(self) -> None:
        menu = self.ghost_presets_menu
        menu.clear()
        for path, name, _, model in list_presets():
            if model is not None:
                label = f"{name} ({MODELS[model].TITLE})"
                self._action(menu, label, lambda _=False, p=path: self.ghost_from_file(p))

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

    def export_sweep(self, path) -> bool:
        return self._attempt(lambda: self.sweep.export(path), f"Exported {path}")

    def export_sweep_dialog(self, suffix: str) -> None:
        self._export_dialog("sweep", suffix, self.export_sweep)

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
        _mark(self.rate_actions, hz)
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
            if not self.keep_or_drop_changes(f"Switching to the {preset.model.TITLE} model ({preset.name})"):
                _mark(self.model_actions, self.model.NAME)  # the menu ticked the new model already
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

    def _update_exports(self) -> None:
        """Export items that can only fail are greyed out, with the reason as their tip."""
        scripted = has_script(self.model)
        for action in self.godot_exports:
            action.setEnabled(scripted)
        swept = self.sweep.grid is not None
        for action in self.sweep_exports:
            action.setEnabled(swept)
            action.setStatusTip("" if swept else "Run a sweep first (the Sweep tab)")

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
        self._update_exports()
        self.track.set_hz(preset.hz)
        self.plots.set_hz(preset.hz)
        _mark(self.rate_actions, preset.hz)
        _mark(self.model_actions, self.model.NAME)
        self._on_tuning_changed()
        self.reset_car()
        self.statusBar().showMessage(f"Model {self.model.TITLE}, preset {preset.name} (undo history cleared)", 6000)

    def set_px_per_metre(self, value: float) -> None:
        self.px_per_metre = self.drive.px_per_metre = value
        if self.remember:
            settings().setValue("view/px_per_metre", value)
        _mark(self.scale_actions, value)
        self._set_units()

    def open_preset_file(self, path) -> bool:
        """Load a preset file; on a bad file show why and change nothing."""
        try:
            preset = load_preset(path)
        except UserError as exc:
            self.show_error(str(exc))
            return False
        return self.apply_preset(preset)

    def preset_file_dialog(self) -> QFileDialog:
        """The Open dialog: it starts where Save writes (your presets folder, once it has
        a preset) and shows that folder and the built-in presets side by side."""
        mine = user_dir()
        has_mine = mine.is_dir() and any(mine.glob("*.json"))
        dialog = QFileDialog(
            self, "Open preset", str(mine if has_mine else BUILTIN_DIR), "Presets (*.json);;All files (*)"
        )
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # the side bar below is Qt's own
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        places = [QUrl.fromLocalFile(str(folder)) for folder in (mine, BUILTIN_DIR) if folder.is_dir()]
        dialog.setSidebarUrls(dialog.sidebarUrls() + places)
        return dialog

    def open_preset_dialog(self) -> None:
        dialog = self.preset_file_dialog()
        if dialog.exec() and dialog.selectedFiles():
            self.open_preset_file(dialog.selectedFiles()[0])

    def save(self) -> bool:
        """Save over the current preset (a built-in one as a copy); True once saved."""
        path = self.preset.path
        if path is None or path.resolve().parent == BUILTIN_DIR:
            return self.save_as_dialog()
        return self.save_preset_to(path)

    def save_as_dialog(self) -> bool:
        folder = user_dir()
        try:
            make_folder(folder, PresetError)
        except PresetError as exc:  # say why, and let the user save somewhere else
            self.show_error(f"{exc}. Choose another folder for your preset.", "Save preset as")
            folder = next((p for p in folder.parents if p.is_dir() and os.access(p, os.W_OK)), Path.home())
        stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in self.preset.name.lower()) or "preset"
        path, _ = QFileDialog.getSaveFileName(self, "Save preset as", str(folder / f"{stem}.json"), "Presets (*.json)")
        if path:
            if not path.lower().endswith(".json"):
                path += ".json"
            return self.save_preset_to(path, name=Path(path).stem)
        return False

    def save_preset_to(self, path, name: str | None = None) -> bool:
        """Write the current tuning to `path` (atomically); it becomes the current preset."""
        preset = self.current_preset()
        if name is not None:
            preset.name, preset.description = name, f"Based on {self.preset.name}."
        try:
            save_preset(preset, path)
        except UserError as exc:
            self.show_error(str(exc))
            return False
        except OSError as exc:  # not foreseen by the preset files: still say which file and why
            self.show_error(f"{path}: {write_failure(Path(path), exc)}; nothing was saved")
            return False
        self.preset = preset
        self._on_tuning_changed()
        if self.remember:
            settings().setValue("preset/last_path", str(Path(preset.path).resolve()))
        self._fill_presets_menu()
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def export_curve_dialog(self, suffix: str) -> None:
        self._export_dialog("force_curve", suffix, self.export_curve)

    def export_plots_dialog(self, suffix: str) -> None:
        self._export_dialog("live_plots", suffix, self.export_plots)

    def export_plots(self, path) -> bool:
        return self._attempt(lambda: export_live_plots(self.plots, path), f"Exported {path}")

    def export_curve(self, path) -> bool:
        return self._attempt(lambda: self.curves.export(path), f"Exported {path}")

    def _export_dialog(self, stem: str, suffix: str, export) -> None:
        """Ask where to write `stem`+`suffix` (last folder used), then `export(path)`."""
        kind = suffix[1:].upper()
        path = self._ask_save_path(
            f"Export {stem.replace('_', ' ')} as {kind}", f"{stem}{suffix}", f"{kind} (*{suffix})", "export/last_dir"
        )
        if path:
            export(path if path.lower().endswith(suffix) else path + suffix)

    def _read(self, loader, path):
        """`loader(path)`, or None after a dialog saying why the file was refused."""
        try:
            return loader(path)
        except UserError as exc:
            self.show_error(str(exc))
            return None

    def _attempt(self, action, done: str) -> bool:
        """Run `action`: a user mistake (UserError) becomes a dialog and False, success a
        status message and True."""
        try:
            action()
        except UserError as exc:
            self.show_error(str(exc))
            return False
        self.statusBar().showMessage(done, 4000)
        return True

    def _ask_save_path(self, title: str, name: str, pattern: str, key: str) -> str | None:
        """Save dialog starting in the folder last used for `key`; None if cancelled."""
        folder = self.setting(key, "") if self.remember else None
        path, _ = QFileDialog.getSaveFileName(self, title, str(Path(str(folder or Path.home())) / name), pattern)
        if path and self.remember:
            settings().setValue(key, str(Path(path).parent))
        return path or None

    def current_preset(self) -> Preset:
        """The tuning on screen as a preset (name and description of the loaded one)."""
        return Preset(self.model, self.tuning.copy(), self.preset.name, self.preset.description, self.sim.hz)

    def _godot_choice(self) -> tuple[int, bool]:
        """(Godot version, scene?) last chosen in the export dialog: Godot 4, a script."""
        if not self.remember:
            return 4, False
        return self.setting("godot/version", 4, choices=(3, 4)), self.setting("godot/scene", False)

    def godot_export_dialog(self) -> GodotExportDialog:
        """The export dialog for the tuning on screen (not yet shown)."""
        godot, scene = self._godot_choice()

        def ask_path(as_scene: bool) -> str | None:
            name, pattern = ("car.tscn", "Godot scene (*.tscn)") if as_scene else ("car.gd", "GDScript (*.gd)")
            return self._ask_save_path("Export to Godot", name, pattern, "godot/last_dir")

        return GodotExportDialog(
            self.current_preset(), self.px_per_metre, godot, scene, self, ask_path, self._godot_saved
        )

    def export_godot_dialog(self) -> None:
        self.godot_export_dialog().exec()

    def _godot_saved(self, dialog: GodotExportDialog, written: list[Path]) -> None:
        if self.remember:
            settings().setValue("godot/version", dialog.godot)
            settings().setValue("godot/scene", dialog.scene)
        self.statusBar().showMessage("Exported " + " and ".join(str(p) for p in written), 6000)

    def export_godot(self, path, godot: int, scene: bool = False) -> bool:
        """Write the Godot script (or the scene and its script) of the tuning on screen."""
        save = save_scene if scene else save_script
        return self._attempt(
            lambda: save(self.current_preset(), path, godot, self.px_per_metre),
            f"Exported Godot {godot} {'scene' if scene else 'script'} {path}",
        )

    def copy_godot_script(self) -> bool:
        godot, _ = self._godot_choice()
        try:
            text = export_script(self.current_preset(), godot, self.px_per_metre)
        except UserError as exc:
            self.show_error(str(exc))
            return False
        QApplication.clipboard().setText(text)
        self.statusBar().showMessage(f"Copied the Godot {godot} script of {self.model.TITLE} to the clipboard", 6000)
        return True

    def _ask_godot_script(self, title: str) -> str | None:
        """Open dialog for a car script, in the folder of the last Godot export."""
        folder = self.setting("godot/last_dir", "") if self.remember else None
        path, _ = QFileDialog.getOpenFileName(self, title, str(folder or Path.home()), "GDScript (*.gd);;All files (*)")
        return path or None

    def import_godot_dialog(self) -> None:
        path = self._ask_godot_script("Import Godot script")
        if path:
            self.import_godot(path)

    def update_script_dialog(self) -> None:
        path = self._ask_godot_script("Update my Godot script")
        dialog = self.update_script(path) if path else None
        if dialog is not None:
            dialog.exec()

    def update_script(self, path) -> UpdateScriptDialog | None:
        """The dialog writing the tuning on screen into the car script at `path` (not yet
        shown), or None after a message saying why the script is refused."""
        dialog = self._read(lambda p: UpdateScriptDialog(self.current_preset(), p, self), path)
        if dialog is not None:
            dialog.accepted.connect(lambda: self.statusBar().showMessage(f"Updated {path}", 6000))
        return dialog

    def import_godot(self, path) -> bool:
        """Apply the parameters a car.gd declares, as one undo step; list what was not used."""
        result = self._read(lambda p: load_script(p, self.model), path)
        if result is None:
            return False
        self.panel.set_values(result.values, f"Import {Path(path).name}")
        self.statusBar().showMessage(f"Imported {len(result.values)} values from {path}", 6000)
        if result.warnings:
            self.show_error(
                f"{path}: {len(result.values)} values imported.\n" + "\n".join(result.warnings), title="Import: notes"
            )
        return True

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
        self.panel_action.setChecked(not shown)
        self.track.setFocus()

    def reset_layout(self) -> None:
        """Every panel back to its starting place and size."""
        self.restoreState(self._default_layout)
        for dock in self.docks():
            dock.show()
        self.panel_dock.raise_()
        self.plots_dock.raise_()
        self._hidden_docks = []
        self.panel_action.setChecked(True)
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
        rows = []

        def walk(owner, path: str) -> None:
            # submenus found as the owner's child widgets: QAction.menu() would hand Python
            # a wrapper that deletes the menu when it is collected (the menu then dies)
            submenus = {
                menu.menuAction(): menu
                for menu in owner.findChildren(QMenu, options=Qt.FindChildOption.FindDirectChildrenOnly)
            }
            for action in owner.actions():
                label = action.text().replace("&", "")
                if action in submenus:
                    walk(submenus[action], f"{path}{label} → ")
                elif not action.shortcut().isEmpty():
                    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
                    rows.append(f"{keys} · {path}{label.rstrip('…')}")

        walk(self.menuBar(), "")
        return CONTROLS_HELP + "<br><br><b>Menu shortcuts</b><br>" + "<br>".join(rows)

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

    def keep_or_drop_changes(self, what: str) -> bool:
        """Before `what` would lose an unsaved tuning for good: Save, Discard or Cancel.
        True to go on (saved, or given up), False to stay as it is."""
        if not self.modified():
            return True
        if self._asking:  # a second Ctrl+C or Quit while the question is open
            return False
        buttons = QMessageBox.StandardButton
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Unsaved tuning",
            f"{self.preset.name} has changes that are not saved.\n{what} loses them.",
            buttons.Save | buttons.Discard | buttons.Cancel,
            self,
        )
        box.setInformativeText("Save them as a preset first?")
        box.setDefaultButton(buttons.Save)
        self._asking = True
        try:
            answer = box.exec()
        finally:
            self._asking = False
        if answer == buttons.Save:
            return self.save()
        if answer == buttons.Discard:  # given up: an autosave must not bring them back
            self._show_preset(self.preset, self.preset.tuning, self.preset.hz)
            return True
        return False

    def quit_asking(self) -> None:
        """Quit (menu, Ctrl+Q, Ctrl+C in the terminal), asking first about unsaved work."""
        if self.keep_or_drop_changes("Quitting"):
            self._quit_agreed = True
            self.close()

    def close_now(self) -> None:
        """Close without asking (told to stop by the system): the autosave keeps an
        unsaved tuning for the next start."""
        self._quit_agreed = True
        self.close()

    def closeEvent(self, event) -> None:
        if event.spontaneous() and not self._quit_agreed:  # the window's close button
            if not self.keep_or_drop_changes("Closing the window"):
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
