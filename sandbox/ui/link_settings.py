"""The Link panel's address and port: kept between runs (QSettings), a text that is
no IP address refused, and an address other machines can reach asked about first."""

from __future__ import annotations

import ipaddress

from PySide6.QtWidgets import QMessageBox

from ..link.protocol import DEFAULT_PORT
from .link_panel import DEFAULT_ADDRESS
from .window_memory import settings


def is_loopback(address: str) -> bool:
    """Whether `address` reaches this computer only; ValueError if it is no address."""
    if address.strip().lower() == "localhost":
        return True
    return ipaddress.ip_address(address.strip()).is_loopback


class LinkSettings:
    """The address (`address`, as last agreed) and port of `window`'s Link panel."""

    def __init__(self, window):
        self.window = w = window
        panel = w.link_panel
        port, address = DEFAULT_PORT, DEFAULT_ADDRESS
        if w.remember:
            port = w.memory.setting("link/port", DEFAULT_PORT, low=0, high=65535)
            address = w.memory.setting("link/address", DEFAULT_ADDRESS, check=is_loopback)
        panel.port.setValue(port)
        panel.address.setText(address)
        self.address = address
        panel.port.valueChanged.connect(self._port_changed)
        panel.address.editingFinished.connect(self.address_changed)

    def _port_changed(self, port: int) -> None:
        if self.window.remember:
            settings().setValue("link/port", port)

    def address_changed(self) -> None:
        """A new address to listen on: refused if it is no address; asked about if the
        game link would become reachable from other machines."""
        w = self.window
        box, text = w.link_panel.address, w.link_panel.address.text().strip()
        if text == self.address:
            return
        try:
            loopback = is_loopback(text)
        except ValueError:
            w.show_error(f"“{text[:60]}” is not an IP address; the link keeps listening on {self.address}")
            box.setText(self.address)
            return
        if not loopback:
            answer = QMessageBox.question(
                w,
                "Listen on another address",
                f"Listening on {text} makes the game link reachable from other machines on your network: "
                "anyone who has the token can then change your game's values.\nListen there?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                box.setText(self.address)
                return
        self.address = text
        if w.remember:
            settings().setValue("link/address", text)
