"""The hello's optional `project` (where the game's project is, its res:// on the computer it
runs on): kept when it is text, refused naming the field when it is not, and a hello without
it (a link node made before it was sent) still taken. In the window, offscreen, a game whose
hello names a project on this computer gives the game controllers that project's dead zones
when no project was chosen, and the status bar says so; a chosen project stays, and a folder
not on this computer is passed by. The fake game speaks the protocol over 127.0.0.1
(link_peer.Peer)."""

from pathlib import Path

import pytest

from link_peer import Peer
from sandbox.link.game import GameInfo
from sandbox.link.protocol import ProtocolError, decode, encode

TOKEN = "5eed0123abcdef45"
DATA = Path(__file__).parent / "data" / "godot_input"
HELLO = {"type": "hello", "token": TOKEN, "game": "Kart", "godot": "3.5.3", "model": "arcade", "format": 3}
HELLO.update(hz=60, units="px", params={}, missing=[], switches={})
WAIT_MS = 60_000


def test_the_project_is_kept_and_a_hello_without_it_is_still_taken():
    given = decode(encode({**HELLO, "project": "/home/me/kart/"}), TOKEN)
    assert GameInfo.of(given, ("127.0.0.1", 5)).project == "/home/me/kart/"
    for older in (HELLO, {**HELLO, "project": None}):
        assert GameInfo.of(decode(encode(older), TOKEN), ("127.0.0.1", 5)).project == ""
    with pytest.raises(ProtocolError, match=r"hello\.project is not text"):
        decode(encode({**HELLO, "project": 12}), TOKEN)


@pytest.fixture
def listening(window):
    window.link_panel.port.setValue(0)  # any free port
    assert window.link.listen()
    peer = Peer(window.link.server.port, window.link.server.token)
    yield window, peer
    peer.close()


def a_game(folder: Path, version: str) -> Path:
    """`folder` made a game's project: its project.godot as Godot `version` writes it."""
    folder.mkdir(parents=True)
    (folder / "project.godot").write_text((DATA / version / "project.godot").read_text("utf-8"), "utf-8")
    return folder


def test_a_game_naming_its_project_gives_the_controllers_its_dead_zones(listening, qtbot, tmp_path):
    window, peer = listening
    assert window.controllers.project == ""
    folder = a_game(tmp_path / "kart", "godot4")
    peer.hello(project=str(folder) + "/")  # as Godot's globalize_path("res://") writes it
    qtbot.waitUntil(lambda: window.controllers.project != "", timeout=WAIT_MS)
    assert Path(window.controllers.project) == folder / "project.godot"
    zones = window.controllers.dead_zones
    assert (zones.of("accelerate"), zones.of("steer_right"), zones.of("brake")) == (0.05, 0.2, 0.5)
    message = window.statusBar().currentMessage()
    assert message.startswith("Linked with “Test Game”") and "Controller dead zones from" in message


def test_an_older_game_without_a_project_links_and_changes_no_dead_zones(listening, qtbot):
    window, peer = listening
    before = window.controllers.dead_zones
    peer.hello()
    qtbot.waitUntil(lambda: window.link.game is not None, timeout=WAIT_MS)
    assert window.link.game.project == "" and window.controllers.dead_zones is before


def test_a_chosen_project_stays_and_a_folder_not_here_is_passed_by(listening, qtbot, tmp_path):
    window, peer = listening
    chosen = a_game(tmp_path / "mine", "godot3")
    assert window.controllers.read_project(chosen / "project.godot")
    peer.hello(project=str(a_game(tmp_path / "kart", "godot4")))
    qtbot.waitUntil(lambda: window.link.game is not None, timeout=WAIT_MS)
    assert Path(window.controllers.project) == chosen / "project.godot"
    assert window.controllers.dead_zones.of("steer_right") == 0.35  # the chosen project's
    window.controllers.set_engine("3")  # no project chosen now
    peer.hello(game="Other", project=str(tmp_path / "not here\x00"))
    qtbot.waitUntil(lambda: window.link.game.game == "Other", timeout=WAIT_MS)
    assert window.controllers.project == "" and window.statusBar().currentMessage().startswith("The game")
