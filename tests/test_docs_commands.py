"""Every `car-sandbox` command shown in the README and in docs/ runs as written.

The commands are taken from the fenced shell blocks (```sh) of README.md and
docs/*.md and run, each through bash with `car-sandbox` standing for this Python's
`-m sandbox`, in a temporary folder (so their outputs never land in the repository;
they name the built-in presets and test drives, which ship in the package) holding a
copy of the built-in drives' files where the repository has them, for the examples that
paste one beside its trajectory.
Only the commands that open the window or take minutes are skipped, each listed in
SKIPPED with its reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.files.traces import BUILTIN_TRACES

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell|console)\n(.*?)^```", re.M | re.S)
INVOCATION = re.compile(r"(?:^|[\s;&|(])(?:\S*/)?car-sandbox(?=\s|$)")

SKIP_KINDS = {
    "opens the window": re.compile(r"(?:^|&&\s*)(?:\S*/)?car-sandbox(?:\s+--preset\s+\S+)?$"),
    "takes minutes: the speed measurements": re.compile(r"^car-sandbox bench(?:\s|$)"),
    "takes minutes: the long run of the window": re.compile(r"^car-sandbox soak(?:\s|$)"),
}
"""The only reasons a shown command may be skipped, each with the commands it covers."""

SKIPPED = {
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/car-sandbox": "opens the window",
    "car-sandbox bench": "takes minutes: the speed measurements",
    "car-sandbox bench --quick": "takes minutes: the speed measurements",
    "car-sandbox soak --minutes 30": "takes minutes: the long run of the window",
}
"""Every shown command that is not run, exactly (a new one must be added here)."""

FEWEST_COMMANDS = 20
"""The docs show at least this many different runnable commands: fewer means the extraction broke."""


def shown_commands() -> list[tuple[str, str]]:
    """(file, command line) of every line of a shell block that calls car-sandbox."""
    found = []
    for path in DOCS:
        for block in SHELL_BLOCK.findall(path.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.strip()
                if line and not line.startswith("#") and INVOCATION.search(line):
                    found.append((path.relative_to(ROOT).as_posix(), line))
    return found


COMMANDS = shown_commands()
TO_RUN = [
    (where, line)
    for i, (where, line) in enumerate(COMMANDS)
    if line not in SKIPPED and line not in [seen for _, seen in COMMANDS[:i]]
]
"""The commands to run, each once (the first place it is shown)."""


def test_the_docs_show_commands_and_skip_only_the_listed_ones():
    assert len(TO_RUN) >= FEWEST_COMMANDS, f"only {len(TO_RUN)} commands found in {[p.name for p in DOCS]}"
    assert {where for where, _ in COMMANDS} >= {"README.md", "docs/commands.md"}
    skipped = {line for _, line in COMMANDS if line in SKIPPED}
    assert skipped == set(SKIPPED), f"listed as skipped but no longer shown: {set(SKIPPED) - skipped}"
    for line, reason in SKIPPED.items():
        assert reason in SKIP_KINDS, f"{line!r}: {reason!r} is not one of the reasons to skip"
        assert SKIP_KINDS[reason].search(line), f"{line!r} is not a command that {reason}"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder laid out like the repository's for the examples: the built-in drives'
    files (no package: the code is the repository's), and an empty screenshots/ for the
    commands that remake the pictures."""
    work = tmp_path_factory.mktemp("docs")
    drives = BUILTIN_TRACES.relative_to(ROOT)
    shutil.copytree(ROOT / drives, work / drives)
    (work / "screenshots").mkdir()
    return work


@pytest.mark.skipif(shutil.which("bash") is None, reason="the docs' commands are shell lines; needs bash")
@pytest.mark.parametrize("where, line", TO_RUN, ids=[f"{where}:{i}" for i, (where, _) in enumerate(TO_RUN)])
def test_shown_command_runs(where, line, workdir, tmp_path):
    env = dict(
        os.environ,
        CAR_SANDBOX_PYTHON=sys.executable,
        CAR_SANDBOX_HOME=str(tmp_path / "home"),
        QT_QPA_PLATFORM="offscreen",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    script = 'set -eo pipefail\ncar-sandbox() { "$CAR_SANDBOX_PYTHON" -m sandbox "$@"; }\n' + line + "\n"
    done = subprocess.run(["bash", "-c", script], cwd=workdir, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{where}: {line}\nexit {done.returncode}\n{done.stderr[-2000:]}"
    for out in re.findall(r"--out\s+(\S+)", line):
        if "$" not in out:
            assert (workdir / out).is_file() and (workdir / out).stat().st_size > 0, f"{where}: {line}: no {out}"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_the_docs_lead_somewhere():
    anchors = {
        path: {_anchor(h) for h in re.findall(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.M)} for path in DOCS
    }
    for path in DOCS:
        for link in re.findall(r"\]\(([^)\s]+)\)", path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", link):
                continue
            file, _, anchor = link.partition("#")
            target = (path.parent / file).resolve() if file else path
            assert target.exists(), f"{path.name}: {link} leads nowhere"
            if anchor and target in anchors:
                assert anchor in anchors[target], f"{path.name}: {link}: no such heading"
