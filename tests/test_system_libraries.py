"""The window names the system libraries Qt's X11 support lacks (Qt itself aborts,
blaming xcb-cursor0 whatever is missing)."""

from sandbox.ui import system_libraries
from sandbox.ui.system_libraries import debian_package, missing_from, missing_x11_libraries

# ldd's report format: "name => path (address)", or "name => not found"
LDD_ON_A_BARE_DEBIAN = """\
\tlinux-vdso.so.1 (0x00007ffd2c5f2000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f2a3c000000)
\tlibxkbcommon-x11.so.0 => not found
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f2a3bf00000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibglib-2.0.so.0 => not found
"""


def test_the_libraries_ldd_cannot_find_are_named_once_in_order():
    assert missing_from(LDD_ON_A_BARE_DEBIAN) == [
        "libxkbcommon-x11.so.0",
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
        "libglib-2.0.so.0",
    ]


def test_debian_package_names_follow_the_library_names():
    # the packages a bare Debian needed for the window (measured there)
    assert debian_package("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert debian_package("libxcb-keysyms.so.1") == "libxcb-keysyms1"
    assert debian_package("libxcb-render-util.so.0") == "libxcb-render-util0"
    # Debian's rule: a hyphen before the version when the name ends in a digit
    assert debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert debian_package("libX11-xcb.so.1") == "libx11-xcb1"
    assert debian_package("libglib-2.0.so.0") == "libglib2.0-0"


def test_the_message_names_each_missing_library_and_one_install_line(monkeypatch, tmp_path):
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    monkeypatch.setattr(system_libraries, "_x11_plugin", lambda: plugin)
    monkeypatch.setattr(
        system_libraries.subprocess, "run", lambda *a, **k: type("Done", (), {"stdout": LDD_ON_A_BARE_DEBIAN})()
    )
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    message = missing_x11_libraries()
    assert "libxcb-icccm.so.4" in message and "libxcb-keysyms.so.1" in message
    assert message.endswith("sudo apt-get install -y libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libglib2.0-0")


def test_nothing_is_missing_here_and_offscreen_is_not_checked(monkeypatch):
    assert missing_x11_libraries() == ""  # the tests run offscreen: no X11 plugin to check
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    assert missing_x11_libraries() == ""  # this machine has the libraries (the X11 tests use them)
