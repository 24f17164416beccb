"""The Link panel: listen for the running Godot game (or stop), the session's token
to paste into the game's link node, the address and port (kept between runs), what
the linked game is (name, Godot version, model, tick rate) and how the link is doing
(messages a second, dropped packets by reason, lost ticks, round trip), the names the
game's script lacks, the values the game refused, and the buttons that pull values
from the game, send them all, pull the game's level, and record the game's drive.
Widgets only: the window's LinkControl (link_control.py) drives them."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..link.game import REASON_CHARS, from_game, names_from_game
from .palette import GAME

DEFAULT_ADDRESS = "127.0.0.1"
"""The address the sandbox listens on unless the user names another (this computer only)."""
NONE = "–"
"""What a figure shows before there is one."""


def _label(tip: str, name: str = "") -> QLabel:
    label = QLabel(NONE)
    label.setToolTip(tip)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)
    if name:
        label.setObjectName(name)
    return label


def _button(text: str, tip: str, name: str) -> QPushButton:
    button = QPushButton(text)
    button.setToolTip(tip)
    button.setObjectName(name)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys keep driving the car
    return button


def dropped_text(dropped: dict[str, int]) -> str:
    """`"12 packets (token 10, not JSON 2)"`, or `"none"`."""
    total = sum(dropped.values())
    if not total:
        return "none"
    reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(dropped.items(), key=lambda kv: -kv[1]))
    return f"{total} packet{'s' if total != 1 else ''} ({reasons})"


class LinkPanel(QWidget):
    """The Link tab's widgets; `show_*` put the link's state into them."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.listen_button = _button(
            "Listen", "Listen for the game on the address and port below (Ctrl+L); again to stop", "link_listen"
        )
        self.state = _label("Whether the sandbox listens for the game, and where (UDP)", "link_state")
        self.token = QLineEdit()
        self.token.setObjectName("link_token")
        self.token.setReadOnly(True)
        self.token.setPlaceholderText("shown while listening")
        self.token.setToolTip(
            "This session's token: paste it into the link node's token property in the game. "
            "Messages without it are dropped; a new one is made each time you listen."
        )
        self.copy_button = _button("Copy", "Put the token on the clipboard", "link_copy_token")
        self.address = QLineEdit(DEFAULT_ADDRESS)
        self.address.setObjectName("link_address")
        self.address.setToolTip(
            f"The address to listen on; {DEFAULT_ADDRESS} is this computer only. Another address makes "
            "the link reachable from other machines (you are asked first). Used at the next Listen."
        )
        self.port = QSpinBox()
        self.port.setObjectName("link_port")
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText("any free port")
        self.port.setToolTip(
            "The UDP port to listen on (the link node's port property; 47620 unless you change both). "
            "Used at the next Listen."
        )
        self.warning = QLabel()
        self.warning.setObjectName("link_warning")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #c62828")
        self.warning.hide()

        self.game = _label("The game's project name", "link_game")
        self.godot = _label("The Godot version the game runs on", "link_godot")
        self.model = _label("The sandbox model the game's car script says it is", "link_model")
        self.hz = _label("The game's physics ticks per second [Hz]", "link_hz")
        self.rate = _label("Messages from the game per second [1/s] (telemetry: one a physics tick)", "link_rate")
        self.dropped = _label("Packets dropped unread, by reason", "link_dropped")
        self.lost = _label(
            "Physics ticks of the game whose telemetry never arrived (gaps in the tick numbers) [ticks]", "link_lost"
        )
        self.rtt = _label("The last round trip of a ping to the game and back [ms]", "link_rtt")
        self.missing = _label("Parameters the link node maps that the game's car script lacks", "link_missing")
        self.change = _label(
            "When another game took the link (after the game before it said bye or was silent a second), "
            "or the game restarted",
            "link_change",
        )
        self.change.setStyleSheet(f"color: {GAME}")
        self.change.hide()  # until the game changes

        self.note = _label("Whether slider changes are sent to the game", "link_note")
        self.note.setText("Not listening.")
        self.switch_button = _button("Switch the window to the game's model", "", "link_switch_model")
        self.accept_button = _button("Send to the game anyway", "", "link_accept")
        self.refused = _label("Values the game refused, each with the game's reason", "link_refused")
        self.refused.setStyleSheet("color: #c62828")
        self.refused.hide()  # until the game refuses a value
        self.pull_button = _button(
            "Pull from game",
            "Take the game's values into the sliders (one undo step); values the sliders cannot take are listed",
            "link_pull",
        )
        self.level_button = _button(
            "Pull level from game",
            "Draw the running game's walls (its static collision shapes) and drive on them: the window's "
            "track becomes the game's level (Ctrl+Shift+K; Track → Save track as… keeps it)",
            "link_pull_level",
        )
        self.level = _label("The last level pulled from the game: its walls and what was not read", "link_level")
        self.level.setText("")
        self.send_button = _button(
            "Send all values", "Send every value of this tuning to the game now (it takes them next tick)", "link_send"
        )
        self.record_button = _button(
            "Record game drive",
            "Record the game's controls and its car's pose every tick (Ctrl+Shift+L); again to stop and save",
            "link_record",
        )
        self.record_button.setCheckable(True)
        self.recorded = _label("The last recording of the game's drive", "link_recorded")
        self.recorded.setText("")
        self.open_recorded = _button(
            "Open it",
            "Replay the drive just saved as a game recording: the sandbox car drives its controls from its "
            "start, and the Recording tab shows how far it gets from the game's car",
            "link_open_recorded",
        )
        self.open_recorded.hide()  # until a drive is saved

        settings = QGroupBox("Listen on")
        form = QFormLayout(settings)
        form.addRow("Address", self.address)
        form.addRow("Port (UDP)", self.port)
        token_row = QHBoxLayout()
        token_row.addWidget(self.token, 1)
        token_row.addWidget(self.copy_button)
        game = QGroupBox("The game")
        facts = QFormLayout(game)
        for text, label in (
            ("Game", self.game),
            ("Godot", self.godot),
            ("Model", self.model),
            ("Tick rate", self.hz),
            ("Messages", self.rate),
            ("Dropped", self.dropped),
            ("Lost ticks", self.lost),
            ("Round trip", self.rtt),
            ("Script lacks", self.missing),
        ):
            facts.addRow(text, label)
        choose = QVBoxLayout()  # one a line: their texts name a model, and the panel may be narrow
        choose.addWidget(self.switch_button)
        choose.addWidget(self.accept_button)
        self.switch_button.hide()
        self.accept_button.hide()
        actions = QHBoxLayout()
        actions.addWidget(self.pull_button)
        actions.addWidget(self.send_button)
        level = QHBoxLayout()
        level.addWidget(self.level_button)
        level.addWidget(self.level, 1)

        # Listen above, the choices and actions below: in sight however short the
        # window; the token, the settings and the game's figures scroll between them
        top = QHBoxLayout()
        top.addWidget(self.listen_button)
        top.addWidget(self.state, 1)
        body = QWidget()
        column = QVBoxLayout(body)
        column.addWidget(QLabel("Token"))
        column.addLayout(token_row)
        column.addWidget(settings)
        column.addWidget(self.warning)
        column.addWidget(game)
        column.addWidget(self.change)
        column.addWidget(self.note)
        column.addWidget(self.refused)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        recorded = QHBoxLayout()
        recorded.addWidget(self.recorded, 1)
        recorded.addWidget(self.open_recorded)
        outer = QVBoxLayout(self)
        outer.addLayout(top)
        outer.addWidget(scroll, 1)
        outer.addLayout(choose)
        outer.addLayout(actions)
        outer.addLayout(level)
        outer.addWidget(self.record_button)
        outer.addLayout(recorded)
        self.show_listening(None, "", None)
        self.show_game(None)

    # --- what the link is doing -------------------------------------------------------
    def show_listening(self, address: tuple[str, int] | None, token: str, warning: str | None) -> None:
        """Listening on `address` with `token` (None: not listening); `warning`: the
        address is reachable from other machines."""
        on = address is not None
        self.listen_button.setText("Stop" if on else "Listen")
        self.state.setText(f"Listening on {address[0]}:{address[1]} (UDP)" if on else "Not listening")
        self.token.setText(token if on else "")
        self.copy_button.setEnabled(on)
        self.warning.setText(warning or "")
        self.warning.setVisible(bool(on and warning))
        self.record_button.setEnabled(on)

    def show_game(self, status) -> None:
        """The linked game and the link's figures from `status` (a LinkStatus; None:
        not listening)."""
        game = status.game if status is not None else None
        if game is None:
            for label in (self.game, self.godot, self.model, self.hz, self.missing):
                label.setText(NONE)
        else:
            self.game.setText(from_game(game.game) or "(no name)")
            self.godot.setText(from_game(game.godot) or NONE)
            self.model.setText(from_game(game.model) or "(not said)")
            self.hz.setText(f"{game.hz:g} Hz")
            self.missing.setText(names_from_game(game.missing) if game.missing else "nothing")
        if status is None:
            for label in (self.rate, self.dropped, self.lost, self.rtt):
                label.setText(NONE)
            self.dropped.setToolTip("Packets dropped unread, by reason")
        else:
            self.rate.setText(f"{status.messages_per_second:.0f} /s · {status.received} received")
            self.dropped.setText(dropped_text(status.dropped))
            self.dropped.setToolTip(
                "Packets dropped unread, by reason:<br>"
                + ("<br>".join(f"{html.escape(r)}: {n}" for r, n in status.dropped.items()) or "none")
            )
            self.lost.setText(f"{status.lost_ticks} ticks")
            self.rtt.setText(NONE if status.rtt_ms is None else f"{status.rtt_ms:.1f} ms")
        self.pull_button.setEnabled(game is not None)
        self.level_button.setEnabled(game is not None)

    def show_level(self, text: str, notes=()) -> None:
        """What the last level pulled from the game holds: its walls, and (the tooltip,
        one a line) the notes on what was not read."""
        self.level.setText(text)
        tip = "<br>".join(html.escape(note) for note in notes)  # the game's node names: never markup
        self.level.setToolTip(f"<qt>{tip}</qt>" if tip else "The last level pulled from the game")

    def show_change(self, text: str) -> None:
        """That the game changed (`text` names the new one); "" hides it."""
        self.change.setText(text)
        self.change.setVisible(bool(text))

    def show_note(self, text: str, switch_to: str = "", accept: str = "") -> None:
        """What happens to slider changes; `switch_to`/`accept`: the choice buttons'
        tooltips (hidden when empty)."""
        self.note.setText(text)
        for button, tip in ((self.switch_button, switch_to), (self.accept_button, accept)):
            button.setToolTip(tip)
            button.setVisible(bool(tip))

    def show_refused(self, refused: dict[str, str], not_taken: list[str] = ()) -> None:
        """Values the game refused (name: its reason), and values pulled from the game
        that the sliders could not take."""
        lines = [f"The game refused {from_game(name)}: {from_game(why, REASON_CHARS)}" for name, why in refused.items()]
        lines += [f"Not taken from the game: {line}" for line in not_taken]
        self.refused.setText("\n".join(lines))
        self.refused.setVisible(bool(lines))

    def show_sending(self, sending: bool) -> None:
        self.send_button.setEnabled(sending)
        self.note.setStyleSheet("" if sending else f"color: {GAME}")
