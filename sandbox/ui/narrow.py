"""Buttons that fit a narrow side panel (about 300 px at 1024×640)."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

TEXT_PADDING = 16
"""px beside a button's text: the style's frame and margins."""


def fit_to_text(button: QPushButton) -> QPushButton:
    """Let a layout narrow `button` to its text when the panel is narrow: the style
    asks 80 px of every push button, so four in a row would be wider than the panel."""
    text = button.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    button.setMinimumWidth(button.fontMetrics().horizontalAdvance(text) + TEXT_PADDING)
    return button
