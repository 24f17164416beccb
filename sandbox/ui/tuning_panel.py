"""Slider panel generated from a model's parameter declaration, with undo.

Parameters are shown in collapsible sections by their declared group: each one's name
and unit on a line of its own (never cut), under it its slider, number and reset, so
the slider has the panel's width. The rows are built a few at a time, one slice per
event-loop turn (open sections first), so a model switch never holds the window's
frames; reading the rows (`sliders`, `labels`, …) builds the rest first.

Every change goes through the window's QUndoStack: a click, a typed number, a reset
or a preset load is one step; a slider drag applies live while the mouse moves and
becomes one step when the mouse is released.
"""

from __future__ import annotations

import time
from typing import Mapping

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..errors import UserError, shown
from ..physics.params import Param, dependents, effective_params, groups
from ..physics.sim import TICK_RATES
from ..physics.steer_feel import FEEL_GROUP
from ..session.tuning import LiveTuning, TuningChange
from .param_row import COARSE_WHEEL, SLOW_DRAG, ParamChoice, ParamLabel, ParamSlider, number_text
from .steer_feel_plot import SteerFeelPlot

OPEN_UP_TO = 8
"""Sections of at most this many parameters start open; longer ones (a gearbox, a
torque curve) start closed, so a model's sections all fit on a screen."""
NOTE_MS = 6000
"""How long a note about a typed value stays."""
BUILD_SLICE_S = 0.006
"""s: the longest a turn of the event loop spends building rows (a row takes about 2 ms;
a frame is 16.7 ms at 60 Hz)."""


class SetValues(QUndoCommand):
    """Set some parameters of `tuning` from `old` to `new` (each way one announcement)."""

    def __init__(self, tuning: LiveTuning, old: Mapping[str, float], new: Mapping[str, float], text: str):
        super().__init__(text)
        self.tuning, self.old, self.new = tuning, dict(old), dict(new)

    def redo(self) -> None:
        self.tuning.update(self.new)

    def undo(self) -> None:
        self.tuning.update(self.old)


def _default_text(p: Param) -> str:
    """The parameter's default as the panel says it: on/off, a choice's name, a number and its unit."""
    if p.is_bool:
        return "on" if p.default else "off"
    if p.is_choice:
        return p.written(p.default)
    return f"{p.default:g} {p.unit}"


def _tooltip(p: Param) -> str:
    default = _default_text(p) if not p.is_number else f"{p.default:g} · range {p.range_text()}"
    scale = "<br>logarithmic slider: each decade the same length" if p.log else ""
    return f"<b>{p.label}</b> ({p.name}, {p.unit})<br>{p.help}<br>default {default}{scale}"


def _slider_tooltip(p: Param) -> str:
    """The parameter's tooltip and how to change it finely."""
    step = f"{number_text(p, p.step)} {p.unit}"
    return (
        _tooltip(p) + f"<br><i>Shift while dragging: {SLOW_DRAG}× slower · click the number, then the "
        f"mouse wheel: {step} a notch ({COARSE_WHEEL}× with Ctrl)</i>"
    )


class Section(QWidget):
    """A header that opens and closes a grid of parameter rows."""

    toggled = Signal(str, bool)

    def __init__(self, name: str, count: int, open_: bool, parent=None):
        super().__init__(parent)
        self.name = name
        self.header = QToolButton()
        self.header.setObjectName(f"section_{name}")
        self.header.setText(f"{name} ({count})")
        self.header.setCheckable(True)
        self.header.setChecked(open_)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setAutoRaise(True)
        self.header.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.header.setStyleSheet("QToolButton { font-weight: bold; border: none; }")
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        self.body_layout.setSpacing(2)
        self.grid = QGridLayout()
        self.body_layout.addLayout(self.grid)
        self.grid.setContentsMargins(12, 0, 0, 4)
        self.grid.setHorizontalSpacing(6)
        self.grid.setVerticalSpacing(1)
        self.grid.setColumnStretch(0, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header)
        layout.addWidget(self.body)
        self.header.toggled.connect(self._show)
        self._show(open_)

    def add_top(self, widget: QWidget) -> None:
        """`widget` above the rows, shown while the section is open."""
        self.body_layout.insertWidget(0, widget)

    def _show(self, open_: bool) -> None:
        self.header.setArrowType(Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow)
        self.header.setToolTip(("Close" if open_ else "Open") + f" the {self.name} section")
        self.body.setVisible(open_)
        self.toggled.emit(self.name, open_)

    def is_open(self) -> bool:
        return self.header.isChecked()


class TuningPanel(QWidget):
    """A row per parameter (label; slider, number box, reset) in sections by group.
    `opened` says which sections start open (by name; others by their size)."""

    edit_finished = Signal()  # a number was typed: focus may return to the car
    rate_requested = Signal(int)  # the user picked a physics tick rate (Hz)
    section_toggled = Signal(str, bool)  # a section opened or closed (name, open)

    def __init__(self, tuning: LiveTuning, undo: QUndoStack, opened: Mapping[str, bool] | None = None, parent=None):
        super().__init__(parent)
        self.undo = undo
        self.tuning = tuning
        self._sliders: dict[str, ParamSlider] = {}  # the rows built so far
        self._switches: dict[str, QCheckBox] = {}
        self._choices: dict[str, QComboBox] = {}
        self._labels: dict[str, ParamLabel] = {}
        self._resets: dict[str, QToolButton] = {}
        self._unbuilt: list[tuple[Section, str]] = []  # (section, parameter name), in build order
        self._committed: dict[str, float] = dict(tuning)  # values as of the last undo step
        self._dragging: set[str] = set()
        self._editing = False  # a value of the panel's own going into the tuning now

        self.title = QLabel()
        self.title.setWordWrap(True)
        self.rate = QComboBox()
        self.rate.setObjectName("tick_rate")
        for hz in TICK_RATES:
            self.rate.addItem(f"{hz} Hz", hz)
        self.rate.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.rate.setToolTip(
            "Physics ticks per second (Godot's physics_ticks_per_second). The recipe "
            "multiplies friction, drag and traction by the tick length, so its feel "
            "changes with the rate unless Rate independent is on."
        )
        self.rate.activated.connect(lambda index: self.rate_requested.emit(self.rate.itemData(index)))
        rate_row = QHBoxLayout()
        rate_row.addWidget(QLabel("Physics tick rate"))
        rate_row.addWidget(self.rate, 1)
        self.sections: dict[str, Section] = {}
        opened = opened if opened is not None else {}
        closed_rows = []
        for name, params in groups(tuning.effective()).items():
            section = Section(name, len(params), opened.get(name, len(params) <= OPEN_UP_TO))
            section.toggled.connect(self.section_toggled)
            section.toggled.connect(self._section_opened)
            rows = [(section, p.name) for p in params]
            if section.is_open():
                self._unbuilt += rows
            else:
                closed_rows += rows
            self.sections[name] = section
        self._unbuilt += closed_rows
        self.feel_plot = None  # the Steering feel section's curves over speed, above its sliders
        if FEEL_GROUP in self.sections:
            self.feel_plot = SteerFeelPlot(tuning)
            self.sections[FEEL_GROUP].add_top(self.feel_plot)
        self._build_timer = QTimer(self)
        self._build_timer.setSingleShot(True)
        self._build_timer.setInterval(0)
        self._build_timer.timeout.connect(self._build_slice)
        self.note = QLabel()
        self.note.setObjectName("typed_note")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #8a6d00")
        self.note.hide()
        self._note_timer = QTimer(self)
        self._note_timer.setSingleShot(True)
        self._note_timer.setInterval(NOTE_MS)
        self._note_timer.timeout.connect(self.note.hide)
        reset_all = QPushButton("Reset all to defaults")
        reset_all.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        reset_all.setToolTip("Set every parameter to its declared default (one undo step)")
        reset_all.clicked.connect(self.reset_all)

        body = QWidget()
        inner = QVBoxLayout(body)
        inner.addWidget(self.title)
        inner.addLayout(rate_row)
        inner.addWidget(self.note)
        for section in self.sections.values():
            inner.addWidget(section)
        inner.addStretch(1)
        self.scroll = scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        outer.addWidget(reset_all)  # below the scrolled rows: in sight however many sections are open
        tuning.changed.connect(self._tuning_changed)
        self._build_slice()

    # --- rows built a slice at a time ----------------------------------------
    def _build_slice(self) -> None:
        """Build rows for up to BUILD_SLICE_S, then the rest at the next turns."""
        end = time.perf_counter() + BUILD_SLICE_S
        while self._unbuilt and time.perf_counter() < end:
            self._build_row(*self._unbuilt.pop(0))
        if self._unbuilt:
            self._build_timer.start()

    def _section_opened(self, name: str, open_: bool) -> None:
        """A section opened while its rows wait: they are built now, before the next paint."""
        if open_ and any(section.name == name for section, _ in self._unbuilt):
            rows = [row for row in self._unbuilt if row[0].name == name]
            self._unbuilt = [row for row in self._unbuilt if row[0].name != name]
            for row in rows:
                self._build_row(*row)

    def _build_row(self, section: Section, name: str) -> None:
        """Parameter `name`'s row at the foot of `section`, as the tuning has it now."""
        p = self.tuning.param(name)
        grid, row = section.grid, section.grid.rowCount() if section.grid.count() else 0
        if p.is_bool:
            grid.addWidget(self._make_switch(p), row, 0)
        elif p.is_choice:
            grid.addWidget(self._make_choice(p), row, 0)
        else:
            grid.addWidget(self._make_label(p), row, 0, 1, 2)
            row += 1
            grid.addWidget(self._make_slider(p), row, 0)
        grid.addWidget(self._make_reset(p), row, 1)
        if p.is_bool:
            self._refresh_switch(name)

    def complete(self) -> None:
        """Build every row still waiting."""
        self._build_timer.stop()
        while self._unbuilt:
            self._build_row(*self._unbuilt.pop(0))

    @property
    def sliders(self) -> dict[str, ParamSlider]:
        """Every number parameter's slider, by name."""
        self.complete()
        return self._sliders

    @property
    def switches(self) -> dict[str, QCheckBox]:
        """Every switch's box, by name."""
        self.complete()
        return self._switches

    @property
    def choices(self) -> dict[str, QComboBox]:
        """Every choice's drop-down list (the shape's kind), by name."""
        self.complete()
        return self._choices

    @property
    def labels(self) -> dict[str, ParamLabel]:
        self.complete()
        return self._labels

    @property
    def resets(self) -> dict[str, QToolButton]:
        self.complete()
        return self._resets

    def eventFilter(self, obj, event) -> bool:
        """The mouse wheel over a slider, or a number box not clicked into, scrolls the
        panel instead of changing a value nobody meant to change."""
        if event.type() == QEvent.Type.Wheel and not obj.hasFocus():
            QApplication.sendEvent(self.scroll.verticalScrollBar(), event)
            return True
        return False

    # --- widgets -------------------------------------------------------------
    def _make_label(self, p: Param) -> ParamLabel:
        label = ParamLabel(f"{p.label} [{p.unit}]")
        label.setToolTip(_tooltip(p))
        self._labels[p.name] = label
        return label

    def _make_slider(self, p: Param) -> ParamSlider:
        slider = ParamSlider(p, self.tuning[p.name])
        slider.setToolTip(_slider_tooltip(p))
        slider.setObjectName(p.name)
        # The slider never takes keyboard focus (W/A/S/D and arrows keep driving);
        # the number box takes it on click only, for typing a value.
        slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        slider.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        slider.number.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        for part in (slider.slider, slider.number):
            part.installEventFilter(self)
        slider.valueChanged.connect(lambda value, name=p.name: self._on_value(name, value))
        slider.sliderPressed.connect(lambda name=p.name: self._dragging.add(name))
        slider.sliderReleased.connect(lambda name=p.name: self._on_release(name))
        slider.editingFinished.connect(self.edit_finished)
        slider.note.connect(self.show_note)
        self._sliders[p.name] = slider
        return slider

    def show_note(self, text: str) -> None:
        """A note above the sections for a few seconds (a typed value refused or changed)."""
        self.note.setText(text)
        self.note.show()
        self._note_timer.start()

    def show_section(self, name: str) -> None:
        """Open the section headed `name` and scroll it into view; a UserError naming the
        sections of this model when it has none of that name."""
        section = self.sections.get(name)
        if section is None:
            raise UserError(f"no section {shown(repr(name))} in the tuning panel: it has {', '.join(self.sections)}")
        section.header.setChecked(True)
        QApplication.processEvents()  # the opened section's size, before scrolling to it
        self.scroll.verticalScrollBar().setValue(section.y())

    def opened(self) -> dict[str, bool]:
        """Which sections are open, by name."""
        return {name: section.is_open() for name, section in self.sections.items()}

    def _make_switch(self, p: Param) -> QCheckBox:
        box = QCheckBox(p.label)
        box.setChecked(bool(self.tuning[p.name]))
        box.setToolTip(_tooltip(p))
        box.setObjectName(p.name)
        box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        box.toggled.connect(lambda on, name=p.name: self._on_value(name, on))
        self._switches[p.name] = box
        return box

    def _make_choice(self, p: Param) -> ParamChoice:
        row = ParamChoice(p, self.tuning[p.name], _tooltip(p))
        row.box.installEventFilter(self)  # the wheel over it scrolls the panel
        row.box.activated.connect(lambda index, name=p.name: self._on_value(name, float(index)))
        self._choices[p.name] = row.box
        return row

    def _make_reset(self, p: Param) -> QToolButton:
        button = QToolButton()
        button.setText("↺")
        button.setObjectName(f"reset_{p.name}")
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.clicked.connect(lambda _=False, name=p.name: self.reset(name))
        self._resets[p.name] = button
        self._describe_reset(p)
        return button

    def _describe_reset(self, p: Param) -> None:
        self._resets[p.name].setToolTip(f"Reset {p.label} to {_default_text(p)}")

    def _refresh_meanings(self) -> None:
        """Rows whose parameter a switch has given another unit and range show it; a
        switch that does nothing under the others is greyed out."""
        for name in self._switches:
            self._refresh_switch(name)
        for name, slider in self._sliders.items():
            p = self.tuning.param(name)
            if p != slider.param:
                slider.set_param(p, self.tuning[name])
                slider.setToolTip(_slider_tooltip(p))
                self._labels[name].set_full_text(f"{p.label} [{p.unit}]")
                self._labels[name].setToolTip(_tooltip(p))
                self._describe_reset(p)

    def _refresh_switch(self, name: str) -> None:
        p = self.tuning.params[name]
        box = self._switches[name]
        box.setEnabled(p.applies(self.tuning))
        box.setToolTip(
            _tooltip(p) + ("" if p.applies(self.tuning) else f"<br><i>does nothing while {p.unused_with} is on</i>")
        )

    # --- changes from the user ----------------------------------------------
    def _on_value(self, name: str, value: float) -> None:
        p = self.tuning.param(name)
        snapped = p.snap(value)
        if snapped != value:
            self._show(name, snapped)
        if snapped == self.tuning[name]:
            return
        changed = dependents(self.tuning.params.values(), name)
        if changed:  # a switch that gives other numbers another meaning: one step with them
            new = {name: snapped, **{d.name: d.under({**self.tuning, name: snapped}).default for d in changed}}
            self.set_values(new, f"{p.label} {'on' if snapped else 'off'}")
            return
        self._editing = True
        try:
            self.tuning.set(name, snapped)
        finally:
            self._editing = False
        if name not in self._dragging:
            self._commit(name)

    def _on_release(self, name: str) -> None:
        self._dragging.discard(name)
        self._commit(name)

    def _commit(self, name: str) -> None:
        """Record the change of `name` since the last undo step as one step."""
        old, new = self._committed[name], self.tuning[name]
        if old != new:
            p = self.tuning.param(name)
            if p.is_bool:
                text = f"{p.label} {'on' if new else 'off'}"
            elif p.is_choice:
                text = f"{p.label} {p.written(old)} → {p.written(new)}"
            else:
                text = f"{p.label} {old:g} → {new:g}"
            self.undo.push(SetValues(self.tuning, {name: old}, {name: new}, text))  # its redo: nothing new
            self._committed[name] = new

    def set_values(self, values: Mapping[str, float], text: str) -> None:
        """Change several values as one undo step (reset all, preset load). A switch
        that changes what other values mean resets them (Tuning.set): they are part of
        the step, so Undo brings back what they were."""
        after = self.tuning.copy()
        after.set_many(values)
        touched = set(values)
        for name in values:
            if after[name] != self.tuning[name]:
                touched |= {d.name for d in dependents(after.params.values(), name)}
        old = {k: self.tuning[k] for k in touched}
        new = {k: after[k] for k in touched}
        if old != new:
            self.undo.push(SetValues(self.tuning, old, new, text))

    def reset(self, name: str) -> None:
        p = self.tuning.param(name)
        if p.is_bool and dependents(self.tuning.params.values(), name):
            self._on_value(name, p.default)
            return
        self.set_values({name: p.default}, f"Reset {p.label}")

    def reset_all(self) -> None:
        """Every switch to its default, then every number to the default it has with them."""
        params = self.tuning.params.values()
        switches = {p.name: p.default for p in params if p.is_bool}
        numbers = {p.name: p.default for p in effective_params(params, switches) if not p.is_bool}
        self.set_values({**switches, **numbers}, "Reset all parameters")

    # --- changes from undo/redo, loads, the link, a tune or fit applied -----------
    def _tuning_changed(self, change: TuningChange) -> None:
        """The sliders show what changed in the tuning (a value of the panel's own is
        shown already; a drag becomes an undo step when it ends)."""
        if change.model:  # another model's panel replaces this one
            self.tuning.changed.disconnect(self._tuning_changed)
            self._build_timer.stop()
            self._unbuilt = []  # the rows left are the last model's
            return
        if change.hz is not None:
            self.show_rate(change.hz[1])
        if any(self.tuning.params[name].is_bool for name in change.names):
            self._refresh_meanings()
        if self._editing:
            return
        for name in change.names:
            self._committed[name] = change.new[name]
            self._show(name, change.new[name])

    def show_rate(self, hz: int) -> None:
        index = self.rate.findData(hz)
        if index < 0:  # a rate from the command line, not one of the offered ones
            self.rate.addItem(f"{hz} Hz", hz)
            index = self.rate.count() - 1
        self.rate.setCurrentIndex(index)

    def _show(self, name: str, value: float) -> None:
        if name in self._switches:
            box = self._switches[name]
            box.blockSignals(True)
            box.setChecked(bool(value))
            box.blockSignals(False)
            return
        if name in self._choices:
            self._choices[name].setCurrentIndex(int(value))  # `activated` is the user's pick only
            return
        if name not in self._sliders:  # not built yet: it reads the tuning when it is
            return
        slider = self._sliders[name]
        slider.blockSignals(True)
        slider.setValue(value)
        slider.blockSignals(False)
