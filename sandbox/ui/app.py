"""Main window: the car view, the tuning panel, live plots, menus and the frame loop."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
)

from ..analysis.kernel_prep import resume, stop_children
from ..files.disk import png_complete, write_atomic
from ..files.presets import Preset, values_and_precision
from ..physics.car_shape import CarShape
from ..session.drive import DriveSession
from ..session.tuning import LiveTuning, TuningChange
from .drive_view import CONES_TIP, DriveView
from .file_actions import FileActions
from .fit_dialog import FitDialog
from .ghosts import Compare
from .godot_actions import GodotActions
from .godot_export_dialog import GodotExportDialog
from .godot_into_dialog import UpdateScriptDialog
from .input import DriveKeys
from .lap_settings import LapSettings
from .lap_wheel import WheelControl
from .link_control import LinkControl
from .menu_bar import MENU_BAR, PX_PER_METRE_CHOICES
from .menus import Menus, shortcut_rows
from .pad_control import PadControl
from .panels import Panels
from .preset_switcher import PresetSwitcher
from .qt import collect_in_window_thread
from .recording_control import RecordingControl
from .replay_control import ReplayControl
from .screen_fit import PREFERRED_SIZE, fit_to_screen
from .track_view import TrackView
from .window_memory import SHOWN_MS, SessionMemory, settings
from .worker import Worker
from .world_tracks import WorldTracks

DEFAULT_PX_PER_METRE = 25.0
CONTROLS_HELP = """<b>Driving</b><br>
W / ↑ accelerate · S / ↓ brake, then reverse · A / ← steer left · D / → steer right<br>
Space handbrake · Q / E shift down / up (dynamic car, manual gearbox)<br>
R reset the car · mouse wheel zoom · Tab hide/show every panel<br>
A game pad: left stick steer · right / left trigger throttle / brake · A handbrake ·<br>
shoulders or D-pad up / down shift · Y reset · Back record<br>
Car → Controls… (Ctrl+Shift+J): each axis live, its dead zone, curve and inversion; a wheel's axis map<br><br>
<b>Tuning</b><br>
Drag a slider or type in its number box (Enter gives the keys back to the car); the next<br>
physics tick uses the new value. Sections open and close with their headers.<br>
Shift while dragging: 10× slower · a clicked number box: the wheel moves one step a notch<br>
↺ resets one parameter · undo and redo go back and forth (one drag = one step)"""


UNDO_LIMIT = 1000
"""Undo steps kept (older ones are dropped): hours of slider moves stay bounded."""


class MainWindow(QMainWindow):
    """The sandbox window. `remember=False` neither reads nor writes QSettings."""

    def __init__(self, remember: bool = True):
        super().__init__()
        collect_in_window_thread()  # before any worker thread runs
        resume()  # a window closed before in this process stopped the compiling: this one's go on
        self.remember = remember
        self.last_error: str | None = None
        self.undo = QUndoStack(self)
        self._quit_agreed = False  # see quit_asking
        self.undo.setUndoLimit(UNDO_LIMIT)
        self.memory = SessionMemory(self)  # what is kept between runs
        self.preset, restored = self.memory.initial_preset()
        current = restored or self.preset
        self.tuning = LiveTuning(self.preset.model, current.tuning, current.hz)
        """The model, its values and the tick rate; each change announced to whoever follows it."""
        self.fitted = values_and_precision(restored) if restored else {}
        """{parameter: (the value a fit found, its ±)}: the fits applied (`current_preset`)."""
        hz = current.hz
        self.drive = DriveSession(self.model, self.tuning, hz)  # what is driven; drawn here
        self.drive.follow(self.tuning)
        self.tuning.changed.connect(self._new_body)
        self.tuning.changed.connect(lambda change: self.memory.timer.start())  # the autosave, debounced

        self.px_per_metre = DEFAULT_PX_PER_METRE
        if remember:
            self.px_per_metre = self.memory.setting(
                "view/px_per_metre",
                float(DEFAULT_PX_PER_METRE),
                low=min(PX_PER_METRE_CHOICES),
                high=max(PX_PER_METRE_CHOICES),
            )
        self.drive.px_per_metre = self.px_per_metre
        self.body = self.model.body(self.tuning)
        self.show_collision_shape = False  # View → Collision shape: off until asked for
        self.track = TrackView(hz)
        self.setCentralWidget(self.track)
        self.switcher = PresetSwitcher(self)
        self.compare = Compare(self)
        self.panels = Panels(self, hz)  # sets panel, plots, curves, sensitivity, metrics, sweep, tune
        self._shown_once = False

        self.status = QLabel()
        self.statusBar().addPermanentWidget(self.status, 1)
        self.cones = QLabel()  # the cones knocked, on a track with cones (drive_view.refresh)
        self.cones.setToolTip(CONES_TIP)
        self.cones.hide()
        self.statusBar().addPermanentWidget(self.cones)
        self.keys = DriveKeys(self)
        self.drive.live = self.keys
        self.keys.tab_pressed.connect(self.panels.toggle)
        self.controllers = PadControl(self)  # game controllers, polled each frame (drive_view)
        self.replay = ReplayControl(self)  # the record and replay toolbar
        self.recordings = RecordingControl(self, lambda: FitDialog(self))  # a game recording replayed, its divergence
        self.files = FileActions(self)
        self.godot = GodotActions(self, self.files)
        self.link = LinkControl(self)  # the live link to the game, in the Link panel
        self.wheel = WheelControl(self)  # Car → Driver at the wheel (F9)
        self.world = WorldTracks(self)  # the track the car drives on (Track menu); `track` is the car view
        self.menus = Menus(self, MENU_BAR)
        self.sweep.finished.connect(self.menus.refresh)
        self.undo.indexChanged.connect(self._update_title)

        self.drive_view = DriveView(self)  # the frame loop, drawing the drive session
        self.timer = self.drive_view.timer  # the frame timer: stopped by the benchmarks and the screenshots
        self.lap_settings = LapSettings(self)  # the Laps tab's reference lap and cone penalty
        self.drive_view.start_frames()

        fit_to_screen(self, PREFERRED_SIZE)
        self.panels.lay_out()
        if remember:
            self.memory.restore_layout()
            self.panels.recording_dock.hide()  # the layout is kept between runs, a recording is not
            fit_to_screen(self)  # a size saved on a larger screen
            self.menus.refresh()  # the camera kept from the last run, ticked
        self.switcher.update_title()  # the first figures of the views that follow the tuning
        self.panels.tuning_changed()
        self.memory.timer.start()
        if remember:
            self.world.restore()  # the last track (and the car at its spawn)
        self.drive_view.reset_car()
        note = self.memory.note + self.controllers.note
        if restored is not None:
            note += f"Restored your tuning from last session (based on {self.preset.name}). "
        if note:
            self.statusBar().showMessage(note.strip(), 10000)
        if "could not be shown" in note:  # set aside: say it where it is seen
            QTimer.singleShot(0, lambda: self.show_error(note.strip(), "Last session set aside"))
        self.track.setFocus()

    # --- menus (menu_bar.py declares them, menus.py builds them) ------------------
    @property
    def sim(self):
        """The driven car's simulation."""
        return self.drive.sim

    @property
    def model(self):
        """The driven model (the tuning's)."""
        return self.tuning.model

    @property
    def world_track(self):
        """The track the car drives on (a `Track` in its own unit), None on the open field."""
        return self.world.track

    # --- tuning and presets (preset_switcher.py) -------------------------------------
    def _new_body(self, change: TuningChange | None = None) -> None:
        """The car's shape for the tuning now (the view draws it from the next frame),
        and its collision outline while View → Collision shape is on."""
        self.body = self.model.body(self.tuning)
        self.track.shape_outline = CarShape.of(self.tuning).outline() if self.show_collision_shape else None
        self.track.update()

    def set_collision_shape_shown(self, shown: bool) -> None:
        """Draw the tuning's collision shape over the car (View → Collision shape), or not."""
        self.show_collision_shape = shown
        self._new_body()

    def _request_metrics(self) -> None:
        """Recompute the metrics panel for a snapshot of the tuning (and the ghosts') on
        the track now (its lap figures on a closed track with a start line)."""
        # the compared tunings; a ghost replaying a trace of its own (the best lap's) is
        # this very tuning and no other
        ghosts = [g for g in self.drive.ghosts if g.trace is None]
        runs = [(g.sim.model, dict(g.sim.params), g.sim.hz) for g in ghosts]
        car = (self.model, dict(self.tuning), self.sim.hz)
        self.metrics.request(car, runs, [g.name for g in ghosts], self.world_track)

    def _update_title(self) -> None:
        # a slot of the window, not of the switcher: Qt drops it with the window (the undo
        # stack's last signals come while the window is being deleted)
        self.switcher.update_title()

    def modified(self) -> bool:
        return self.switcher.modified()

    def apply_preset(self, preset: Preset) -> bool:
        return self.switcher.apply_preset(preset)

    def switch_model(self, name: str) -> bool:
        return self.switcher.switch_model(name)

    def set_ghost(self, preset: Preset, name: str) -> bool:
        return self.compare.add(preset, name)

    def run_for(self, elapsed: float) -> int:
        return self.drive_view.run_for(elapsed)

    def scripted_drive(self, seconds: float) -> None:
        self.drive_view.scripted_drive(seconds)

    def set_camera(self, mode: str) -> None:
        """View → Follow my car / the game's car / Keep both in view (camera.py), kept between runs."""
        self.track.set_camera(mode)
        if self.remember:
            settings().setValue("view/camera", mode)
        self.menus.refresh()

    def set_px_per_metre(self, value: float) -> None:
        self.px_per_metre = self.drive.px_per_metre = value
        if self.remember:
            settings().setValue("view/px_per_metre", value)
        self.menus.refresh()
        self.panels.set_units()

    # --- files (file_actions.py, godot_actions.py) ------------------------------------
    def open_preset_file(self, path) -> bool:
        return self.files.open_preset_file(path)

    def current_preset(self) -> Preset:
        """The tuning on screen as a preset (name and description of the loaded one), with
        the precision of each value a fit found (the loaded preset's, or the fits applied
        since) while it holds that value: moved, undone or replaced, the value is the
        user's, as precise as its slider's step."""
        found = values_and_precision(self.preset) | self.fitted
        precision = {name: u for name, (value, u) in found.items() if self.tuning[name] == value}
        return Preset(
            self.model, self.tuning.copy(), self.preset.name, self.preset.description, self.sim.hz, precision=precision
        )

    def godot_export_dialog(self) -> GodotExportDialog:
        return self.godot.export_dialog()

    def update_script(self, path) -> UpdateScriptDialog | None:
        return self.godot.update_script(path)

    def import_godot(self, path) -> bool:
        return self.godot.import_script(path)

    # --- view ------------------------------------------------------------------
    def show_tab(self, name: str) -> None:
        self.panels.show_tab(name)

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
        """PNG of the whole window (or of `widget`, e.g. a dialog) as it is drawn now.
        What Qt has let go of is deleted first: the screenshot command draws the window
        without running the event loop, which is what deletes it, and the dock layout
        lets go of a copy of a panel group's tab strip that would be drawn, stale,
        across the window."""
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        image = (widget or self).grab()
        write_atomic(path, lambda name: image.save(name, "PNG"), check=png_complete)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown_once:  # tab order only takes effect once the window exists
            self._shown_once = True
            QTimer.singleShot(SHOWN_MS, self.memory.shown)
            if not (self.remember and settings().value("window/state") is not None):
                self.panels.panel_dock.raise_()
                self.panels.size_panels()

    def quit_asking(self) -> None:
        """Quit (menu, Ctrl+Q, Ctrl+C in the terminal), asking first about unsaved work."""
        if self.files.keep_or_drop_changes("Quitting") and self.link.keep_or_drop_recording("Quitting"):
            self._quit_agreed = True
            self.close()

    def close_now(self) -> None:
        """Close without asking (told to stop by the system): the autosave keeps an
        unsaved tuning for the next start."""
        self._quit_agreed = True
        self.close()

    def closeEvent(self, event) -> None:
        if event.spontaneous() and not self._quit_agreed:  # the window's close button
            if not (
                self.files.keep_or_drop_changes("Closing the window")
                and self.link.keep_or_drop_recording("Closing the window")
            ):
                event.ignore()
                return
        self.drive_view.timer.stop()
        self.memory.timer.stop()  # autosaved below: a closed window writes nothing later
        self.link.close()
        if self.switcher.prepare_first:  # its workers may wait for a compiling process: end it
            stop_children()
        self.metrics.wait()
        self.curves.job.wait()
        self.sweep.wait()
        self.tune.stop()
        self.tune.wait()
        self.recordings.shutdown()
        self.sensitivity.job.wait()
        for worker in self.findChildren(Worker):  # each thread ended before its worker is deleted
            worker.shut()
        if self.remember:
            store = settings()
            store.setValue("window/geometry", self.saveGeometry())
            store.setValue("window/state", self.saveState())
            store.setValue("view/zoom", self.track.zoom)
            store.sync()
            self.memory.autosave()
            self.memory.shown()
        self.keys.detach()
        self.controllers.close()
        super().closeEvent(event)
