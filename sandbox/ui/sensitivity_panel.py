"""What changes what: every slider against every metric (analysis/sensitivity.py),
recomputed in the background after each change while shown, as a coloured table.
Clicking a cell sweeps that metric over that slider's range (the Sweep tab)."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..analysis.kernel_prep import prepare
from ..analysis.metrics import DECIMALS, METRICS, format_value, formula_top_speed, reference_speed, unit_of
from ..analysis.sensitivity import SHARE, Sensitivity, sensitivity
from ..physics.params import effective_params
from .worker import Worker

RISES, FALLS = QColor(79, 195, 247), QColor(255, 138, 101)
"""Cell colours: the metric rises (blue) or falls (orange) as the slider goes up."""
PER = (("step", "per slider step"), ("share", f"per {SHARE:.0%} of the slider's range"))


class SensitivityPanel(QWidget):
    """The table, the move it is for, and the top speed's formula beside the simulation."""

    open_sweep = Signal(str, str)  # parameter, metric

    def __init__(self, parent=None):
        super().__init__(parent)
        self.result: Sensitivity | None = None
        self.model = None
        self._params: dict = {}
        self.formula = ""
        self.job = Worker(self, "sensitivity")
        self.job.active = False  # until the panel is shown
        self.job.finished.connect(self._show)
        self.job.failed.connect(lambda why: self.note.setText(f"could not compute ({why})"))
        self.per = QComboBox()
        for key, text in PER:
            self.per.addItem(text, key)
        self.per.setCurrentIndex(1)
        self.per.setToolTip(
            "How far each slider moves up: one step, or a tenth of its range (central differences either way)"
        )
        self.per.currentIndexChanged.connect(lambda _: self._fill())
        self.note = QLabel("")
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.table = QTableWidget(0, len(METRICS))
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setToolTip(
            "How much each metric (column) changes when each slider (row) moves up: blue "
            "rises, orange falls, the deeper the more. Click a cell to sweep that metric "
            "over that slider's range."
        )
        self.table.cellClicked.connect(self._clicked)
        top = QHBoxLayout()
        top.addWidget(QLabel("change"))
        top.addWidget(self.per)
        top.addWidget(self.note, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)

    def set_active(self, shown: bool) -> None:
        self.job.set_active(shown)

    def request(self, model, tuning: dict, hz: int) -> None:
        """Recompute for a snapshot of the tuning (runs while the panel is shown)."""
        tuning = dict(tuning)
        self.job.request(
            lambda _task: (
                model,
                tuning,
                prepare(model, "everything") or sensitivity(model, tuning, hz),
                formula_top_speed(model, tuning, hz),
                model.gear_top_speeds(tuning) if hasattr(model, "gear_top_speeds") else {},
            )
        )

    def settle(self) -> None:
        self.job.settle()

    def _show(self, result, seconds: float) -> None:
        model, tuning, self.result, (formula, how), gears = result
        params = {p.name: p for p in effective_params(model.PARAMS, tuning)}  # a switch may give other units
        if model is not self.model or params != self._params:
            self.model, self._params = model, params
            _, ref = reference_speed(model)
            self.table.setColumnCount(len(METRICS))
            self.table.setHorizontalHeaderLabels(
                [
                    f"{m.label.replace('100', ref)}\n[{unit_of(m.kind, model)}]".replace(", ", ",\n", 1)
                    for m in METRICS.values()
                ]
            )
            self.table.setRowCount(len(self.result.params))
            self.table.setVerticalHeaderLabels(
                [
                    f"{params[n].label} [{params[n].unit}]" if params[n].unit else params[n].label
                    for n in self.result.params
                ]
            )
        simulated = self.result.base["top_speed"]
        unit = unit_of("speed", model)
        self.formula = (
            f"top speed: simulated {format_value(simulated)}, from the parameters "
            f"{format_value(formula)} {unit} ({how})"
            if math.isfinite(formula)
            else f"top speed: {how}"
        )
        if gears:
            self.formula += "; in each gear held: " + ", ".join(f"{g}: {format_value(v)}" for g, v in gears.items())
        self.note.setText(f"{self.formula} · {seconds * 1000:.0f} ms")
        self.note.setToolTip(self.formula)
        self._fill()

    def _fill(self) -> None:
        if self.result is None:
            return
        per = self.per.currentData()
        table = self.result.per_step if per == "step" else self.result.per_share
        for j, metric in enumerate(self.result.metrics):
            column = table[:, j]
            finite = column[[math.isfinite(v) for v in column]]
            scale = max((abs(v) for v in finite), default=0.0)
            decimals = DECIMALS[METRICS[metric].kind] + 1
            for i, name in enumerate(self.result.params):
                value = float(column[i])
                item = self.table.item(i, j)
                if item is None:
                    item = QTableWidgetItem()
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    self.table.setItem(i, j, item)
                if not math.isfinite(value):
                    item.setText("—")
                    item.setBackground(QBrush())
                    item.setToolTip(f"{name} → {metric}: not measured for one of the two tunings")
                    continue
                item.setText(
                    "0" if value == 0 else f"{value:+.{decimals}g}" if abs(value) < 0.01 else f"{value:+.{decimals}f}"
                )
                colour = QColor(RISES if value > 0 else FALLS)
                colour.setAlphaF(0.0 if scale == 0 else 0.15 + 0.65 * abs(value) / scale)
                item.setBackground(QBrush(colour) if value != 0 else QBrush())
                step = self.result.change(name, metric, "step")
                share = self.result.change(name, metric, "share")
                item.setToolTip(
                    f"{name} up: {metric} {step:+.4g} a step, {share:+.4g} for {SHARE:.0%} of its "
                    f"range. Click: sweep {metric} over {name}."
                )

    def _clicked(self, row: int, column: int) -> None:
        if self.result is not None:
            self.open_sweep.emit(self.result.params[row], self.result.metrics[column])
