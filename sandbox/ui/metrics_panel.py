"""Metrics panel: the standard manoeuvres of metrics.py for the current tuning,
recomputed on a worker thread after every change (each slider value of a drag: a
new request starts as soon as the one computing ends, the latest one wins), with the
difference to the compare ghosts. While the panel is hidden it only remembers the
latest request and computes it when shown (no simulation nobody looks at)."""

from __future__ import annotations

import html
import math
import time

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QApplication, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from ..analysis.metrics import compute, table
from .palette import ghost_colour

LEGEND = ("vs: your car minus that ghost; <span style='color:#2e7d32'>green</span> where yours is better, "
          "<span style='color:#c62828'>red</span> where worse")
BETTER = QColor("#2e7d32")
WORSE = QColor("#c62828")
MISSING = QColor("#757575")


def value_text(row: dict) -> str:
    """A metric's value with its decimals and unit, or why it has none."""
    if row["missing"]:
        return row["missing"]
    return f"{row['value']:.{row['decimals']}f} {row['unit']}"


def difference(row: dict, other: dict) -> tuple[str, QColor | None]:
    """(text, colour) of this car's value minus another's: green where this car is
    better by the metric's sense, red where worse; grey text where either has none."""
    if other["unit"] != row["unit"]:
        return "other units", MISSING  # a ghost in other units is compared in the view
    if row["missing"] or other["missing"]:
        return "n/a", MISSING
    d = row["value"] - other["value"]
    text = f"{d:+.{row['decimals']}f}"
    if float(text) == 0 or row["sense"] == 0:
        return text, None
    return text, BETTER if d * row["sense"] > 0 else WORSE


class _Done(QObject):
    finished = Signal(int, object, object, float)  # generation, rows, [ghost rows…], seconds


class _Job(QRunnable):
    def __init__(self, generation: int, car, ghosts, done: _Done):
        super().__init__()
        self.generation, self.car, self.ghosts, self.done = generation, car, ghosts, done

    def run(self) -> None:
        start = time.perf_counter()
        model, params, hz = self.car
        rows = table(model, compute(model, params, hz))
        ghost_rows = [table(g_model, compute(g_model, g_params, g_hz)) for g_model, g_params, g_hz in self.ghosts]
        self.done.finished.emit(self.generation, rows, ghost_rows, time.perf_counter() - start)


class MetricsPanel(QWidget):
    """A table of metric, value and the change against each ghost."""

    updated = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[dict] = []
        self.ghost_rows: list[list[dict]] = []
        self.seconds = 0.0
        self._generation = 0
        self._pending = None
        self._names: list[str] = []
        self.active = False  # the panel's tab is the one shown (QDockWidget.visibilityChanged)
        self._done = _Done(self)
        self._done.finished.connect(self._show)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._busy = False  # a job is computing on the worker thread
        self.status = QLabel("")
        self.status.setStyleSheet("color: gray")
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["metric", "value"])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(60)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
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

    def request(self, car, ghosts=(), names=()) -> None:
        """Recompute for car = (model, params, hz) and each ghost's (model, params,
        hz), soon; `names` label the ghost columns."""
        self._generation += 1
        self._pending = (self._generation, car, list(ghosts))
        self._names = list(names)
        self.status.setText("computing…")
        self._start()

    def set_active(self, shown: bool) -> None:
        """Connected to the dock's visibilityChanged: compute only what can be seen (a
        request made while hidden is kept for later)."""
        self.active = shown
        self._start()

    def _start(self) -> None:
        if self._pending is None or self._busy or not self.active:
            return
        generation, car, ghosts = self._pending
        self._pending = None
        self._busy = True
        self._pool.start(_Job(generation, car, ghosts, self._done))

    def _show(self, generation: int, rows, ghost_rows, seconds: float) -> None:
        self._busy = False
        self._start()  # the newest request, if one came while this was computing
        if generation != self._generation:
            return  # a newer tuning is on its way
        self.rows, self.ghost_rows, self.seconds = rows, ghost_rows, seconds
        self.table.setColumnCount(2 + len(ghost_rows))
        names = self._names + [f"ghost {i + 1}" for i in range(len(self._names), len(ghost_rows))]
        # short headers in the ghost's colour (names are long); the legend below names them
        self.table.setHorizontalHeaderLabels(["metric", "value"] + [f"vs {i + 1}" for i in range(len(ghost_rows))])
        for column in range(2, 2 + len(ghost_rows)):
            header = self.table.horizontalHeaderItem(column)
            header.setForeground(QBrush(QColor(ghost_colour(column - 2))))
            header.setToolTip(f"Your car minus ghost {column - 1}, {names[column - 2]}")
            self.table.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            label = QTableWidgetItem(row["label"])
            where = f"<br>Measured at: {row['point']}" if row["point"] else ""
            label.setToolTip(f"<b>{row['label']}</b><br>{row['how']}{where}")
            self.table.setItem(i, 0, label)
            value = QTableWidgetItem(value_text(row))
            value.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if row["missing"]:
                value.setForeground(QBrush(MISSING))
                value.setToolTip(row["missing"])
            self.table.setItem(i, 1, value)
            for column, ghost in enumerate(ghost_rows, start=2):
                text, colour = difference(row, ghost[i])
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if colour is not None:
                    item.setForeground(QBrush(colour))
                item.setToolTip(f"{names[column - 2]}: {value_text(ghost[i])}")
                self.table.setItem(i, column, item)
        ghosts = " · ".join(f"<span style='color:{ghost_colour(i)}'>■</span> {i + 1}: {html.escape(name)}"
                            for i, name in enumerate(names[:len(ghost_rows)]))
        self.legend.setText(f"{ghosts}<br>{LEGEND}")
        self.legend.setVisible(bool(ghost_rows))
        self.status.setText(f"standard manoeuvres, simulated in {seconds * 1000:.1f} ms")
        self.updated.emit()

    def settle(self) -> None:
        """Block until every request is computed and shown."""
        while self._busy or self._pending is not None:
            self._pool.waitForDone()
            QApplication.processEvents()

    def wait(self) -> None:
        """Block until queued work is done (tests, shutdown)."""
        self._pool.waitForDone()
