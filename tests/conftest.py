"""Test set-up: Qt offscreen, and user data and settings in a temporary folder."""

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"
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


@pytest.fixture
def window(qtbot):
    """The real window, shown offscreen, remembering nothing between tests."""
    from sandbox.ui.app import MainWindow

    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.curves.settle()  # the force curve is computed on a worker thread
    return w
