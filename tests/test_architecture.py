"""The model/view wall: physics and file handling run without Qt."""

import subprocess
import sys

HEADLESS = [
    "sandbox.physics.models",
    "sandbox.physics.models.arcade",
    "sandbox.physics.sim",
    "sandbox.physics.params",
    "sandbox.files.presets",
    "sandbox.files.traces",
    "sandbox.analysis.force_curves",
    "sandbox.ui.ring_buffer",
    "sandbox.cli",
]


def test_headless_modules_import_no_qt():
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in HEADLESS)
        + "qt = ('PySide6', 'pyqtgraph', 'superqt', 'shiboken6')\n"
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in qt)\n"
        "print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_simulate_runs_without_loading_qt(tmp_path):
    from sandbox.files.presets import DEFAULT_PRESET

    trace = tmp_path / "t.csv"
    trace.write_text("steer,throttle,brake\n0,1,0\n")
    code = (
        "import sys\nfrom sandbox.cli import main\n"
        f"rc = main(['simulate', '--preset', {str(DEFAULT_PRESET)!r}, '--controls', {str(trace)!r}, "
        f"'--out', {str(tmp_path / 'o.csv')!r}])\n"
        "print(rc, any(m.startswith('PySide6') for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["0", "False"]
