"""Pull from game: the linked game's values asked for on a worker thread (the window
never waits on the network) and put into the sliders as one undo step; a name the
model lacks or a value outside its slider's range is listed, never clamped."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from ..link.game import from_game
from ..physics.models import MODELS
from ..session.tuning import LiveTuning
from .messages import Messages
from .worker import Worker

PULL_TIMEOUT_S = 2.0
"""s the game has to answer Pull from game (on a worker thread: the window goes on)."""


def take_values(tuning, values: dict) -> tuple[dict, list[str]]:
    """Those of `values` `tuning` can take (switches first: they decide what the other
    values mean), and a line for each it cannot (the name and why)."""
    trial, taken, problems = tuning.copy(), {}, []
    params = tuning.params
    for name in sorted(values, key=lambda n: not (n in params and params[n].is_bool)):
        if name not in params:
            problems.append(f"{from_game(name)}: no such parameter in this model")
            continue
        try:
            trial.set(name, values[name])
        except ValueError as exc:
            problems.append(f"{from_game(name)}: {exc}")
            continue
        taken[name] = trial[name]
    return taken, problems


class PullFromGame:
    """Pull from game for `link` (the window's LinkControl, which owns this): the values
    taken into `tuning` through `set_values(values, undo text)` (the sliders' one undo
    step); `parent` owns the worker."""

    def __init__(
        self,
        link,
        tuning: LiveTuning,
        set_values: Callable[[dict, str], None],
        messages: Messages,
        parent: QObject,
    ):
        self.link = link
        self.tuning, self.set_values, self.messages = tuning, set_values, messages
        self.pulling = False
        self.job = Worker(parent, "pull from game", below_window=False)
        self.job.finished.connect(lambda values, _: self.apply(values))
        self.job.failed.connect(self._failed)

    def pull(self) -> None:
        """Ask the game for its values (on a worker thread); they arrive in `apply`."""
        link = self.link
        w, s, game = self.messages, link.server, link.game
        if s is None or game is None:
            w.show_error("No game is linked: Listen, then run the game with the token", "Pull from game")
            return
        if game.model in MODELS and game.model != self.tuning.model.NAME:
            w.show_error(
                f"The game drives the {MODELS[game.model].TITLE} model: switch the window to it first",
                "Pull from game",
            )
            return
        self.pulling = True
        link.panel.pull_button.setEnabled(False)
        self.job.request(lambda task: s.request_values(PULL_TIMEOUT_S))

    def _failed(self, why: str) -> None:
        self.pulling = False
        self.link.panel.pull_button.setEnabled(self.link.game is not None)
        self.messages.show_error(f"Could not pull the game's values ({why})", "Pull from game")

    def apply(self, values) -> None:
        """The game's `values` into the sliders as one undo step; names the model lacks
        and values the sliders cannot take are listed, never clamped."""
        link = self.link
        w = self.messages
        self.pulling = False
        link.panel.pull_button.setEnabled(link.game is not None)
        if values is None:
            w.show_error(f"The game did not answer within {PULL_TIMEOUT_S:g} s; nothing changed", "Pull from game")
            return
        taken, problems = take_values(self.tuning, values)
        link.not_taken = problems
        link.sent.update(taken)  # the game has them: nothing to send back
        if taken:
            name = from_game(link.game.game) if link.game is not None and link.game.game else "the game"
            self.set_values(taken, f"Pull {len(taken)} values from {name}")
        link.panel.show_refused(link.refused, problems)
        text = f"Took {len(taken)} values from the game"
        if problems:
            w.show_error(
                text + f"; {len(problems)} could not be taken (nothing was clamped):\n" + "\n".join(problems),
                "Pull from game",
            )
        else:
            w.say(text + " (one undo step)", 6000)
