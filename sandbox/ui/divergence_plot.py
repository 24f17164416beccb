"""The divergence plot of a replayed recording: how far the sandbox car is from where
the recorded car was, tick by tick, against the recording's time; the worst point
marked and named, a line at the replay's tick, a click that seeks the replay there, and
the stretches a fit left out as what the model cannot explain shaded."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ..analysis.metrics import format_value
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .palette import CAR
from .plot_style import AXIS_WIDTH, CompactAxis, style_plot
from .recording_overlay import RECORDING

LEFT_OUT = (255, 255, 255, 40)
"""The shade of a stretch a fit left out (RGBA)."""


class DivergencePlot(QWidget):
    """Distance (the model's length unit) between the sandbox car and the recording's
    pose per tick, against time (s); `seek(seconds)` when the plot is clicked."""

    seek = Signal(float)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.summary = QLabel(
            "Open a game recording (File → Open game recording…) to see where the sandbox parts from it"
        )
        self.summary.setObjectName("divergence_summary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.plot = pg.PlotWidget(axisItems={"left": CompactAxis("left")})
        style_plot(self.plot.getPlotItem())
        self.plot.getAxis("left").setWidth(AXIS_WIDTH)
        self.plot.setLabel("bottom", "time in the recording [s]")
        self.plot.setMouseEnabled(x=True, y=False)
        self.plot.setToolTip("Click to replay from that time")
        self.curve = pg.PlotCurveItem(pen=pg.mkPen(RECORDING, width=1))
        self.plot.addItem(self.curve)
        self.worst = pg.ScatterPlotItem(size=10, brush=pg.mkBrush(RECORDING), pen=pg.mkPen("#ffffff"))
        self.plot.addItem(self.worst)
        self.worst_label = pg.TextItem(color=RECORDING, anchor=(0.0, -0.2))
        self.plot.addItem(self.worst_label)
        self.now = pg.InfiniteLine(
            angle=90, pen=pg.mkPen(CAR, width=1), label="", labelOpts={"position": 0.9, "color": CAR}
        )
        self.plot.addItem(self.now, ignoreBounds=True)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.summary)
        layout.addWidget(self.plot, 1)
        self.times = np.empty(0)
        self.spans: list[pg.LinearRegionItem] = []

    def mark_spans(self, spans, tip: str = "") -> None:
        """Shade each [start, end] (s) of `spans`, `tip` on hover (the stretches a fit
        left out as what the model cannot explain); none: the marks go."""
        for item in self.spans:
            self.plot.removeItem(item)
        self.spans = []
        for start, end in spans:
            item = pg.LinearRegionItem(
                values=(start, end), movable=False, brush=pg.mkBrush(LEFT_OUT), pen=pg.mkPen(None)
            )
            item.setZValue(-10)  # under the curve
            item.setToolTip(tip)
            self.plot.addItem(item, ignoreBounds=True)
            self.spans.append(item)

    def show_divergence(self, times: np.ndarray, distance: np.ndarray, unit: str, summary: str, ticks=None) -> None:
        """`distance[i]` at `times[i]` (s), the recording's tick `ticks[i]` (default i),
        in `unit`; the worst point marked."""
        self.times = np.asarray(times, dtype=np.float64)
        self.curve.setData(self.times, distance)
        self.plot.setLabel("left", f"distance [{unit}]")
        self.summary.setText(summary)
        if len(distance):
            i = int(np.nanargmax(distance))
            self.worst.setData([self.times[i]], [distance[i]])
            tick = i if ticks is None else int(ticks[i])
            self.worst_label.setText(
                f"worst {format_value(float(distance[i]))} {unit} at {self.times[i]:.2f} s (tick {tick})"
            )
            # the text under the point (the curve's top) on the side with room: left of a
            # point in the plot's right half
            right = self.times[i] > (self.times[0] + self.times[-1]) / 2
            self.worst_label.setAnchor((1.0, -0.2) if right else (0.0, -0.2))
            self.worst_label.setPos(self.times[i], distance[i])
        self.plot.getPlotItem().enableAutoRange()

    def clear(self) -> None:
        self.times = np.empty(0)
        self.curve.setData([], [])
        self.worst.setData([], [])
        self.worst_label.setText("")

    def show_time(self, seconds: float, text: str = "") -> None:
        """The replay's line at `seconds`, labelled `text` (the distance there)."""
        self.now.setValue(seconds)
        self.now.label.setFormat(text)

    def _clicked(self, event) -> None:
        box = self.plot.getViewBox()
        if event.button() == Qt.MouseButton.LeftButton and box.sceneBoundingRect().contains(event.scenePos()):
            self.seek.emit(float(box.mapSceneToView(event.scenePos()).x()))
