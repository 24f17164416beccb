"""Answering the window's questions in tests, as a user would click."""

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox


def answer(button: QMessageBox.StandardButton, asked: list, tries: int = 250) -> None:
    """Press `button` in the question box the window opens within `tries` × 20 ms
    (noting its text); after that stop looking, so no later test's box is pressed."""

    def press(left: int) -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            asked.append(box.text())
            box.button(button).click()
        elif left:
            QTimer.singleShot(20, lambda: press(left - 1))

    QTimer.singleShot(0, lambda: press(tries))
