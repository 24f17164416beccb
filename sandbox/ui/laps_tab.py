"""The Laps tab: the lap table (sector colours, the best and optimal lap), two laps
overlaid over distance (speed, and the time delta of the second against the first
under it), the track map coloured by a channel of the second lap, and a lap's
channels exported as CSV; the reference lap and the cone penalty chosen.

Its entry: `LapsTab.show_book(book, channels)`, a `laps.LapBook` and each lap's
channels by lap number (`lap_channels.BookChannels`); call it again whenever the book
gains a lap or is re-timed (the choices of laps and channel are kept while their laps
are there).

The reference lap (`reference`: a lap number, None for the best lap, which it follows
as it improves) is chosen in the Reference box or the table's context menu; it is the
overlay's first lap until another first lap is chosen, its row is marked, and
`reference_chosen` says it (for the live delta). A new book, or a book without that
lap, goes back to the best lap. The cone penalty box (s per cone) says a new value with
`cone_penalty_changed`; whoever times the laps re-times them and shows the book again.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..analysis.lap_channels import BookChannels, LapChannels
from ..analysis.laps import Lap, LapBook
from ..errors import UserError
from ..files.disk import write_text_atomic
from ..physics.lap_timer import CONE_PENALTY_MAX_S, CONE_PENALTY_S
from .laps_map import LapMap
from .laps_table import REFERENCE_TIP, LapTable, lap_time_text
from .palette import ghost_colour
from .plot_style import set_label, style_plot

NO_LAPS = "No laps yet: they are timed on a track with a start line, from its first crossing."
DELTA_POINTS = 1000
"""Distances the delta is drawn at, start line to start line."""
FIRST_PEN, SECOND_PEN = (230, 230, 230), ghost_colour(0)
"""The first lap (the reference) light grey, the second in the first ghost's colour."""
BEST = "Best lap"
"""The Reference box's first choice: the best lap, whichever it is."""
CONE_PENALTY_RANGE = (0.0, CONE_PENALTY_MAX_S, 0.5)
"""s per cone: the least, the most and the step of the cone penalty box."""
CONE_PENALTY_TIP = (
    "Seconds added to a lap's time for each cone knocked (the lap does not count either way). "
    "A change re-times the laps already driven."
)


def delta_over_distance(first: Lap, second: Lap, points: int = DELTA_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """(distance, Δ): the second lap's time minus the first's at the same share of each
    lap's distance (s; positive where the second is slower), over the first lap's
    distance; at the end, the difference of their times as driven. (Two laps' lengths
    differ by where each crossed the start line; matching shares keeps both ends exact.)"""
    share = np.linspace(0.0, 1.0, points)
    return share * first.distance, second.time_at(share * second.distance) - first.time_at(share * first.distance)


def lap_csv(channels: LapChannels) -> str:
    """A lap's channels, one row per tick: distance and time first, each named with its
    unit in brackets."""
    names = ["distance", "time", *(name for name in channels if name not in ("distance", "time"))]
    heads = [f"{name} [{channels[name].unit}]" if channels[name].unit else name for name in names]
    out = io.StringIO()
    out.write(",".join('"' + h.replace('"', '""') + '"' for h in heads) + "\n")
    for row in np.column_stack([np.asarray(channels[name].values, dtype=float) for name in names]):
        out.write(",".join(repr(float(v)) for v in row) + "\n")
    return out.getvalue()


class LapsTab(QWidget):
    """The lap table over the overlay plots and the track map. Signals: the reference
    lap chosen (its number, None for the best lap) and the cone penalty (s per cone)."""

    reference_chosen = Signal(object)
    cone_penalty_changed = Signal(float)

    def __init__(self):
        super().__init__()
        self.book = LapBook()
        self.channels: BookChannels = {}
        self.reference: int | None = None
        self._first_follows = True  # the first lap is the reference until one is chosen
        self.table = LapTable()
        self.table.itemSelectionChanged.connect(self._table_chose)
        self.table.reference_chosen.connect(self.choose_reference)
        self.reference_box = QComboBox()
        self.reference_box.setToolTip(
            f"{REFERENCE_TIP}: the best lap (it follows the best as it improves) or a lap of your choice"
        )
        self.reference_box.activated.connect(lambda index: self.choose_reference(self.reference_box.itemData(index)))
        low, high, step = CONE_PENALTY_RANGE
        self.penalty_box = QDoubleSpinBox()
        self.penalty_box.setRange(low, high)
        self.penalty_box.setSingleStep(step)
        self.penalty_box.setDecimals(1)
        self.penalty_box.setSuffix(" s")
        self.penalty_box.setValue(CONE_PENALTY_S)
        self.penalty_box.setToolTip(CONE_PENALTY_TIP)
        self.penalty_box.valueChanged.connect(self.cone_penalty_changed)
        self.summary = QLabel(NO_LAPS)
        self.first_box, self.second_box = QComboBox(), QComboBox()
        self.first_box.setToolTip("The first lap, the delta is measured against: the reference lap unless chosen")
        self.first_box.activated.connect(self._first_chosen)
        self.second_box.setToolTip("The second lap: its delta to the first, and its path on the map")
        self.channel_box = QComboBox()
        self.channel_box.setToolTip("The channel of the second lap the map is coloured by")
        self.export_button = QPushButton("Export lap CSV…")
        self.export_button.setToolTip("The second lap's channels over distance, one row per tick, as CSV")
        self.export_button.clicked.connect(self.export_dialog)
        for box in (self.first_box, self.second_box, self.channel_box):
            box.currentIndexChanged.connect(self._redraw)
        self.overlay = pg.GraphicsLayoutWidget()
        self.speed_plot = self.overlay.addPlot(row=0, col=0)
        self.delta_plot = self.overlay.addPlot(row=1, col=0)
        self.delta_plot.setXLink(self.speed_plot)
        for plot in (self.speed_plot, self.delta_plot):
            style_plot(plot)
        self.speed_plot.addLegend(offset=(6, 6))
        self.first_curve = self.speed_plot.plot(pen=pg.mkPen(FIRST_PEN, width=1.5))
        self.second_curve = self.speed_plot.plot(pen=pg.mkPen(SECOND_PEN, width=1.5))
        self.delta_plot.addLine(y=0, pen=pg.mkPen((120, 120, 120), style=Qt.PenStyle.DashLine))
        self.delta_curve = self.delta_plot.plot(pen=pg.mkPen(SECOND_PEN, width=1.5))
        self.delta_plot.setToolTip("Second lap minus first: above 0 the second lap is behind (slower) there")
        self.map = LapMap()

        choices = QHBoxLayout()
        for text, widget in (("First", self.first_box), ("vs", self.second_box), ("Map", self.channel_box)):
            choices.addWidget(QLabel(text))
            choices.addWidget(widget)
        choices.addStretch(1)
        choices.addWidget(self.export_button)
        settings = QHBoxLayout()
        for text, widget in (("Reference", self.reference_box), ("Cone penalty", self.penalty_box)):
            settings.addWidget(QLabel(text))
            settings.addWidget(widget)
        settings.addStretch(1)
        top = QWidget()
        column = QVBoxLayout(top)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.table, 1)
        column.addWidget(self.summary)
        column.addLayout(settings)
        column.addLayout(choices)
        split = QSplitter(Qt.Orientation.Horizontal)  # the bottom dock is wide and low
        for widget in (top, self.overlay, self.map):
            split.addWidget(widget)
        split.setSizes([340, 560, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(split)
        self.show_book(self.book, {})

    # --- the entry -------------------------------------------------------------------
    def show_book(self, book: LapBook, channels: BookChannels) -> None:
        """Show `book`'s laps; `channels`: each lap's channels by its number (laps without
        them are listed but not drawn). The reference lap stays while it is in the same
        book (else the best lap is). The first lap is the reference (or the first lap)
        until another is chosen, which then stays while there; the second chosen stays
        while there, else it is the last (or, when the last is the first, the one before)."""
        first, second, channel = self.first_number(), self.second_number(), self.channel_box.currentText()
        numbers = [lap.number for lap in book.laps]
        if book is not self.book or self.reference not in numbers:
            self.reference = None
        self.book, self.channels = book, channels
        reference = self._reference_lap()
        self.table.show_book(book, reference.number if reference else None)
        best = book.best
        best_text = f"{lap_time_text(best.time)} (lap {best.number})" if best else "–"
        self.summary.setText(
            f"Best lap {best_text} · optimal {lap_time_text(book.optimal)} (the best sectors)" if book.laps else NO_LAPS
        )
        if self._first_follows or first not in numbers:
            first = reference.number if reference else (numbers[0] if numbers else None)
        if second not in numbers:  # the last lap; the one before when the last is the first chosen
            second = numbers[-1] if numbers else None
            if second == first and len(numbers) > 1:
                second = numbers[-2]
        names = sorted({n for c in channels.values() for n in c} - {"distance", "x", "y"}, key=_channel_order)
        for box, items, keep in (
            (self.first_box, numbers, first),
            (self.second_box, numbers, second),
            (self.channel_box, names, channel if channel in names else (names[0] if names else None)),
        ):
            box.blockSignals(True)
            box.clear()
            for item in items:
                box.addItem(f"Lap {item}" if isinstance(item, int) else item, item)
            if keep is not None:
                box.setCurrentIndex(items.index(keep))
            box.blockSignals(False)
        self.reference_box.clear()
        self.reference_box.addItem(BEST, None)
        for number in numbers:
            self.reference_box.addItem(f"Lap {number}", number)
        self.reference_box.setCurrentIndex(0 if self.reference is None else self.reference_box.findData(self.reference))
        self._redraw()

    def choose_reference(self, number: int | None) -> None:
        """Take the delta to lap `number` (None, or a lap not in the book: the best lap);
        the overlay's first lap becomes it, and `reference_chosen` says it."""
        self.reference = number if number in [lap.number for lap in self.book.laps] else None
        self._first_follows = True
        self.show_book(self.book, self.channels)
        self.reference_chosen.emit(self.reference)

    def show_cone_penalty(self, seconds: float) -> None:
        """The cone penalty box at `seconds` (without saying it as a change)."""
        self.penalty_box.blockSignals(True)
        self.penalty_box.setValue(seconds)
        self.penalty_box.blockSignals(False)

    def _reference_lap(self) -> Lap | None:
        return self.book.best if self.reference is None else self.book.lap(self.reference)

    def _first_chosen(self) -> None:
        self._first_follows = False

    def choose(self, first: int, second: int) -> None:
        """Overlay lap `second` on lap `first` (lap numbers)."""
        self._first_follows = False
        self.first_box.setCurrentIndex(self.first_box.findData(first))
        self.second_box.setCurrentIndex(self.second_box.findData(second))

    def choose_channel(self, name: str) -> None:
        self.channel_box.setCurrentIndex(self.channel_box.findData(name))

    def first_number(self) -> int | None:
        return self.first_box.currentData()

    def second_number(self) -> int | None:
        return self.second_box.currentData()

    # --- drawing ---------------------------------------------------------------------
    def _table_chose(self) -> None:
        chosen = self.table.chosen()
        if len(chosen) == 2:
            self.choose(chosen[0].number, chosen[1].number)

    def _lap(self, number: int | None) -> Lap | None:
        return None if number is None else self.book.lap(number)

    def _redraw(self) -> None:
        first, second = self._lap(self.first_number()), self._lap(self.second_number())
        for curve, lap, name in ((self.first_curve, first, "first"), (self.second_curve, second, "second")):
            channels = self.channels.get(lap.number) if lap else None
            if channels and "speed" in channels:
                curve.setData(channels["distance"].values, channels["speed"].values)
                curve.opts["name"] = f"lap {lap.number} ({name})"
            else:
                curve.setData([], [])
        if first is not None and second is not None:
            self.delta_curve.setData(*delta_over_distance(first, second))
        else:
            self.delta_curve.setData([], [])
        self._legend()
        some = next(iter(self.channels.values()), None)
        unit = some["distance"].unit if some else ""
        speed_unit = some["speed"].unit if some and "speed" in some else ""
        set_label(self.speed_plot, "left", "speed", speed_unit)
        set_label(self.delta_plot, "left", "delta", "s")
        set_label(self.delta_plot, "bottom", "distance", unit)
        self.map.show_lap(self.channels.get(second.number) if second else None, self.channel_box.currentData())

    def _legend(self) -> None:
        legend = self.speed_plot.legend
        legend.clear()
        for curve in (self.first_curve, self.second_curve):
            if curve.xData is not None and len(curve.xData):
                legend.addItem(curve, curve.opts["name"])

    # --- export ----------------------------------------------------------------------
    def export_dialog(self) -> None:
        """Ask where to write the second lap's CSV, then write it (a message on failure)."""
        number = self.second_number()
        if number is None or number not in self.channels:
            QMessageBox.information(self, "Export lap", "No lap with channels to export yet.")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export lap channels", f"lap{number}.csv", "CSV (*.csv)")
        if path:
            try:
                self.export_csv(number, path)
            except UserError as exc:
                QMessageBox.warning(self, "Export lap", str(exc))

    def export_csv(self, number: int, path) -> Path:
        """Lap `number`'s channels written to `path` (whole or not at all); UserError
        when the lap has no channels or the file cannot be written."""
        if number not in self.channels:
            raise UserError(f"lap {number} has no channels to export")
        return write_text_atomic(path, lap_csv(self.channels[number]))


def _channel_order(name: str) -> tuple[int, str]:
    """Speed first, then the controls, then the rest by name."""
    first = ("speed", "steer", "throttle", "brake")
    return (first.index(name), "") if name in first else (len(first), name)
