"""Test set-up: Qt offscreen, and user data and settings in a temporary folder."""

import os
import signal
import threading
from pathlib import Path

# offscreen, on a 1920×1080 screen (the plugin's own is 800×800, smaller than the
# window opens on a desktop); tests of small screens make their own
SCREEN = Path(__file__).parent / "data" / "offscreen_screen.json"
os.environ["QT_QPA_PLATFORM"] = "offscreen" if ":" in str(SCREEN) else f"offscreen:configfile={SCREEN}"
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def private_user_data(tmp_path, monkeypatch):
    """Each test gets its own user preset folder and QSettings file."""
    home = tmp_path / "home"
    monkeypatch.setenv("CAR_SANDBOX_HOME", str(home))
    try:
        from PySide6.QtCore import QSettings
    except ImportError:  # pragma: no cover
        yield home
        return
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    yield home


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_teardown(item):
    """After pytest-qt has closed a test's widgets and called their deleteLater, delete
    them now. Offscreen, no test runs an event loop that would (qtbot.waitExposed returns
    at once, processEvents never runs a deferred delete posted outside a loop): a closed
    window lived on for many later tests, hidden, its timers still firing (its autosave
    wrote its session into a later test's settings), and every window of a file was
    destroyed together whenever something first flushed the deferred deletes."""
    yield
    from PySide6.QtCore import QCoreApplication, QEvent

    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def window(qtbot):
    """The real window, shown offscreen, remembering nothing between tests."""
    from sandbox.ui.app import MainWindow

    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    with qtbot.waitExposed(w):
        w.show()
    w.curves.settle()  # the force curve is computed on a worker thread
    return w


QUESTION_WAIT_S = 30.0
"""s a message box may stay open in a test before it counts as unanswered."""


@pytest.fixture
def small(window):
    """The window at 1024×640, the smallest screen it is made for, its docks laid out anew."""
    from PySide6.QtWidgets import QApplication

    window.resize(1024, 640)
    QApplication.processEvents()
    window.panels.reset_layout()
    QApplication.processEvents()
    return window


@pytest.fixture
def link_token():
    """The token the `server` fixture's link listens with (a test file may name its own)."""
    return "5eed0123abcdef45"


@pytest.fixture
def server(link_token):
    """A link server on 127.0.0.1 at a free port, stopped after the test, leaving
    nothing listening and no link thread behind."""
    from sandbox.link.server import LinkServer

    link = LinkServer(port=0, token=link_token)
    link.start()
    yield link
    link.stop()
    assert not link.status().listening
    assert not any(t.name == "link" and t.is_alive() for t in threading.enumerate())


@pytest.fixture
def peer(server, link_token):
    """A game's side of the link (link_peer.Peer) talking to `server`."""
    from link_peer import Peer

    game = Peer(server.port, link_token)
    yield game
    game.close()


@pytest.fixture(autouse=True)
def no_unanswered_questions(request):
    """A question no test answers would hang the suite (its exec waits forever): after
    QUESTION_WAIT_S it is cancelled and the test fails, naming the question."""
    if "qtbot" not in request.fixturenames and "window" not in request.fixturenames:
        yield
        return
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    request.getfixturevalue("qtbot")  # the QApplication exists from here on
    seen: dict = {}
    unanswered: list[str] = []

    def look() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.icon() != QMessageBox.Icon.Question:
            seen.clear()  # a notice left open does no harm; a question waits for its answer
            return
        seen[id(box)] = seen.get(id(box), 0) + 1
        if seen[id(box)] * 0.2 >= QUESTION_WAIT_S:
            unanswered.append(box.text())
            box.reject()

    timer = QTimer()
    timer.timeout.connect(look)
    timer.start(200)
    yield
    timer.stop()
    if unanswered:
        pytest.fail(f"a message box nobody answered: {unanswered[0]!r}")


ENGINE_REASON = "godot3-server is not installed"
"""The skip reason of every test that drives the real Godot 3 engine."""


def pytest_configure(config):
    """The tests press Ctrl+C (SIGINT) on the commands they start, as a terminal does to the
    command it runs. A suite started in the background of a script (`pytest … &`) has
    SIGINT ignored, and every command it starts inherits that and would never stop: the
    suite takes SIGINT back (a handled signal is not inherited), so its commands start
    as from a terminal."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items):
    """Mark the tests that drive the Godot 3 engine, so the summary can count them."""
    for item in items:
        if any(mark.kwargs.get("reason") == ENGINE_REASON for mark in item.iter_markers("skipif")):
            item.user_properties.append(("engine", True))


def pytest_terminal_summary(terminalreporter):
    """One line saying how many engine tests ran: CI installs Godot 3, so none may skip there."""
    counts = {}
    for outcome in ("passed", "failed", "error", "skipped"):
        counts[outcome] = sum(
            1
            for report in terminalreporter.stats.get(outcome, [])
            if ("engine", True) in getattr(report, "user_properties", ())
        )
    total = sum(counts.values())
    if total:
        ran = counts["passed"] + counts["failed"] + counts["error"]
        skipped = f", {counts['skipped']} skipped: {ENGINE_REASON}" if counts["skipped"] else ""
        terminalreporter.write_line(
            f"Godot 3 engine tests: {ran} of {total} ran in the engine ({counts['passed']} "
            f"passed, {counts['failed'] + counts['error']} failed{skipped})"
        )
