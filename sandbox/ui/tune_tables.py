"""The Tune tab's two tables: the metrics to aim at (target and tolerance, and the
best value found so far) and the parameters (locked, or the range to search)."""

from __future__ import annotations

import math
import time
from contextlib import contextmanager

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QHeaderView, QTableWidget, QTableWidgetItem

from ..analysis.metrics import DECIMALS, METRICS, format_value, reference_speed, unit_of
from ..analysis.tune import DEFAULT_TOLERANCE, Target, check_range
from ..errors import UserError

SPIN_MAX = 1e7
"""The largest target a box takes (far above any metric in either unit)."""
SPIN_WIDTH = 84
"""px: a number box (the names get the rest of the panel's width)."""
AHEAD_SLICE_S = 0.006
"""s: the longest an idle turn of the event loop spends building rows ahead."""
AHEAD_AFTER_MS = 3000
"""ms: rows are built ahead only this long after the tables exist (the window's first
paints, which lay out every panel, come first)."""


def _fit_columns(table: QTableWidget) -> None:
    """Rows in pairs: a name across the table, then its boxes indented under it (the
    first column only indents); the last column takes the room left."""
    header = table.horizontalHeader()
    for column in range(table.columnCount() - 1):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(table.columnCount() - 1, QHeaderView.ResizeMode.Stretch)
    table.setColumnWidth(0, 16)


@contextmanager
def _columns_still(table: QTableWidget):
    """The columns keep their widths while rows are added, then fit their contents
    once: fitting them after every box placed costs milliseconds each in a shown table."""
    header = table.horizontalHeader()
    modes = [header.sectionResizeMode(column) for column in range(table.columnCount())]
    header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    try:
        yield
    finally:
        for column, mode in enumerate(modes):
            header.setSectionResizeMode(column, mode)


def _spin(decimals: int, maximum: float = SPIN_MAX, minimum: float = 0.0) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setButtonSymbols(QDoubleSpinBox.ButtonSymbols.NoButtons)  # narrow: the panel shares a side of the window
    box.setMaximumWidth(SPIN_WIDTH)
    box.setDecimals(decimals)
    box.setRange(minimum, maximum)
    box.setKeyboardTracking(False)
    return box


class TuneTables:
    """`targets` (metric → (use, target, tolerance) boxes in `target_rows`) and
    `params` (name → (lock, from, to) in `param_rows`) for one model.

    The boxes are kept between models: placing a box in a table costs milliseconds
    each while the tab is in front (its columns fit their contents), and the dynamic
    car has over a hundred, so a model switch relabels the rows it has and hides the
    ones it does not need instead of building them anew."""

    def __init__(self, rows_ahead: int = 0):
        """`rows_ahead`: parameter rows built in idle turns after the window shows (the
        most any model has), so no switch has to build them."""
        self.meanings: tuple = ()
        self.target_rows: dict = {}
        self.param_rows: dict = {}
        self._pool: list[tuple] = []  # (lock, from, to) of every parameter row built so far
        self._own_tolerance: set[str] = set()  # metrics whose tolerance the user typed
        self._following = False
        self.targets = QTableWidget(0, 4)
        self.targets.setHorizontalHeaderLabels(["", "target", "±", "best now"])
        self.targets.verticalHeader().hide()
        _fit_columns(self.targets)
        self.targets.setToolTip("Tick a metric to aim at it: its target value and tolerance, in the model's units")
        self.params = QTableWidget(0, 3)
        self.params.setHorizontalHeaderLabels(["", "search from", "to"])
        self.params.verticalHeader().hide()
        _fit_columns(self.params)
        self.params.setToolTip(
            "Ticked parameters are locked: they stay as they are; the others are searched "
            "between from and to (the slider's range unless narrowed). Options never change."
        )
        for table in (self.targets, self.params):
            table.setMinimumHeight(48)  # the panel must fit above the plots in a small window
        self._build_targets()
        self._rows_ahead = rows_ahead
        self._ahead = QTimer(self.params)
        self._ahead.setInterval(0)
        self._ahead.timeout.connect(self._build_ahead)
        QTimer.singleShot(AHEAD_AFTER_MS, self._ahead, self._ahead.start)

    def _build_ahead(self) -> None:
        end = time.perf_counter() + AHEAD_SLICE_S
        with _columns_still(self.params):
            while len(self._pool) < self._rows_ahead and time.perf_counter() < end:
                self._param_row(len(self._pool))
        if len(self._pool) >= self._rows_ahead:
            self._ahead.stop()

    def _build_targets(self) -> None:
        """A row pair per metric (every model has the same metrics; `fill` labels them)."""
        self.targets.setRowCount(2 * len(METRICS))
        for row, (name, metric) in enumerate(METRICS.items()):
            use = QCheckBox()
            target, tolerance = _spin(DECIMALS[metric.kind]), _spin(DECIMALS[metric.kind] + 1)
            tolerance.setPrefix("± ")
            tolerance.setMinimum(10.0 ** -(DECIMALS[metric.kind] + 1))
            tolerance.setToolTip(
                f"How far from the target still counts as met. It follows the target "
                f"({DEFAULT_TOLERANCE[metric.kind]:.0%} of it) until you type your own."
            )
            target.valueChanged.connect(lambda value, name=name: self._follow_target(name, value))
            tolerance.valueChanged.connect(lambda _, name=name: self._tolerance_typed(name))
            # the name on a row of its own, across the table: the panel is narrow
            self.targets.setSpan(2 * row, 0, 1, 4)
            self.targets.setCellWidget(2 * row, 0, use)
            self.targets.setCellWidget(2 * row + 1, 1, target)
            self.targets.setCellWidget(2 * row + 1, 2, tolerance)
            self.targets.setItem(2 * row + 1, 3, QTableWidgetItem("—"))
            self.target_rows[name] = (use, target, tolerance)

    def _param_row(self, row: int) -> tuple:
        """The boxes of parameter row pair `row`, built the first time a model needs it."""
        while len(self._pool) <= row:
            at = len(self._pool)
            lock, low, high = QCheckBox(), _spin(0), _spin(0)
            if self.params.rowCount() < 2 * (at + 1):
                self.params.setRowCount(2 * (at + 1))
            self.params.setSpan(2 * at, 0, 1, 3)
            self.params.setCellWidget(2 * at, 0, lock)
            self.params.setCellWidget(2 * at + 1, 1, low)
            self.params.setCellWidget(2 * at + 1, 2, high)
            for pair in (2 * at, 2 * at + 1):  # until a model needs it
                self.params.setRowHidden(pair, True)
            self._pool.append((lock, low, high))
        return self._pool[row]

    def fill(self, model, meanings: tuple) -> None:
        """Rows for `model`: every metric and every slider of the parameters `meanings`
        declares (its whole range, unlocked). The targets wait, disabled and unticked,
        for the metrics of the tuning now (`set_now`), computed off the window's thread."""
        with _columns_still(self.targets), _columns_still(self.params):
            self._fill(model, meanings)

    def _fill(self, model, meanings: tuple) -> None:
        self.meanings, self._own_tolerance = meanings, set()
        _, ref = reference_speed(model)
        for row, (name, metric) in enumerate(METRICS.items()):
            use, target, tolerance = self.target_rows[name]
            use.setText(metric.label.replace("100", ref))
            use.setToolTip(metric.how.replace("100", ref))
            target.setSuffix(f" {unit_of(metric.kind, model)}")
            for widget in (use, target, tolerance):
                widget.setEnabled(False)  # until the metrics now arrive (`set_now`)
            use.setChecked(False)
            self.targets.item(2 * row + 1, 3).setText("—")
        sliders = [p for p in meanings if p.moves_motion]
        self.param_rows = {}
        for row, p in enumerate(sliders):
            lock, low, high = self._param_row(row)
            lock.setText(p.label)
            lock.setToolTip(f"{p.name}: {p.help} Ticked: locked, the search leaves it as it is.")
            lock.setChecked(False)
            for box, value in ((low, p.min), (high, p.max)):
                box.setDecimals(p.decimals)
                box.setRange(p.min, p.max)
                box.setSingleStep(p.step)
                box.setSuffix(f" {p.unit}" if p.unit else "")
                box.setValue(value)
            self.param_rows[p.name] = (lock, low, high)
        for row in range(len(self._pool)):
            for pair in (2 * row, 2 * row + 1):
                self.params.setRowHidden(pair, row >= len(sliders))

    @property
    def shown_rows(self) -> int:
        """Rows of the parameters' table in use (a name and its range for each)."""
        return sum(not self.params.isRowHidden(row) for row in range(self.params.rowCount()))

    @property
    def ready(self) -> bool:
        """The targets hold the metrics of the tuning now (`set_now` came)."""
        return all(use.isEnabled() for use, _, _ in self.target_rows.values())

    def set_now(self, now: dict) -> None:
        """Each target at its metric's value now (0 where it has none), its tolerance
        the default share of it; the targets then take input. A target ticked already
        (a script's, `set_target`) is kept."""
        for name, (use, target, tolerance) in self.target_rows.items():
            for widget in (use, target, tolerance):
                widget.setEnabled(True)
            if use.isChecked():
                continue
            value = float(now[name][0])
            shown = value if math.isfinite(value) else 0.0
            target.setValue(shown)
            tolerance.setValue(max(abs(shown) * DEFAULT_TOLERANCE[METRICS[name].kind], tolerance.minimum()))
            self._own_tolerance.discard(name)

    def _follow_target(self, name: str, value: float) -> None:
        """A new target brings its tolerance along (the default share of it), unless the
        user typed a tolerance of their own."""
        if name in self._own_tolerance:
            return
        _, _, spread = self.target_rows[name]
        self._following = True
        spread.setValue(max(abs(value) * DEFAULT_TOLERANCE[METRICS[name].kind], spread.minimum()))
        self._following = False

    def _tolerance_typed(self, name: str) -> None:
        if not self._following:
            self._own_tolerance.add(name)

    def set_target(self, metric: str, value: float, tolerance: float | None = None) -> None:
        """Tick `metric` with a target (and tolerance), as a user types them."""
        use, target, spread = self.target_rows[metric]
        use.setChecked(True)
        target.setValue(value)
        if tolerance is not None:
            spread.setValue(tolerance)

    def lock(self, names: list[str], locked: bool = True) -> None:
        for name in names:
            self.param_rows[name][0].setChecked(locked)

    def show_achieved(self, metric: str, value: float) -> None:
        """The best value of `metric` found so far, in its row's last column."""
        self.targets.item(2 * list(METRICS).index(metric) + 1, 3).setText(format_value(value))

    def chosen(self) -> tuple[list[Target], list[str], dict]:
        """The ticked targets, the free parameters and their search ranges."""
        targets = [
            Target(name, target.value(), spread.value())
            for name, (use, target, spread) in self.target_rows.items()
            if use.isChecked()
        ]
        names = [name for name, (lock, _, _) in self.param_rows.items() if not lock.isChecked()]
        declared = {p.name: p for p in self.meanings}
        ranges = {}
        for name in names:
            _, low, high = self.param_rows[name]
            ranges[name] = check_range(declared[name], low.value(), high.value())
        if not targets:
            raise UserError("Tick at least one metric to aim at")
        if not names:
            raise UserError("Every parameter is locked: unlock at least one for the search to move")
        return targets, names, ranges
