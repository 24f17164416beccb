"""The live link in the window: listening for the running Godot game (the link's own
end is sandbox/link), polled from a timer at the frame rate (never waiting on the
network); each change of a tuning value sent to the game as it happens; the game's
car drawn and plotted from its newest telemetry; Pull from game as one undo step;
recording the game's drive. The Link panel (link_panel.py) shows it all, and says when
another game (or the game restarted) took the link; its address and port are in
link_settings.py, Pull from game in link_pull.py, recording the drive in
link_recording.py. Every text of the game's is shown through link.game.from_game."""

from __future__ import annotations

import math
import time
from collections import deque
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QStatusBar

from ..errors import UserError
from ..link.game import change_text, from_game
from ..link.server import LinkServer
from ..physics.models import MODELS
from ..session.drive import DriveSession
from ..session.tuning import LiveTuning, TuningChange
from .game_car import STALE_S, game_body, game_car
from .link_level import PullLevel
from .link_panel import LinkPanel
from .link_pull import PullFromGame
from .link_recording import GameDriveRecording
from .link_settings import LinkSettings
from .messages import Messages

POLL_MS = 16
"""ms between looks at what the game sent (the frame rate of a 60 Hz screen)."""
STATUS_S = 0.25
"""s between updates of the panel's figures (text laid out four times a second is
as fast as anyone reads it)."""


def game_key(game) -> tuple:
    """What tells one linked game from another (a new hello after a restart is a new game)."""
    return (game.game, game.godot, game.model, game.hz, game.units, game.address, game.number)


class LinkHost(Protocol):
    """What the link uses of the window that owns it (a QWidget: the link's timer,
    worker and dialogs are its children). The link needs many of its parts, so they
    are named here rather than handed over one by one."""

    link_panel: LinkPanel
    panel: object  # the TuningPanel: `set_values(values, undo text)` (Pull from game)
    tuning: LiveTuning  # followed: each change goes to the game; Pull from game sets it
    drive: DriveSession  # its px_per_metre scales the game's car
    track: object  # the TrackView: `game` (the game's car drawn) and `update()`
    plots: object  # the live plots: `set_game(name, speed, slip)`
    menus: object  # `refresh()`: the Link menu's checks and enabled items
    files: object  # FileActions' `ask_to_replace` and `ask_to_save` (the game's drive)
    recordings: object  # RecordingControl's `open_file` (Open a saved drive)
    memory: object  # SessionMemory's `setting` (address and port kept between runs)
    remember: bool  # whether settings are kept between runs
    controllers: object  # PadControl's `project` and `read_project` (the game's dead zones)

    def show_error(self, message: str, title: str = ...) -> None: ...
    def statusBar(self) -> QStatusBar: ...
    def switch_model(self, name: str) -> bool: ...


class LinkControl(GameDriveRecording):
    """The link of `window` (the LinkHost, which owns this) and its Link panel; recording
    the game's drive is GameDriveRecording's (link_recording.py)."""

    def __init__(self, window: LinkHost):
        self.window = w = window
        self.panel = p = w.link_panel
        self.server: LinkServer | None = None
        self.game = None  # the linked game's GameInfo
        self.last_game = None  # the game linked last (kept after its bye: the next one is said to replace it)
        self.sent: dict = {}  # the values the game has (or was sent) as far as the window knows
        self.accepted: tuple | None = None  # (game key, model name) the user chose to send to despite the models
        self.last_seq = 0  # the seq the newest values sent go out under
        self.recording = False
        self.saved: Path | None = None  # the game's drive last saved
        self.ended_said = False  # the recording's end at a new hello is shown
        self.not_taken: list[str] = []  # the last pull's values the sliders could not take
        self.refused: dict[str, str] = {}  # name -> the game's reason, until a later value of it is applied
        self._acks: deque = deque(maxlen=256)  # acks handed over by the link's thread, taken in `poll`
        self.car = None  # the game's car (GameCar) as last drawn
        self._body = (None, None)  # (what it was made for, the game car's body in the view's units)
        self._status_at = -math.inf
        self.timer = QTimer(w)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        self.settings = LinkSettings(w)  # the address and port, kept between runs
        self.puller = PullFromGame(
            self, w.tuning, lambda values, text: w.panel.set_values(values, text), Messages.of(w), w
        )
        self.level_puller = PullLevel(self, Messages.of(w), w)
        p.listen_button.clicked.connect(self.toggle)
        p.copy_button.clicked.connect(self.copy_token)
        p.pull_button.clicked.connect(self.pull)
        p.level_button.clicked.connect(self.pull_level)
        p.send_button.clicked.connect(self.send_all)
        p.record_button.clicked.connect(lambda on: self.set_recording(on))
        p.open_recorded.clicked.connect(self.open_saved)
        p.switch_button.clicked.connect(self.switch_to_game_model)
        p.accept_button.clicked.connect(self.accept_game)
        w.tuning.changed.connect(self.tuning_changed)

    # --- listen and stop -------------------------------------------------------------------
    @property
    def listening(self) -> bool:
        return self.server is not None

    def toggle(self) -> None:
        if self.listening:
            self.stop()
        else:
            self.listen()

    def listen(self) -> bool:
        """Listen on the panel's address and port; a port that cannot be bound is a
        message, and nothing else changes."""
        w = self.window
        if self.server is not None:
            return True
        self.settings.address_changed()
        server = LinkServer(port=self.panel.port.value(), host=self.settings.address)
        try:
            server.start()
        except UserError as exc:
            w.show_error(str(exc), "Link")
            self._show_listening()
            return False
        server.on_ack = self._acks.append  # on the link's thread: a deque's append is safe there
        self.server = server
        self.game, self.accepted, self.not_taken, self.refused = None, None, [], {}
        self.last_game = None
        self.panel.show_change("")
        self._acks.clear()
        self._status_at = -math.inf
        self.timer.start()
        self._show_listening()
        self.poll()
        host, port = server.status().address
        w.statusBar().showMessage(f"Listening for the game on {host}:{port}, token {server.token}", 8000)
        return True

    def stop(self) -> None:
        """Stop listening: the socket is closed (a recording under way is saved first, if wanted)."""
        if self.server is None:
            return
        if not self.keep_or_drop_recording("Stopping the link"):
            return
        said = "Stopped listening for the game"
        self.server.stop()
        self.server = None
        self.timer.stop()
        self.game = None
        self._forget_car()
        self._show_listening()
        self.panel.show_game(None)
        self.panel.show_change("")
        self.panel.show_refused({})
        self._show_note()
        self.window.statusBar().showMessage(said, 6000)

    def close(self) -> None:
        """The window closes: stop at once, asking nothing."""
        self.timer.stop()
        if self.server is not None:
            self.server.stop()
            self.server = None

    def copy_token(self) -> None:
        if self.server is not None:
            QApplication.clipboard().setText(self.server.token)
            self.window.statusBar().showMessage("Token copied: paste it into the link node's token property", 4000)

    def _show_listening(self) -> None:
        s = self.server
        if s is None:
            self.panel.show_listening(None, "", None)
        else:
            self.panel.show_listening(s.status().address, s.token, s.warning)
        self.panel.record_button.setChecked(self.recording)
        self.window.menus.refresh()

    # --- what arrives -------------------------------------------------------------------
    def poll(self) -> None:
        """Take what the game sent since the last look (never waits): the game's car
        from the newest telemetry; the panel's figures a few times a second."""
        s = self.server
        if s is None:
            return
        telemetry = s.take()
        self._take_acks()
        now = time.perf_counter()
        if now - self._status_at >= STATUS_S or (telemetry and self.game is None):
            self._status_at = now
            self._show_status(s.status())
        newest = telemetry[-1] if telemetry else s.latest()
        if newest is None or now - newest.received > STALE_S or self.game is None:
            self._forget_car()
            return
        if not telemetry:
            return
        w = self.window
        unit = w.tuning.model.LENGTH_UNIT
        per_unit = {"px": 1.0, "m": w.drive.px_per_metre}  # screen px per unit at zoom 1
        scale = per_unit.get(self.game.units, per_unit[unit]) / per_unit[unit]
        name = from_game(self.game.game) or "game"
        self.car = game_car(newest, scale, self._game_body(scale), unit, name)
        w.track.game = self.car
        w.plots.set_game(name, self.car.speed, self.car.slip_deg)
        w.track.update()

    def _game_body(self, scale: float) -> dict:
        w = self.window
        key = (game_key(self.game), w.tuning.model.NAME, dict(w.tuning), scale)
        if self._body[0] != key:
            self._body = (key, game_body(self.game.model, self.game.params, w.tuning.model, w.tuning, scale))
        return self._body[1]

    def _forget_car(self) -> None:
        w = self.window
        if self.car is not None or w.track.game is not None:
            self.car = None
            w.track.game = None
            w.track.update()
        w.plots.set_game("")

    def _show_status(self, status) -> None:
        game = status.game
        if (game is None) != (self.game is None) or (game is not None and game_key(game) != game_key(self.game)):
            self.game = game
            self.sent = dict(self.window.tuning)  # what changes from now on is sent
            self._show_note()
            self.window.menus.refresh()
            if game is not None:
                self._say_linked(game)
        self.show_recording_end(status)
        self.panel.show_game(status)
        self.panel.show_refused(self.refused, self.not_taken)

    def _say_linked(self, game) -> None:
        """The status bar says which game is linked; the panel, when it took another's
        place (or the game restarted), until the link stops."""
        text = change_text(self.last_game, game)
        self.last_game = game
        if game.number > 1:
            self.panel.show_change(f"{time.strftime('%H:%M:%S')} {text}")
        self.window.statusBar().showMessage(text, 8000)
        self._game_dead_zones(game, text)

    def _game_dead_zones(self, game, said: str) -> None:
        """The game controllers take the dead zones of the game's project.godot when its
        hello says where the project is and the window has none chosen. A folder that is not
        on this computer (the game runs on another) or holds no project.godot: nothing is read."""
        controllers = self.window.controllers
        if not game.project or controllers.project:
            return
        file = Path(game.project) / "project.godot"
        try:
            here = file.is_file()
        except (OSError, ValueError):  # a name this system cannot hold (a NUL, too long)
            here = False
        if here:
            controllers.read_project(file, before=f"{said}. ")

    def _take_acks(self) -> None:
        """The game's acks since the last look: a refused value is listed until a later
        value of the same name is applied."""
        changed = False
        while self._acks:
            ack = self._acks.popleft()
            for name in ack.get("applied", {}):
                changed |= self.refused.pop(name, None) is not None
            for name, reason in ack.get("refused", {}).items():
                self.refused[name] = str(reason)
                changed = True
        if changed:
            self.panel.show_refused(self.refused, self.not_taken)

    # --- the model ----------------------------------------------------------------------
    @property
    def sending(self) -> bool:
        """Whether tuning changes go to the game: it drives the window's model, or the
        user chose to send to it anyway."""
        g, name = self.game, self.window.tuning.model.NAME
        return g is not None and (g.model == name or self.accepted == (game_key(g), name))

    def _show_note(self) -> None:
        w, g, p = self.window, self.game, self.panel
        title = w.tuning.model.TITLE
        if self.server is None:
            p.show_note("Not listening.")
        elif g is None:
            p.show_note("Waiting for the game: paste the token into the link node's token property and run the game.")
        elif self.sending:
            p.show_note("Linked: every change of a value is sent to the game as you make it.")
        elif not g.model:
            p.show_note(
                "The game's car script does not say which model it is: nothing is sent until you choose.",
                accept=f"Send the {title}'s values to the game (its script does not say its model)",
            )
        elif g.model in MODELS:
            p.show_note(
                f"The game drives the {MODELS[g.model].TITLE} model, this window the {title}: "
                "nothing is sent until you choose.",
                switch_to=f"Switch the window to the {MODELS[g.model].TITLE} (asks first about an unsaved tuning)",
                accept=f"Send the {title}'s values to a game of the {MODELS[g.model].TITLE}",
            )
        else:
            p.show_note(
                f"The game names a model the sandbox does not know (“{from_game(g.model, 40)}”): "
                "nothing is sent until you choose.",
                accept=f"Send the {title}'s values to the game",
            )
        p.show_sending(self.sending)
        w.menus.refresh()

    def switch_to_game_model(self) -> None:
        if self.game is not None and self.game.model in MODELS:
            self.window.switch_model(self.game.model)

    def accept_game(self) -> None:
        """Send to the game although its model is not the window's (the user chose)."""
        if self.game is not None:
            self.accepted = (game_key(self.game), self.window.tuning.model.NAME)
            self.sent = dict(self.window.tuning)
            self._show_note()

    # --- sending ------------------------------------------------------------------------
    def _mapped(self, values: dict) -> dict:
        """Those of `values` the game's link node maps to its script (all when it names none)."""
        g = self.game
        if not g.params:
            return dict(values)
        return {k: v for k, v in values.items() if k in g.params and k not in g.missing}

    def tuning_changed(self, change: TuningChange) -> None:
        """A tuning value changed (a slider, a typed value, undo or redo, a preset): the
        changed values go to the game now (the link sends at most one message a tick
        of the game, the newest values). After a model switch nothing is sent: the new
        model's values are what changes are counted from."""
        w = self.window
        if self.server is None or self.game is None:
            return
        if change.model or self.sent.keys() != w.tuning.keys():  # another model: start counting afresh
            self.sent = dict(w.tuning)
            self._show_note()
            return
        if not self.sending:
            return
        changed = self._mapped({k: v for k, v in w.tuning.items() if self.sent.get(k) != v})
        if changed:
            self.last_seq = self.server.send_set(changed)
            self.sent.update(changed)

    def send_all(self) -> None:
        """Every value of the tuning to the game now."""
        if self.server is not None and self.sending:
            values = self._mapped(dict(self.window.tuning))
            self.last_seq = self.server.send_set(values)
            self.sent.update(values)
            self.window.statusBar().showMessage(f"Sent {len(values)} values to the game", 4000)

    # --- pull from game (link_pull.py) -------------------------------------------------
    def pull(self) -> None:
        self.puller.pull()

    @property
    def pulling(self) -> bool:
        """A pull from the game is under way."""
        return self.puller.pulling

    def pull_level(self) -> None:
        """The game's level as the window's track (link_level.py)."""
        self.level_puller.pull()
