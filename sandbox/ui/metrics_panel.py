"""Metrics panel: the standard manoeuvres of metrics.py for the current tuning and,
on a closed track with a start line, the driver's lap time and sector times
(lap_metrics.py), recomputed on a worker thread after every change of the tuning or
the track (each slider value of a drag: a new request starts as soon as the one
computing ends, the latest one wins), with the difference to the compare ghosts.
While the panel is hidden it only remembers the latest request and computes it when
shown (no simulation nobody looks at)."""

from __future__ import annotations

import html
import math
import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QLabel, QSizePolicy, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from ..analysis.handling import HANDLING_METRICS
from ..analysis.kernel_prep import LAPS, is_prepared, prepare
from ..analysis.lap_metrics import lap_figures, lap_note, lap_track, metric_of, sector_names
from ..analysis.metrics import DECIMALS, compute, table, unit_of
from ..errors import UserError
from ..physics.track import Track
from .palette import ghost_colour
from .worker import Worker

SLOW_MS = 150
"""The status says "computing…" when figures take longer than this."""
STATUS_EVERY_S = 0.5
"""The status's timing figure changes at most this often."""
LEGEND = (
    "vs: your car minus that ghost; <span style='color:#2e7d32'>green</span> where yours is better, "
    "<span style='color:#c62828'>red</span> where worse; — where the two are not the same measurement "
    "(hover for why)"
)
BETTER = QColor("#2e7d32")
WORSE = QColor("#c62828")
MISSING = QColor("#757575")


def value_text(row: dict) -> str:
    """A metric's value with its decimals and unit, or why it has none (a lap figure or a
    handling figure, whose reasons are long for the side panel: "—", its tooltip says why)."""
    if row["missing"]:
        return "—" if row.get("dash") or row["name"] in HANDLING_METRICS else row["missing"]
    return f"{row['value']:.{row['decimals']}f} {row['unit']}"


def unlike(row: dict, other: dict) -> str:
    """Why two cars' rows of one metric are not the same measurement ("" when they
    are): a model in pixels and one in metres time 0→100 px/s against 0→100 km/h."""
    if other["unit"] != row["unit"]:
        return f"not compared: yours is in {row['unit']}, the ghost's in {other['unit']}"
    if other["label"] != row["label"]:
        return f"not compared: yours measures {row['label']}, the ghost {other['label']}"
    if other["point"] != row["point"]:
        return f"not compared: yours is measured at {row['point']}, the ghost's at {other['point']}"
    return ""


def difference(row: dict, other: dict) -> tuple[str, QColor | None]:
    """(text, colour) of this car's value minus another's: green where this car is
    better by the metric's sense, red where worse; a grey — where the two are not the
    same measurement (`unlike` says why) or either has no value."""
    if unlike(row, other) or row["missing"] or other["missing"]:
        return "—", MISSING
    d = row["value"] - other["value"]
    text = f"{d:+.{row['decimals']}f}"
    if float(text) == 0 or row["sense"] == 0:
        return text, None
    return text, BETTER if d * row["sense"] > 0 else WORSE


PREPARING = "preparing the metrics…"
PREPARING_WHY = "The metrics' manoeuvres are compiled once, the first time a model is measured."


def lap_rows(model, params, hz: float, track: Track, values) -> list[dict]:
    """Table rows (as `metrics.table`'s) of lap_time and sector_1 … (s) of one tuning on
    `track` (a lap can be timed on it): the driver's first timed lap from the spawn.
    A lap that is not valid or not completed, or a track the driver cannot drive
    (narrower than the car), has no value, and `missing` says why."""
    names = ["lap_time", *sector_names(track)]
    try:
        figures = lap_figures(model, params, hz, track, values)
        note = lap_note(model, figures)
    except UserError as error:
        figures, note = {name: [math.nan] for name in names}, f"n/a: {error}"
    rows = []
    for name in names:
        metric = metric_of(name)
        value = float(figures[name][0])
        rows.append(
            {
                "name": name,
                "label": metric.label,
                "value": value,
                "unit": unit_of(metric.kind, model),
                "point": f"the track {track.name}",
                "decimals": DECIMALS[metric.kind],
                "sense": metric.sense,
                "how": metric.how,
                "missing": "" if math.isfinite(value) else note or "n/a: no lap completed",
                "dash": True,
            }
        )
    return rows


def _rows(model, params, hz: float, track: Track | None) -> list[dict]:
    """The table rows of one car: its metrics, and the lap figures on a lap `track`."""
    values = compute(model, params, hz)
    return table(model, values) + ([] if track is None else lap_rows(model, params, hz, track, values))


def _compute(task, car, ghosts, track=None):
    """The table rows of the car and of each ghost (on the worker thread), once their
    models' kernels are ready: a first use compiles them in a separate process,
    `task` reporting its steps. `track`: a track laps are timed on, or None."""
    model, params, hz = car
    for what in {m.NAME: m for m in [model] + [g[0] for g in ghosts]}.values():
        prepare(what, "metrics", lambda step, steps: task.report((step, steps)))
        if track is not None:  # the lap kernels too, compiled apart (a first use)
            prepare(what, LAPS, lambda step, steps: task.report((step, steps)))
    return _rows(model, params, hz, track), [_rows(m, p, h, track) for m, p, h in ghosts]


class MetricsPanel(QWidget):
    """A table of metric, value and the change against each ghost."""

    updated = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[dict] = []
        self.ghost_rows: list[list[dict]] = []
        self.seconds = 0.0
        self._names: list[str] = []
        self._shape: tuple | None = None  # (row labels, ghost count) the table's items are made for
        self.job = Worker(self, "metrics")
        self.job.active = False  # until the panel's tab is shown (QDockWidget.visibilityChanged)
        self.job.finished.connect(self._show)
        self.job.failed.connect(lambda why: self._set_status(f"could not compute the metrics ({why})"))
        self.job.progress.connect(self._preparing)
        self._status_at = 0.0
        self._slow = QTimer(self)
        self._slow.setSingleShot(True)
        self._slow.setInterval(SLOW_MS)
        self._slow.timeout.connect(lambda: self._set_status("computing…"))
        self.status = QLabel("")
        self.status.setStyleSheet("color: gray")
        # its text changes with every result: a fixed size keeps that from laying the panel out again
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["metric", "value"])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(60)
        self.table.verticalHeader().hide()
        # rows fit their wrapped names when the items are made or the table is resized,
        # not on every new figure
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setWordWrap(True)  # full metric names, on two lines where they must
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        self.legend.setStyleSheet("color: gray")
        self.legend.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addWidget(self.table)
        layout.addWidget(self.legend)

    def request(self, car, ghosts=(), names=(), track: Track | None = None) -> None:
        """Recompute for car = (model, params, hz) and each ghost's (model, params,
        hz), soon; `names` label the ghost columns. `track`: the window's track (any
        unit; None: the open field): on a closed one with a start line the lap figures
        follow the metrics."""
        ghosts = list(ghosts)
        track = lap_track(track)
        self._names = list(names)
        levels = ("metrics",) if track is None else ("metrics", LAPS)
        if not all(is_prepared(m, level) for m in [car[0]] + [g[0] for g in ghosts] for level in levels):
            self._set_status(PREPARING)
        elif not self._slow.isActive():
            self._slow.start()  # "computing…" only if no figures come within SLOW_MS
        self.job.request(lambda task: _compute(task, car, ghosts, track))

    def _preparing(self, progress) -> None:
        step, steps = progress
        self._slow.stop()
        self._set_status(f"{PREPARING[:-1]}, step {step} of {steps}…")

    @property
    def preparing(self) -> bool:
        """The panel says its figures are being prepared (a first use of a model)."""
        return self.status.text().startswith(PREPARING[:20])

    @property
    def active(self) -> bool:
        return self.job.active

    def set_active(self, shown: bool) -> None:
        """Connected to the dock's visibilityChanged: compute only what can be seen (a
        request made while hidden is kept for later)."""
        self.job.set_active(shown)

    def _show(self, result, seconds: float) -> None:
        rows, ghost_rows = result
        self.rows, self.ghost_rows, self.seconds = rows, ghost_rows, seconds
        names = self._names + [f"ghost {i + 1}" for i in range(len(self._names), len(ghost_rows))]
        shape = (tuple(row["label"] for row in rows), len(ghost_rows), tuple(names))
        fresh = shape != self._shape
        if fresh:  # new items only when the rows or columns change: a drag just sets texts
            self._make_items(rows, ghost_rows, names)
            self._shape = shape
        # each changed cell repaints only itself: a whole-table repaint lays out every
        # wrapped name again (1.3 ms, at up to one result a frame while a slider moves)
        for i, row in enumerate(rows):
            self._set(
                self.table.item(i, 1), value_text(row), QBrush(MISSING) if row["missing"] else QBrush(), row["missing"]
            )
            for column, ghost in enumerate(ghost_rows, start=2):
                text, colour = difference(row, ghost[i])
                why = unlike(row, ghost[i]) or (
                    "not compared: yours has no value"
                    if row["missing"]
                    else "not compared: the ghost has no value"
                    if ghost[i]["missing"]
                    else ""
                )
                self._set(
                    self.table.item(i, column),
                    text,
                    QBrush(colour) if colour is not None else QBrush(),
                    f"{names[column - 2]}: {ghost[i]['missing'] or value_text(ghost[i])}" + (f"\n{why}" if why else ""),
                )
        for column in range(1, self.table.columnCount()):
            self.table.resizeColumnToContents(column)
        if fresh:
            self.table.resizeRowsToContents()
        self._slow.stop()
        now = time.perf_counter()
        # a new text lays the panel out again: not every frame (but the first figures replace "preparing")
        if self.preparing or now - self._status_at >= STATUS_EVERY_S:
            self._status_at = now
            lap = " and a lap" if any(row["name"] == "lap_time" for row in rows) else ""
            self._set_status(f"standard manoeuvres{lap}, simulated in {seconds * 1000:.1f} ms")
        self.updated.emit()

    @staticmethod
    def _set(item: QTableWidgetItem, text: str, brush: QBrush, tip: str) -> None:
        """Set what changed of a cell (each change repaints it)."""
        if item.text() != text:
            item.setText(text)
        if item.foreground() != brush:
            item.setForeground(brush)
        if item.toolTip() != tip:
            item.setToolTip(tip)

    def _set_status(self, text: str) -> None:
        if text != self.status.text():
            self.status.setText(text)  # short: the side panel is about 300 px wide at 1024×640
            self.status.setToolTip(PREPARING_WHY if text.startswith(PREPARING[:-1]) else "")

    def _make_items(self, rows, ghost_rows, names) -> None:
        self.table.setUpdatesEnabled(False)
        self.table.setColumnCount(2 + len(ghost_rows))
        # short headers in the ghost's colour (names are long); the legend below names them
        self.table.setHorizontalHeaderLabels(["metric", "value"] + [f"vs {i + 1}" for i in range(len(ghost_rows))])
        header = self.table.horizontalHeader()
        for column in range(2, 2 + len(ghost_rows)):
            item = self.table.horizontalHeaderItem(column)
            item.setForeground(QBrush(QColor(ghost_colour(column - 2))))
            item.setToolTip(f"Your car minus ghost {column - 1}, {names[column - 2]}")
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            label = QTableWidgetItem(row["label"])
            where = f"<br>Measured at: {html.escape(row['point'])}" if row["point"] else ""
            label.setToolTip(f"<b>{row['label']}</b><br>{row['how']}{where}")
            self.table.setItem(i, 0, label)
            for column in range(1, 2 + len(ghost_rows)):
                item = QTableWidgetItem()
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, column, item)
        ghosts = " · ".join(
            f"<span style='color:{ghost_colour(i)}'>■</span> {i + 1}: {html.escape(name)}"
            for i, name in enumerate(names[: len(ghost_rows)])
        )
        self.legend.setText(f"{ghosts}<br>{LEGEND}")
        self.legend.setVisible(bool(ghost_rows))
        self.table.setUpdatesEnabled(True)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.table.resizeRowsToContents()  # the names wrap anew

    def settle(self) -> None:
        """Block until the newest request is computed and shown."""
        self.job.settle()

    def wait(self) -> None:
        """Block until the running request ends (tests, shutdown)."""
        self.job.wait()
