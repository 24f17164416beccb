"""`--track` on the window's and the screenshot's command lines: a track that cannot be
read is one line and exit 2 (the window does not open, nothing is written); the
screenshot draws the track under the car."""

import os
import subprocess
import sys

import numpy as np
from PySide6.QtGui import QColor, QImage

from sandbox.ui.track_painter import WALL


def cli(*args, cwd=None):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )


def test_the_window_refuses_a_track_it_cannot_read_before_it_opens(tmp_path):
    result = cli("--track", "club_circiut")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "club_circiut" in result.stderr and "club_circuit" in result.stderr  # the close built-in names
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    result = cli("--track", broken)
    assert result.returncode == 2 and "not JSON" in result.stderr and "Traceback" not in result.stderr


def wall_pixels(path) -> int:
    """How many pixels of the picture are of the walls' colour."""
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    picture = rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)
    return int((np.abs(picture - np.array(QColor(WALL).getRgb()[:3])).max(axis=2) <= 8).sum())


def test_a_screenshot_on_a_track_shows_its_walls(tmp_path):
    shots = {}
    for track in ("parking_lot", None):
        out = shots[track] = tmp_path / f"{track}.png"
        given = ["--track", track, "--zoom-to-track"] if track else ["--zoom", "0.15"]
        result = cli("screenshot", "--preset", "recipe_defaults", *given, "--drive", "1", "--size", "1000x700",
                     "--out", out)  # fmt: skip
        assert result.returncode == 0, result.stderr
    # the lot's walls: a few hundred px more of their colour than the window has without them
    assert wall_pixels(shots["parking_lot"]) > wall_pixels(shots[None]) + 200


def test_zoom_to_track_without_a_track_is_refused(tmp_path):
    result = cli("screenshot", "--preset", "drift", "--zoom-to-track", "--out", tmp_path / "x.png")
    assert result.returncode == 2 and "--zoom-to-track needs --track" in result.stderr
    assert not (tmp_path / "x.png").exists()
