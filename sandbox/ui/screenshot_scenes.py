"""What the screenshot command stages in the window beyond a scripted drive: a game
recording opened as File → Open game recording… opens it, its replay paused at a time;
the Fit dialog run to its end on that recording; a dialog pictured beside the window (an
offscreen dialog is a window of its own: a grab of the main window leaves it out)."""

from __future__ import annotations

from PySide6.QtCore import QEventLoop, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap

from ..analysis.fit import FitResult
from ..errors import UserError, shown
from ..files.disk import png_complete, write_atomic
from ..files.recordings import load_recording, replayable
from ..physics.sim import TICK_RATES
from .fit_dialog import FitDialog

FIT_WAIT_S = 900.0
"""s: the longest the screenshot waits for the fit (the first run after an install
compiles the fit's kernels; on a busy two-core machine that takes minutes)."""
DIALOG_MARGIN = 16
"""px of desktop between the window and a dialog pictured beside it, and after it."""
DIALOG_SIZE = (560, 720)
"""px: a dialog pictured beside the window (the Fit dialog's own size)."""
TITLE_BAR = 28
"""px: the title bar drawn over a dialog pictured beside the window, with its title."""
DESKTOP = QColor(72, 76, 82)
"""The grey around a dialog pictured beside the window."""
LAPS_DOCK_SHARE = 0.45
"""Of the window's height: the Laps tab pictured (its plots need more than the Plots' third)."""


def open_recording(window, path, seconds: float) -> None:
    """`path` opened in `window` as a game recording (its path in the view, the
    Recording tab with its divergence), the window switched to the recording's tick
    rate first (the question the window would ask), the replay paused at `seconds`.
    A file that is not a recording: UserError with the loader's message."""
    recording = replayable(load_recording(path))
    hz = float(recording.hz)
    if abs(hz - window.sim.hz) > 1e-6:
        if not any(abs(hz - rate) < 1e-6 for rate in TICK_RATES):
            raise UserError(
                f"{shown(path)}: recorded at {hz:g} Hz; the window ticks at {', '.join(map(str, TICK_RATES))} Hz only"
            )
        window.switcher.set_rate(int(round(hz)))
    if not window.recordings.open_file(path):
        raise UserError(window.last_error or f"{shown(path)}: not opened as a game recording")
    replay_at(window, seconds)


def replay_at(window, seconds: float) -> None:
    """The recording's replay paused `seconds` in (its end, at most): the car, the ghosts,
    the recorded car and the divergence plot's line all there."""
    window.replay.set_playing(False)
    window.replay.scrub(min(round(seconds * window.sim.hz), window.recordings.drive.ticks))


def run_fit(window, timeout_s: float = FIT_WAIT_S) -> FitDialog:
    """The Fit dialog on the recording replayed, with its default choices, run to its
    end (its result shown, the fitted tuning driving as a ghost). UserError when it
    cannot run, finds nothing, or has not ended within `timeout_s`."""
    dialog = window.recordings.fit_dialog()
    done = QEventLoop()
    dialog.job.finished.connect(done.quit)  # after the dialog's own handler: connected later
    dialog.job.failed.connect(done.quit)
    limit = QTimer()
    limit.setSingleShot(True)
    limit.timeout.connect(done.quit)
    if not dialog.run():
        raise UserError(f"the Fit dialog cannot run: {dialog.status.text()}")
    limit.start(round(timeout_s * 1000))
    done.exec()
    limit.stop()
    if dialog.running:
        dialog.cancel()
        dialog.wait()
        raise UserError(f"the fit had not ended after {timeout_s:g} s")
    if not any(isinstance(r, FitResult) for r in dialog.results):
        raise UserError(f"the fit found nothing: {dialog.report.toPlainText().strip()}")
    return dialog


def fit_dialog_in(window, dialog) -> None:
    """`dialog` at DIALOG_SIZE, no taller than the window (with its title bar)."""
    height = min(DIALOG_SIZE[1], window.height() - TITLE_BAR)
    dialog.resize(DIALOG_SIZE[0], max(height, dialog.minimumSizeHint().height()))


def save_beside_window(window, dialog, path) -> None:
    """PNG of the window with `dialog` beside it on its right, on a desktop's grey, as on
    a screen with room for both (nothing of the window hidden: the car view, its ghosts
    and the plots stay in sight); the picture is the dialog's width wider."""
    picture_of_window, shot = window.grab(), dialog.grab()
    width = picture_of_window.width() + DIALOG_MARGIN + shot.width() + DIALOG_MARGIN
    height = max(picture_of_window.height(), shot.height() + TITLE_BAR)
    picture = QPixmap(width, height)
    picture.fill(DESKTOP)
    painter = QPainter(picture)
    painter.drawPixmap(0, 0, picture_of_window)
    x, y = picture_of_window.width() + DIALOG_MARGIN, (height - shot.height() + TITLE_BAR) // 2
    bar = QRect(x, y - TITLE_BAR, shot.width(), TITLE_BAR)  # offscreen, no window manager draws one
    painter.fillRect(bar, dialog.palette().window().color().darker(115))
    painter.setPen(dialog.palette().windowText().color())
    painter.drawText(bar, Qt.AlignmentFlag.AlignCenter, dialog.windowTitle())
    painter.drawPixmap(x, y, shot)
    painter.setPen(QPen(QColor(40, 40, 40), 1))
    painter.drawRect(x - 1, y - TITLE_BAR - 1, shot.width() + 1, shot.height() + TITLE_BAR + 1)
    painter.end()
    write_atomic(path, lambda name: picture.save(name, "PNG"), check=png_complete)


def driver_at_wheel(window, seconds: float) -> None:
    """The lap driver at the wheel of the window's car on the window's track for
    `seconds` (its plan made here, its control law ticking the live car), its racing line
    drawn. UserError for a track a lap cannot be driven or timed on."""
    from ..analysis.driven_laps import practised_plan
    from ..session.lap_wheel import DriverSource

    track = window.world.track
    if track is None:
        raise UserError("the driver drives a lap of a track: give --track with a start line")
    plan = practised_plan(window.model, dict(window.tuning), track, window.sim.hz)
    drive = window.drive
    drive.live = DriverSource(plan, window.model, dict(window.tuning), window.sim.hz, lambda: drive.sim.state)
    window.wheel.driving = True
    window.track.world.set_racing_line(plan.line.points)
    for _ in range(round(seconds * window.sim.hz)):
        drive.tick()
    window.drive_view.refresh()


def driver_laps_in_tab(window, laps: int = 2) -> None:
    """The Laps tab filled with the driver's `laps` laps of the window's track for the
    window's tuning (the first lap from the run-up after the spawn, so the later ones
    gain on it), the first and last overlaid. UserError for a track a lap cannot be
    driven or timed on (none, or no start line)."""
    from ..analysis.driven_laps import drive_timed_laps
    from ..analysis.lap_channels import driven_channels

    track = window.world.track
    if track is None:
        raise UserError("the Laps tab pictures the driver's laps of a track: give --track with a start line")
    driven = drive_timed_laps(window.model, window.tuning, track, laps, window.sim.hz)
    window.laps.show_book(driven.book, driven_channels(driven, track, window.model.LENGTH_UNIT))
    if len(driven.laps) >= 2:
        window.laps.choose(driven.laps[0].number, driven.laps[-1].number)
    dock = window.panels.by_name["laps_dock"]
    window.resizeDocks([dock], [round(window.height() * LAPS_DOCK_SHARE)], Qt.Orientation.Vertical)


def gg_in_tab(window) -> None:
    """The g-g tab in front at LAPS_DOCK_SHARE of the window's height (its diagram is
    square), the car's limits measured: brought forward before the drive, which it
    records only while shown."""
    dock = window.panels.by_name["gg_dock"]
    dock.raise_()
    window.resizeDocks([dock], [round(window.height() * LAPS_DOCK_SHARE)], Qt.Orientation.Vertical)
    window.gg.settle()
