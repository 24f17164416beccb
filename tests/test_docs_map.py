"""The code layout in docs/development.md (its "Code layout" section) is a map of the
`sandbox` package: a table row per module, `| `folder/module.py` | what it holds |`.
Every .py file of the package, found by walking it, has its row; no row names a
module that is gone."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sandbox"
DOC = ROOT / "docs" / "development.md"
ROW = re.compile(r"^\| `([^`]+\.py)` \|(.*)\|\s*$", re.MULTILINE)


def package_modules(package: Path) -> set[str]:
    """Every .py file under `package`, as its path inside it ("ui/app.py")."""
    return {
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if not any(part.startswith(".") or part == "__pycache__" for part in path.relative_to(package).parts)
    }


def map_rows(doc: str) -> list[tuple[str, str]]:
    """(module, what it holds) of each row of the doc's "Code layout" section."""
    section = doc.split("\n## Code layout\n", 1)[1].split("\n## ", 1)[0]
    return [(name, text.strip()) for name, text in ROW.findall(section)]


def drift(package: Path, doc: str) -> str:
    """What the map and the package disagree on, in words; empty when they agree."""
    rows = map_rows(doc)
    named = [name for name, _ in rows]
    modules = package_modules(package)
    problems = []
    if missing := sorted(modules - set(named)):
        problems.append(f"not on the map (add a row each to its folder's table): {', '.join(missing)}")
    if gone := sorted(set(named) - modules):
        problems.append(f"on the map but not in the package (remove or rename their rows): {', '.join(gone)}")
    if twice := sorted({name for name in named if named.count(name) > 1}):
        problems.append(f"on the map more than once: {', '.join(twice)}")
    if blank := sorted(name for name, text in rows if not text):
        problems.append(f"on the map without saying what they hold: {', '.join(blank)}")
    return "; ".join(problems)


def test_the_map_names_every_module_of_the_package_and_nothing_else():
    problems = drift(PACKAGE, DOC.read_text(encoding="utf-8"))
    assert not problems, f"docs/development.md, Code layout: {problems}"


def test_a_drifted_map_is_named_module_by_module(tmp_path):
    package = tmp_path / "sandbox"
    (package / "ui" / "__pycache__").mkdir(parents=True)
    for name in ("__init__.py", "cli.py", "ui/app.py", "ui/new_view.py", "ui/__pycache__/app.py"):
        (package / name).write_text("")
    doc = (
        "# Development\n\n## Code layout\n\n| module | what it holds |\n|---|---|\n"
        "| `__init__.py` | the package |\n| `cli.py` | the command |\n| `cli.py` | again |\n"
        "| `ui/app.py` |  |\n| `ui/old_view.py` | a view that was removed |\n\n## Tools\n\n"
        "| `ui/new_view.py` | a row outside the map counts for nothing |\n"
    )
    problems = drift(package, doc)
    assert "not on the map (add a row each to its folder's table): ui/new_view.py;" in problems
    assert "on the map but not in the package (remove or rename their rows): ui/old_view.py;" in problems
    assert "on the map more than once: cli.py;" in problems
    assert problems.endswith("on the map without saying what they hold: ui/app.py")
    assert "__pycache__" not in problems
