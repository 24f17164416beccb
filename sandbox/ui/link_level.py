"""Pull level from game: the linked game's static collision shapes asked for on a worker
thread (the window never waits on the network), made a track (link/level_track.py) there
too, and shown as the window's track "from the game" (the Track menu's current track;
Track → Save track as… writes it as a track file). Anything wrong (no game, an older
link node, no answer, bad data) is one message, and the current track stays."""

from __future__ import annotations

from PySide6.QtCore import QObject

from ..errors import UserError
from ..link.level_track import level_of_game
from .messages import Messages
from .worker import Worker

TITLE = "Pull level from game"


def _pull(server):
    """(the game's level as a track, None), or (None, why not): on the worker's thread."""
    try:
        return level_of_game(server.request_level()), None
    except UserError as exc:
        return None, str(exc)


class PullLevel:
    """Pull level from game for `link` (the window's LinkControl, which owns this): the
    track goes to `link.window.world` (the window's WorldTracks); `parent` owns the worker."""

    def __init__(self, link, messages: Messages, parent: QObject):
        self.link, self.messages = link, messages
        self.pulling = False
        self.job = Worker(parent, "pull level from game", below_window=False)
        self.job.finished.connect(lambda result, _: self._done(*result))
        self.job.failed.connect(lambda why: self._done(None, f"Could not pull the game's level ({why})"))

    def pull(self) -> None:
        """Ask the game for its level (on a worker thread); it arrives in `_done`."""
        server, game = self.link.server, self.link.game
        if server is None or game is None:
            self.messages.show_error("No game is linked: Listen, then run the game with the token", TITLE)
            return
        self.pulling = True
        self.link.panel.level_button.setEnabled(False)
        self.messages.say("Asking the game for its level…", 4000)
        self.job.request(lambda task: _pull(server))

    def _done(self, track, why: str | None) -> None:
        self.pulling = False
        self.link.panel.level_button.setEnabled(self.link.game is not None)
        if track is None:
            self.messages.show_error(f"{why}. The track is unchanged.", TITLE)
            return
        self.link.window.world.show_game_level(track)
