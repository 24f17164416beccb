"""The window's size and place on the screen it opens on: never larger than the
screen's free area (without the taskbar or dock), and inside it."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication

PREFERRED_SIZE = QSize(1400, 860)
"""The window's size where the screen has room for it, in px."""
TITLE_BAR_PX = 32
"""Left free under the window for its title bar, which the window's size leaves out."""


def available_area(widget) -> QRect:
    """The free area of the screen `widget` is on (the primary screen before it shows)."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fitted_size(wanted: QSize, area: QRect) -> QSize:
    """`wanted` made no larger than `area`, the title bar left room."""
    return wanted.boundedTo(QSize(area.width(), max(1, area.height() - TITLE_BAR_PX)))


def fit_to_screen(window, wanted: QSize | None = None) -> None:
    """Size `window` to `wanted` (else its own size, as a saved geometry left it),
    no larger than its screen's free area, and move it inside that area."""
    area = available_area(window)
    size = fitted_size(wanted or window.size(), area)
    if size != window.size():
        window.resize(size)
    left = min(max(window.x(), area.left()), area.left() + area.width() - window.width())
    top = min(max(window.y(), area.top()), area.top() + area.height() - TITLE_BAR_PX - window.height())
    if (left, top) != (window.x(), window.y()):
        window.move(max(left, area.left()), max(top, area.top()))
