"""The layers (import-linter's contracts in pyproject.toml) and the style (ruff's
configuration there) hold on the whole tree: a broken contract or a lint or format
finding fails here with the tool's own report."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*command):
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_every_import_contract_is_kept():
    result = _run(str(BIN / "lint-imports"), "--no-cache")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


@pytest.mark.parametrize("check", [("check",), ("format", "--check")], ids=["lint", "format"])
def test_ruff_is_clean_on_the_whole_tree(check):
    result = _run(sys.executable, "-m", "ruff", *check, "sandbox", "tests", "tools")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


@pytest.mark.parametrize(
    ("module", "line", "report"),
    [
        ("physics/params.py", "from ..ui import palette", "sandbox.physics is not allowed to import sandbox.ui"),
        ("session/clock.py", "from ..link import protocol", "sandbox.session is not allowed to import sandbox.link"),
        ("link/game.py", "from ..session import clock", "sandbox.link is not allowed to import sandbox.session"),
        ("devtools/bench_inputs.py", "from ..cli import main", "sandbox.devtools is not allowed to import sandbox.cli"),
        (
            "devtools/bench.py",
            "from ..commands import reports",
            "sandbox.devtools is not allowed to import sandbox.commands",
        ),
        ("commands/reports.py", "from .. import cli", "sandbox.commands is not allowed to import sandbox.cli"),
    ],
    ids=["physics-to-window", "session-to-link", "link-to-session", "devtools-to-cli", "bench-to-commands", "loop"],
)
def test_a_broken_contract_is_reported(tmp_path, module, line, report):
    """The contract test can fail: the physics importing the window, the session and
    the link importing each other, a developer tool reaching up into the command line
    (the commands run the bench, so that would be a loop)."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "sandbox", tree / "sandbox", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    with open(tree / "sandbox" / module, "a") as f:
        f.write(f"\n{line}  # noqa: E402,F401\n")
    result = subprocess.run(
        [str(BIN / "lint-imports"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=tree,
        timeout=300,
        env={"PYTHONPATH": str(tree), "PATH": str(BIN)},
    )
    assert result.returncode != 0
    assert report in result.stdout


def test_the_bench_runs_the_program_through_its_entry_point_not_the_cli_module():
    """Code run in a child process is a string the contracts cannot read: the developer
    tools name no module above them there either (they run `python -m sandbox`)."""
    above = ("sandbox.cli", "sandbox.commands")
    found = []
    for path in sorted((ROOT / "sandbox" / "devtools").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found += [f"{path.name}: {name}" for name in above if name in node.value]
    assert not found
