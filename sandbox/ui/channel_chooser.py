"""The channel plot's chooser above the live plots: a box of presets (the model's and
the inputs') and a Channels menu with every channel of the model, checkable, grouped
(the model's own, every car's, the inputs). At most MAX_CHANNELS channels of at most
MAX_UNITS units are chosen at once; the menu says why the others are greyed."""

from __future__ import annotations

from types import ModuleType

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QMenu, QToolButton, QWidget

from ..physics.channels import INPUT, Channel
from ..session.input_channels import plot_channels, telemetry_groups
from .telemetry import MAX_CHANNELS, MAX_UNITS, channel_units


def channel_names(text: str, channels) -> tuple[str, ...]:
    """The channel names of a saved choice (comma-separated text), each one of
    `channels`'; ValueError when any is not, or there are none or too many."""
    names = tuple(n for n in text.split(",") if n)
    known = {c.name: c for c in channels}
    unknown = [n for n in names if n not in known]
    if unknown or not names or len(names) > MAX_CHANNELS or len(set(names)) != len(names):
        raise ValueError(f"not a choice of channels: {text!r}")
    if len(channel_units([known[n] for n in names])) > MAX_UNITS:
        raise ValueError(f"more than {MAX_UNITS} units: {text!r}")
    return names


class ChannelChooser(QWidget):
    """The presets box and the Channels menu; `chosen` says the channels picked (a tuple
    of Channel) whenever they change by the user's hand."""

    chosen = Signal(tuple)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.channels: tuple[Channel, ...] = ()
        self.presets: dict[str, tuple[Channel, ...]] = {}
        self.names: tuple[str, ...] = ()
        self.box = QComboBox()
        self.box.setObjectName("telemetry_channels")
        self.box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.box.setPlaceholderText("chosen")
        self.box.setToolTip(
            "A preset of channels for the third plot: the model's own telemetry, or an input "
            "(steer, throttle, brake) as the car received it beside the device's raw value"
        )
        self.box.currentTextChanged.connect(self._preset_picked)
        self.button = QToolButton()
        self.button.setObjectName("telemetry_channel_menu")
        self.button.setText("Channels")
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.button.setToolTip(
            f"Choose any of the model's channels for the third plot: up to {MAX_CHANNELS} curves "
            f"of up to {MAX_UNITS} units (the second unit on the right axis); remembered for each model"
        )
        self.menu = QMenu(self.button)
        self.menu.aboutToShow.connect(self._grey_out)
        self.button.setMenu(self.menu)
        self.actions: dict[str, QAction] = {}
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(self.box)
        row.addWidget(self.button)

    def set_model(self, model: ModuleType, names: tuple[str, ...] | None) -> None:
        """The channels of `model`, with `names` chosen (None: its first preset); no signal."""
        self.channels = plot_channels(model)
        self.presets = telemetry_groups(model)
        self.menu.clear()
        self.actions = {}
        own = {c.name for c in model.CHANNELS}
        sections = (
            (model.TITLE, [c for c in self.channels if c.name in own]),
            ("every car", [c for c in self.channels if c.name not in own and not _input(c)]),
            ("inputs", [c for c in self.channels if c.name not in own and _input(c)]),
        )
        for title, channels in sections:
            self.menu.addSection(title)
            for channel in channels:
                unit = f" [{channel.unit}]" if channel.unit else ""
                action = self.menu.addAction(f"{channel.label}{unit}")
                action.setCheckable(True)
                action.setData(channel.name)
                action.toggled.connect(lambda on, name=channel.name: self._toggled(name, on))
                self.actions[channel.name] = action
        self.box.blockSignals(True)
        self.box.clear()
        self.box.addItems(list(self.presets))
        self.box.blockSignals(False)
        first = tuple(c.name for c in next(iter(self.presets.values()), ()))
        self._show(names if names is not None else first)

    def chosen_channels(self) -> tuple[Channel, ...]:
        by_name = {c.name: c for c in self.channels}
        return tuple(by_name[n] for n in self.names)

    def choose(self, names) -> None:
        """Choose the channels `names` as the user would (the signal follows)."""
        self._show(tuple(names))
        self.chosen.emit(self.chosen_channels())

    def _show(self, names: tuple[str, ...]) -> None:
        self.names = tuple(names)
        for name, action in self.actions.items():
            action.blockSignals(True)
            action.setChecked(name in self.names)
            action.blockSignals(False)
        preset = next((p for p, cs in self.presets.items() if tuple(c.name for c in cs) == self.names), None)
        self.box.blockSignals(True)
        self.box.setCurrentIndex(-1 if preset is None else list(self.presets).index(preset))
        self.box.blockSignals(False)

    def _preset_picked(self, name: str) -> None:
        if name in self.presets:
            self.choose(c.name for c in self.presets[name])

    def _toggled(self, name: str, on: bool) -> None:
        names = tuple(n for n in self.names if n != name) + ((name,) if on else ())
        if names:
            self.choose(names)
        else:  # the plot keeps one channel: unchecking the last one is undone
            self._show(self.names)

    def _grey_out(self) -> None:
        """Channels that would be one curve or one unit too many are greyed, saying why."""
        chosen = self.chosen_channels()
        units = channel_units(chosen)
        for channel in self.channels:
            action = self.actions[channel.name]
            full = len(chosen) >= MAX_CHANNELS
            other_unit = channel.unit not in units and len(units) >= MAX_UNITS
            free = action.isChecked() or not (full or other_unit)
            action.setEnabled(free)
            why = (
                ""
                if free
                else f"{MAX_CHANNELS} channels are shown: uncheck one first"
                if full
                else f"the plot has {MAX_UNITS} units already ({', '.join(units)})"
            )
            action.setToolTip(why)
        self.menu.setToolTipsVisible(True)


def _input(channel: Channel) -> bool:
    return channel.kind == INPUT or channel.name == "steer_received"
