"""Record and replay toolbar: record, play/pause, step, scrub, replay speed."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QSlider, QStyle, QToolBar

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
POSITION_TEMPLATE = " slalom: 18000/18000 ticks (300.00/300.00 s) "
"""The width the position label is made for (a longer name is cut)."""


class ReplayBar(QToolBar):
    """Controls only: the window owns the recording and the replay."""

    scrubbed = Signal(int)  # tick to show

    def __init__(self, parent=None):
        super().__init__("Replay", parent)
        self.setObjectName("replay_bar")
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        icon = self.style().standardIcon  # the platform's own media icons
        self.icons = {
            "play": icon(QStyle.StandardPixmap.SP_MediaPlay),
            "pause": icon(QStyle.StandardPixmap.SP_MediaPause),
        }
        self.record_action = self.addAction("● Record")
        self.record_action.setCheckable(True)
        self.record_action.setToolTip("Record the controls of every tick from a fresh start (Ctrl+R)")
        self.play_action = self.addAction(self.icons["play"], "Play")
        self.play_action.setCheckable(True)
        self.play_action.setToolTip("Play or pause the loaded trace (F6)")
        self.step_action = self.addAction(icon(QStyle.StandardPixmap.SP_MediaSkipForward), "Step")
        self.step_action.setToolTip("One physics tick of the trace (F7)")
        self.live_action = self.addAction(icon(QStyle.StandardPixmap.SP_MediaStop), "Drive")
        self.live_action.setToolTip("Leave the replay and drive with the keyboard again (F8)")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.slider.setMinimumWidth(200)
        self.slider.setToolTip("Scrub: the car is re-simulated from the start to this tick")
        self.slider.sliderMoved.connect(self.scrubbed)
        self.addWidget(self.slider)
        self.position = QLabel("")
        # a fixed size: its text changes many times a second while replaying, and a
        # label that may change size lays out the whole window again each time
        self.position.setFixedSize(
            self.position.fontMetrics().horizontalAdvance(POSITION_TEMPLATE) + 8, self.position.sizeHint().height()
        )
        self.position.setToolTip("The replayed trace: tick and time")
        self.addWidget(self.position)
        self.speed = QComboBox()
        self.speed.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for value in SPEEDS:
            self.speed.addItem(f"{value:g}×", value)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.setToolTip("Replay speed (the physics is the same at any speed)")
        self.addWidget(self.speed)
        self.show_trace(None, 0, False)

    def show_trace(self, name: str | None, length: int, playing: bool, recorded: bool = False) -> None:
        """The loaded trace (None: driving live); `recorded`: a recording just made can
        be played (Play loads it)."""
        loaded = name is not None
        for widget in (self.step_action, self.live_action):
            widget.setEnabled(loaded)
        self.play_action.setEnabled(loaded or recorded)
        self.play_action.setToolTip(
            "Play or pause the loaded trace (F6)"
            if loaded or not recorded
            else "Play the recording just made, from the start (F6)"
        )
        self.slider.setEnabled(loaded)
        self.slider.setRange(0, max(length, 0))
        self.play_action.setChecked(playing)
        self.play_action.setText("Pause" if playing else "Play")
        self.play_action.setIcon(self.icons["pause" if playing else "play"])
        if not loaded:
            self.position.setText(" recording ready to play " if recorded else " no trace loaded ")

    def show_position(self, name: str, tick: int, length: int, hz: int) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(tick)
        self.slider.blockSignals(False)
        self.position.setText(f" {name}: {tick}/{length} ticks ({tick / hz:.2f}/{length / hz:.2f} s) ")
