"""The Laps tab's lap table: a row per lap (time, sectors, cones, marks), the sector and
lap times coloured as motorsport timing screens colour them, the reference lap's row
marked, and a context menu to choose the reference lap."""

from __future__ import annotations

import math

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableWidget, QTableWidgetItem

from ..analysis.laps import Lap, LapBook

OVERALL, PERSONAL, SLOWER = "overall best", "personal best", "slower"
"""How a time compares: the best of the book's valid laps; better than every earlier
valid lap when it was set; neither. Invalid laps get none (they never count)."""
COLOURS = {OVERALL: QColor(150, 70, 210), PERSONAL: QColor(40, 150, 70), SLOWER: QColor(200, 170, 20)}
"""Purple, green, yellow, as timing screens show them."""
INVALID_TEXT = QColor(130, 130, 130)
"""The text of a lap that does not count."""
LEGEND = (
    "Sector and lap times: purple, the best of all valid laps; green, a personal best "
    "(better than every valid lap before it); yellow, slower. Grey: a lap that does not "
    "count (see its marks)."
)
REFERENCE_MARK = " · reference"
"""After the reference lap's number in its row."""
REFERENCE_TIP = "The reference lap: the live delta and the predicted lap time are taken to it"
USE_AS_REFERENCE, USE_BEST = "Use as reference lap", "Use the best lap as reference"


def rank(times: list[float], valid: list[bool]) -> list[str]:
    """Each time's colour class (OVERALL, PERSONAL, SLOWER, "" for an invalid lap), the
    laps in the order driven: the first lap to set the least valid time is OVERALL."""
    counted = [t for t, ok in zip(times, valid) if ok]
    best = min(counted) if counted else math.nan
    out, earlier, overall_given = [], math.inf, False
    for t, ok in zip(times, valid):
        if not ok:
            out.append("")
            continue
        if t == best and not overall_given:
            out.append(OVERALL)
            overall_given = True
        else:
            out.append(PERSONAL if t < earlier else SLOWER)
        earlier = min(earlier, t)
    return out


def lap_time_text(seconds: float) -> str:
    """m:ss.sss from a minute on, s.sss below; "–" for none."""
    if not math.isfinite(seconds):
        return "–"
    if seconds < 60:
        return f"{seconds:.3f}"
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:06.3f}"


def columns(sectors: int) -> list[str]:
    return ["Lap", "Time", *(f"S{k + 1}" for k in range(sectors)), "Cones", "Marks"]


class LapTable(QTableWidget):
    """The book's laps, a row each in the order driven; `laps` holds the row's lap.
    `reference_chosen` says the lap its context menu made the reference (its number, or
    None for the best lap)."""

    reference_chosen = Signal(object)

    def __init__(self):
        super().__init__(0, len(columns(0)))
        self.laps: list[Lap] = []
        self.reference: int | None = None  # the number of the lap marked as the reference
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)
        self.setToolTip(
            LEGEND + " Select two laps (Ctrl+click) to overlay them; right-click a lap to use it as the reference."
        )

    def show_book(self, book: LapBook, reference: int | None = None) -> None:
        """A row per lap of `book`; lap number `reference`'s row marked as the reference."""
        self.reference = reference
        laps = list(book.laps)
        sectors = max((len(lap.sectors) for lap in laps), default=0)
        heads = columns(sectors)
        self.laps = laps
        self.setColumnCount(len(heads))
        self.setHorizontalHeaderLabels(heads)
        self.setRowCount(len(laps))
        valid = [lap.valid for lap in laps]
        ranks = [rank([lap.time for lap in laps], valid)]
        for k in range(sectors):
            ranks.append(rank([lap.sectors[k] if k < len(lap.sectors) else math.inf for lap in laps], valid))
        for row, lap in enumerate(laps):
            cells = [str(lap.number), lap_time_text(lap.time)]
            cells += [lap_time_text(lap.sectors[k]) if k < len(lap.sectors) else "–" for k in range(sectors)]
            cells += [str(lap.cones), ", ".join(lap.marks) or "valid"]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if 0 < col <= sectors + 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    kind = ranks[col - 1][row]
                    if kind:
                        item.setBackground(COLOURS[kind])
                        item.setForeground(QColor("white") if kind != SLOWER else QColor("black"))
                        item.setToolTip(kind)
                if not lap.valid:
                    item.setForeground(INVALID_TEXT)
                if lap.number == reference:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                    if col == 0:
                        item.setText(text + REFERENCE_MARK)
                        item.setToolTip(REFERENCE_TIP)
                self.setItem(row, col, item)

    def colour_of(self, row: int, col: int) -> str:
        """The colour class of a cell (OVERALL, PERSONAL, SLOWER or "")."""
        item = self.item(row, col)
        return item.toolTip() if item is not None else ""

    def reference_row(self) -> int | None:
        """The row marked as the reference lap (None: none is)."""
        return next((row for row, lap in enumerate(self.laps) if lap.number == self.reference), None)

    def menu_for(self, row: int) -> QMenu:
        """The context menu of `row` (-1: no row): use its lap, or the best lap, as the
        reference."""
        menu = QMenu(self)
        lap = self.laps[row] if 0 <= row < len(self.laps) else None
        use = menu.addAction(USE_AS_REFERENCE if lap is None else f"{USE_AS_REFERENCE} (lap {lap.number})")
        use.setEnabled(lap is not None)
        if lap is not None:
            use.triggered.connect(lambda: self.reference_chosen.emit(lap.number))
        menu.addAction(USE_BEST).triggered.connect(lambda: self.reference_chosen.emit(None))
        return menu

    def _context_menu(self, position: QPoint) -> None:
        self.menu_for(self.rowAt(position.y())).exec(self.viewport().mapToGlobal(position))

    def chosen(self) -> list[Lap]:
        """The selected rows' laps, in the table's order."""
        rows = sorted({index.row() for index in self.selectionModel().selectedRows()})
        return [self.laps[r] for r in rows if r < len(self.laps)]
