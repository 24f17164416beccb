"""The layers (import-linter's contracts in pyproject.toml) and the style (ruff's
configuration there) hold on the whole tree: a broken contract or a lint or format
finding fails here with the tool's own report."""

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


def test_a_broken_contract_is_reported(tmp_path):
    """The contract test can fail: a physics module importing the window breaks it."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "sandbox", tree / "sandbox", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    with open(tree / "sandbox" / "physics" / "params.py", "a") as f:
        f.write("\nfrom ..ui import palette  # noqa: E402,F401\n")
    result = subprocess.run(
        [str(BIN / "lint-imports"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=tree,
        timeout=300,
        env={"PYTHONPATH": str(tree), "PATH": str(BIN)},
    )
    assert result.returncode != 0
    assert "sandbox.physics is not allowed to import sandbox.ui" in result.stdout
