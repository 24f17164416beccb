"""Scripts Godot itself would not read as the sandbox does: refused with the line named,
by the import (command and window) and by writing into a script alike."""

import subprocess
import sys

import pytest

from sandbox.files.godot import GodotError, export_script
from sandbox.files.godot_import import parse_script
from sandbox.files.godot_into import update_text
from sandbox.files.presets import BUILTIN_DIR, FORMAT, load_preset

DRIFT = load_preset(BUILTIN_DIR / "drift.json")
SCRIPT = export_script(DRIFT, 4)
WHEEL_BASE = f"var wheel_base: float = {float(DRIFT.tuning['wheel_base'])!r}"


def line_of(text: str, part: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), start=1) if part in line)


def refused_both_ways(text: str, *expected: str) -> None:
    for read in (lambda: parse_script(text, None, "car.gd"), lambda: update_text(text, DRIFT, "car.gd")):
        with pytest.raises(GodotError) as refusal:
            read()
        for part in expected:
            assert part in str(refusal.value)


@pytest.mark.parametrize("digits", ["٧٠", "۷۰", "７０", "7_٠"])
def test_digits_godot_does_not_read_are_refused_naming_the_line(digits):
    """Arabic-Indic, Eastern Arabic-Indic and fullwidth digits: Python's float() reads
    them, Godot's parser does not (its digits are 0-9)."""
    assert WHEEL_BASE in SCRIPT
    text = SCRIPT.replace(WHEEL_BASE, f"var wheel_base: float = {digits}")
    refused_both_ways(text, f"line {line_of(SCRIPT, WHEEL_BASE)}: wheel_base = {digits}", "only 0-9")


def test_two_model_lines_are_refused_naming_both():
    text = SCRIPT.replace("const SANDBOX_FORMAT", 'const SANDBOX_MODEL = "monster"\nconst SANDBOX_FORMAT')
    first = line_of(text, 'SANDBOX_MODEL: String = "arcade"')
    refused_both_ways(text, f"lines {first} and {first + 1}: SANDBOX_MODEL is declared twice")
    same = SCRIPT.replace("const SANDBOX_FORMAT", 'const SANDBOX_MODEL = "arcade"\nconst SANDBOX_FORMAT')
    refused_both_ways(same, "declared twice")  # even when both name one model: which line is the script's?


@pytest.mark.parametrize("number", ["9" * 5000, "٤"])
def test_a_format_number_too_long_or_not_in_0_9_is_refused_naming_the_line(number):
    text = SCRIPT.replace(f"SANDBOX_FORMAT: int = {FORMAT}", f"SANDBOX_FORMAT: int = {number}")
    with pytest.raises(GodotError, match=f"line {line_of(SCRIPT, 'SANDBOX_FORMAT')}: SANDBOX_FORMAT"):
        parse_script(text, None, "car.gd")


def test_the_command_and_the_window_say_why_a_huge_format_number_is_refused(tmp_path, window):
    script = tmp_path / "car.gd"
    script.write_text(SCRIPT.replace(f"SANDBOX_FORMAT: int = {FORMAT}", "SANDBOX_FORMAT: int = " + "9" * 5000))
    result = subprocess.run(
        [sys.executable, "-m", "sandbox", "import-godot", str(script), "--out", str(tmp_path / "p.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "SANDBOX_FORMAT" in result.stderr
    assert not (tmp_path / "p.json").exists()
    before = dict(window.tuning)
    assert not window.import_godot(script)
    assert dict(window.tuning) == before and "SANDBOX_FORMAT" in window.last_error


@pytest.mark.parametrize(
    "godot, hint, nested",
    [
        (4, '@export_range(10, 300, 1, "suffix:px")', '@export_range(10, max(300, (1)), [1][0], "suffix:px")'),
        (4, '@export_range(10, 300, 1, "suffix:px")', '@export_range(10, ((300)),\n\t{"a": [1]}["a"][0])'),
        (3, "export(float, 10, 300, 1)", "export(float, 10, (300), [1][0])"),
    ],
)
def test_nested_brackets_in_an_export_hint_are_read_as_one_hint(godot, hint, nested):
    """Kept as found: this base already read them (no variable was reported missing)."""
    script = export_script(DRIFT, godot)
    assert hint in script
    result = parse_script(script.replace(hint, nested), None, "car.gd")
    assert result.values["wheel_base"] == DRIFT.tuning["wheel_base"]
