"""The Laps tab's lap table: a row per lap (time, sectors, cones, marks), the sector and
lap times coloured as motorsport timing screens colour them, and the best and optimal
lap under it."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

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
    """The book's laps, a row each in the order driven; `laps` holds the row's lap."""

    def __init__(self):
        super().__init__(0, len(columns(0)))
        self.laps: list[Lap] = []
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)
        self.setToolTip(LEGEND + " Select two laps (Ctrl+click) to overlay them.")

    def show_book(self, book: LapBook) -> None:
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
                self.setItem(row, col, item)

    def colour_of(self, row: int, col: int) -> str:
        """The colour class of a cell (OVERALL, PERSONAL, SLOWER or "")."""
        item = self.item(row, col)
        return item.toolTip() if item is not None else ""

    def chosen(self) -> list[Lap]:
        """The selected rows' laps, in the table's order."""
        rows = sorted({index.row() for index in self.selectionModel().selectedRows()})
        return [self.laps[r] for r in rows if r < len(self.laps)]
