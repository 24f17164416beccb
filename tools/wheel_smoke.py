"""The wheel smoke set: the app as `pip install .` or `pipx install .` gives it.

Builds the wheel from a clean copy of the source (pyproject.toml, README.md, sandbox/),
installs it with its dependencies into a fresh virtual environment in a temporary
folder, and runs the installed `car-sandbox` there, from a folder outside the checkout
(so nothing of the checkout can be imported): `--version`, every built-in preset by its
file name and by its name (exported for Godot 3 and 4: every model's script), a name
that is no preset (the refusal lists the built-in ones), the link node, `simulate` of a
built-in test drive by its name and of a name that is none, `bench`'s parts that read
the package's files (its help, the sweep over the built-in slalom, the live-link
figures' note that their Godot project is in the checkout only), a screenshot of the
window offscreen, and the window started offscreen and closed. Each step checks what it
made, and says what ran.

What is checked comes from the source tree (every file under sandbox/ that is not Python
must be in the wheel; the presets and test drives are the files in
sandbox/files/builtin_presets/ and builtin_traces/) and from the installed package itself
(its models, presets and drives). CI runs it after the tests
(.ci/run): `python tools/wheel_smoke.py`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRESETS = Path("sandbox/files/builtin_presets")
"""The built-in presets' folder in the source tree and in the wheel."""
DRIVES = Path("sandbox/files/builtin_traces")
"""The built-in test drives' folder in the source tree and in the wheel."""
DRIVE = "slalom"
"""The built-in test drive `simulate` replays by its name (the docs' example)."""
TRAJECTORY_HEADER = "t,x,y,heading,vx,vy,speed,slip_angle"
"""The first line of `simulate`'s output (docs/commands.md)."""
WINDOW_PRESET = "drift"
"""The built-in preset the window opens (the README's example)."""
WINDOW_SECONDS = 5.0
"""s the window runs offscreen before it is told to close."""
INVENTORY = """
import json, sandbox
from sandbox.files.godot import has_script
from sandbox.files.presets import list_presets
from sandbox.files.traces import list_traces
from sandbox.physics.models import MODELS
print(json.dumps({
    "package": sandbox.__file__,
    "presets": [[path.stem, name, model] for path, name, builtin, model in list_presets() if builtin],
    "drives": {path.stem: str(path) for path, builtin in list_traces() if builtin},
    "models": {name: has_script(model) for name, model in MODELS.items()},
}))
"""
"""Run by the installed Python: what the installed package declares."""
BENCH_PARTS = """
import json
from sandbox.devtools import bench, bench_link
print(json.dumps({"sweep": bench.sweep_seconds(side=2), "link": bench_link.run(quick=True)}))
"""
"""Run by the installed Python: `bench`'s parts that read a file (the sweep drives the
built-in slalom; the live-link figures need the Godot project in tools/), the quick way."""


class SmokeError(RuntimeError):
    """A step of the smoke set did not do what it should."""


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SmokeError(what)


def shipped_files(root: Path = ROOT) -> list[str]:
    """Every file under `root`/sandbox that is not Python source or bytecode: the files
    the app reads at run time, each of which a wheel must hold (paths as in the wheel)."""
    package = root / "sandbox"
    return sorted(
        path.relative_to(root).as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".py", ".pyc")
    )


def build_wheel(dest: Path, root: Path = ROOT, isolated: bool = True) -> Path:
    """The wheel of a clean copy of `root` (so no build/ folder left in the checkout can
    add stale files to it), written into `dest`. `isolated`: as `pip install .` builds
    (its build backend fetched by pip); else with this Python's setuptools (offline)."""
    source = dest / "source"
    shutil.copytree(root / "sandbox", source / "sandbox", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(root / name, source / name)
    command = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(dest / "dist")]
    done = subprocess.run(command + ([] if isolated else ["--no-build-isolation"]), capture_output=True, text=True)
    check(done.returncode == 0, f"the wheel did not build:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    wheels = sorted((dest / "dist").glob("*.whl"))
    check(len(wheels) == 1, f"expected one wheel, pip wrote {[w.name for w in wheels]}")
    return wheels[0]


def missing_from(wheel: Path, root: Path = ROOT) -> list[str]:
    """The files of `shipped_files` that `wheel` lacks."""
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
    return [name for name in shipped_files(root) if name not in held]


class Installed:
    """The wheel installed in a fresh virtual environment under `folder`, run from
    `folder`/work with a home of its own."""

    def __init__(self, folder: Path):
        self.venv = folder / "venv"
        self.work = folder / "work"
        self.work.mkdir()
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        self.config = folder / "config"
        self.env.update(
            CAR_SANDBOX_HOME=str(folder / "home"), XDG_CONFIG_HOME=str(self.config), QT_QPA_PLATFORM="offscreen"
        )
        self.app = self.venv / "bin" / "car-sandbox"
        self.python = self.venv / "bin" / "python"

    def install(self, wheel: Path) -> None:
        base = getattr(sys, "_base_executable", sys.executable)  # not this checkout's venv
        subprocess.run([base, "-m", "venv", str(self.venv)], check=True, cwd=self.work, env=self.env)
        done = self.run_python("-m", "pip", "install", "-q", str(wheel), timeout=1800)
        check(done.returncode == 0, f"the wheel did not install:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")

    def run_python(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.python), *args], cwd=self.work, env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        """`car-sandbox ARGS` as installed; prints the command line."""
        print("  $ car-sandbox " + " ".join(_quoted(a) for a in args), flush=True)
        return subprocess.run(
            [str(self.app), *args], cwd=self.work, env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def ok(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        done = self.run(*args, timeout=timeout)
        check(done.returncode == 0, f"exit {done.returncode}:\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
        check("Traceback" not in done.stderr, f"a traceback:\n{done.stderr[-2000:]}")
        return done


def _quoted(arg: str) -> str:
    return arg if re.fullmatch(r"[\w./=:-]+", arg) else repr(arg)


def godot3_parses(script: Path) -> str | None:
    """Godot 3's parse of `script` (`--check-only`): None when it parses, else the
    engine's error; "" when no godot3-server is installed."""
    binary = shutil.which("godot3-server")
    if binary is None:
        return ""
    done = subprocess.run(
        [binary, "--check-only", "-s", str(script)], capture_output=True, text=True, timeout=120, cwd=script.parent
    )
    if done.returncode == 0 and "Parse Error" not in done.stderr + done.stdout:
        return None
    return (done.stderr or done.stdout)[-800:] or f"exit {done.returncode}"


def godot4_parser():
    """gdtoolkit's GDScript parser (the tests' stand-in for Godot 4), or None."""
    try:
        from gdtoolkit.parser import parser
    except ImportError:
        return None
    return parser


def check_script(path: Path, godot: int, extends: str, parsed: list[str]) -> None:
    """`path` is a Godot `godot` script that extends `extends` and parses."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    check(len(text) > 500, f"{path.name}: empty or missing ({len(text)} characters)")
    check(re.search(rf"^extends {extends}$", text, re.M) is not None, f"{path.name}: does not extend {extends}")
    if godot == 3:
        error = godot3_parses(path)
        check(error is None or error == "", f"{path.name}: Godot 3 does not parse it:\n{error}")
        parsed.append("Godot 3 engine" if error is None else "")
    else:
        parser = godot4_parser()
        if parser is not None:
            try:
                parser.parse(text)
            except Exception as exc:  # lark's errors: a syntax error, named
                raise SmokeError(f"{path.name}: gdtoolkit does not parse it: {exc}") from None
        parsed.append("gdtoolkit" if parser is not None else "")


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) of the PNG at `path` (its IHDR chunk)."""
    head = path.read_bytes()[:24]
    check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name}: not a PNG")
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def window_runs_and_closes(app: Installed, preset: str) -> str:
    """The window, offscreen, on screen (its session says so: the `opening` mark it sets
    while it opens is gone), runs WINDOW_SECONDS, and closes on SIGTERM (as at logout)
    with exit 0, no traceback, and its autosave naming the preset it opened. Returns
    that preset's path."""
    print(f"  $ car-sandbox --preset {preset}   (offscreen; closed {WINDOW_SECONDS:.0f} s after it shows, by SIGTERM)")
    shutil.rmtree(app.config, ignore_errors=True)  # the session read is this window's own
    with open(app.work / "window.err", "w+") as err:
        window = subprocess.Popen([str(app.app), "--preset", preset], cwd=app.work, env=app.env, stderr=err)
        try:
            deadline = time.monotonic() + 300
            while not _shown(app) and window.poll() is None and time.monotonic() < deadline:
                time.sleep(0.2)
            check(_shown(app) and window.poll() is None, f"the window did not show (exit {window.poll()})")
            deadline = time.monotonic() + WINDOW_SECONDS
            while time.monotonic() < deadline and window.poll() is None:
                time.sleep(0.1)
            check(window.poll() is None, f"the window ended by itself (exit {window.returncode})")
            window.send_signal(signal.SIGTERM)
            code = window.wait(timeout=60)
        finally:
            if window.poll() is None:
                window.kill()
        err.seek(0)
        said = err.read()
    check(code == 0 and "Traceback" not in said, f"the window closed with exit {code}:\n{said[-2000:]}")
    last = re.search(r"^last_path=(.*)$", _settings(app), re.M)
    check(last is not None, "the window's autosave names no preset")
    opened = Path(last[1].strip())
    check(app.venv in opened.parents and opened.name == f"{preset}.json", f"the window opened {opened}")
    return str(opened.relative_to(app.venv))


def _settings(app: Installed) -> str:
    """The text of the window's settings file(s) (QSettings, under XDG_CONFIG_HOME)."""
    return "".join(path.read_text(encoding="utf-8", errors="replace") for path in app.config.rglob("*.ini"))


def _shown(app: Installed) -> bool:
    text = _settings(app)
    return bool(text) and re.search(r"^opening\s*=", text, re.M) is None


def smoke(folder: Path) -> list[str]:
    """Every step, in `folder`; returns the lines of the summary."""
    summary = []
    started = time.monotonic()
    print("build the wheel (pip wheel, as pip install . builds it)", flush=True)
    wheel = build_wheel(folder)
    missing = missing_from(wheel)
    check(not missing, f"{wheel.name} lacks files of the package: {missing}")
    summary.append(f"wheel {wheel.name}: holds all {len(shipped_files())} data files of sandbox/")

    print("install it into a fresh virtual environment outside the checkout", flush=True)
    app = Installed(folder)
    app.install(wheel)
    listed = app.run_python("-c", INVENTORY)
    check(listed.returncode == 0, f"the installed package does not import:\n{listed.stderr[-2000:]}")
    found = json.loads(listed.stdout)
    package = Path(found["package"])
    check(app.venv in package.parents, f"sandbox imported from {package}, not from the installed wheel")
    summary.append(f"installed in {app.venv}; sandbox imported from there")

    version = wheel.name.split("-")[1]
    said = app.ok("--version").stdout
    check(version in said, f"--version says {said!r}, the wheel is {version}")
    summary.append(f"--version: {said.strip()}")

    presets = found["presets"]
    source = sorted(path.stem for path in (ROOT / PRESETS).glob("*.json"))
    check(bool(source), f"no presets in {PRESETS}")
    check(sorted(stem for stem, _, _ in presets) == source, f"built-in presets {presets}, the source has {source}")
    check(all(model for _, _, model in presets), f"a built-in preset does not load: {presets}")
    models = found["models"]
    check(all(models.values()), f"a model has no Godot script: {models}")
    check({model for _, _, model in presets} == set(models), f"a model has no built-in preset: {models}, {presets}")

    print(f"export every built-in preset ({len(presets)}) for Godot 3 (by file name) and 4 (by name)", flush=True)
    parsed: list[str] = []
    for stem, name, model in presets:
        for godot, given, extends in ((3, stem, "KinematicBody2D"), (4, name, "CharacterBody2D")):
            out = app.work / f"{stem}_godot{godot}.gd"
            app.ok("export-godot", "--preset", given, "--godot", str(godot), "--out", out.name)
            check_script(out, godot, extends, parsed)
            header = re.sub(r"\s*\n#\s*", " ", out.read_text(encoding="utf-8"))  # its comment lines as one
            said = f"Exported by car-sandbox {version}: preset {name!r}"
            check(said in header, f"{out.name}: its header does not say {said!r}")
            declared = re.search(r'^const SANDBOX_MODEL(?:: String)? = "(\w+)"$', header, re.M)
            check(declared is not None and declared[1] == model, f"{out.name}: not the {model} model")
    summary.append(
        f"export-godot: {len(presets)} presets x Godot 3 and 4, models {', '.join(sorted(models))}; "
        + _parsed_by(parsed)
    )

    refused = app.run("export-godot", "--preset", "zzzz", "--out", "none.gd")
    listed = refused.stderr
    check(refused.returncode != 0 and "Traceback" not in listed, f"an unknown preset: exit {refused.returncode}")
    check(all(stem in listed for stem in source), f"the refusal does not list the built-in presets:\n{listed}")
    summary.append("--preset zzzz: refused, listing every built-in preset")

    print("the link node for Godot 3 and 4", flush=True)
    parsed = []
    for godot in (3, 4):
        out = app.work / f"link_godot{godot}.gd"
        app.ok("export-godot", "--link", "--preset", source[0], "--godot", str(godot), "--out", out.name)
        check_script(out, godot, "Node", parsed)
        check("PacketPeerUDP" in out.read_text(encoding="utf-8"), f"{out.name}: no link in it")
    summary.append("export-godot --link: Godot 3 and 4; " + _parsed_by(parsed))

    summary += controllers(app)
    summary += drives_by_name(app, found["drives"])
    summary += bench_parts(app)

    print("the window offscreen", flush=True)
    shot = app.work / "shot.png"
    app.ok(
        "screenshot", "--preset", WINDOW_PRESET, "--drive", "2", "--size", "1024x640", "--out", shot.name, timeout=600
    )
    check(png_size(shot) == (1024, 640), f"{shot.name}: {png_size(shot)}, not 1024x640")
    opened = window_runs_and_closes(app, WINDOW_PRESET)
    summary.append("screenshot: 1024x640 PNG")
    summary.append(f"window: shown offscreen, ran {WINDOW_SECONDS:.0f} s, closed with exit 0; it opened {opened}")
    summary.append(f"all in {time.monotonic() - started:.0f} s")
    return summary


PAD_CHECK = """
import os
os.environ["SDL_VIDEODRIVER"] = "dummy"
from sandbox.session.pads import Pads
pads = Pads()
assert pads.error is None, pads.error
sdl = pads.sdl
stick = sdl.SDL_JoystickOpen(sdl.SDL_JoystickAttachVirtual(sdl.SDL_JOYSTICK_TYPE_GAMECONTROLLER, 6, 15, 0))
sdl.SDL_JoystickSetVirtualAxis(stick, 0, 32767)
reading = pads.poll()
print(reading.status, reading.controls.steer)
"""


def controllers(app: Installed) -> list[str]:
    """The installed SDL library (pysdl2-dll) starts and reads a virtual pad's stick."""
    print("game controllers: SDL from the installed packages, a virtual pad", flush=True)
    done = app.run_python("-c", PAD_CHECK)
    check(done.returncode == 0, f"the controllers cannot be read:\n{done.stderr[-2000:]}")
    said = done.stdout.strip()
    check(said.endswith("(pad) 1.0"), f"a virtual pad's stick full right read as {said!r}")
    return [f"controllers: SDL starts; a virtual pad's stick full right reads {said!r}"]


def drives_by_name(app: Installed, drives: dict[str, str]) -> list[str]:
    """The built-in test drives the window lists are the source tree's; `simulate` replays
    one by its name as it does by its file's path; a name that is none is refused,
    listing them. Returns the summary's lines."""
    print(f"simulate the built-in test drive {DRIVE!r} by its name", flush=True)
    source = sorted(path.stem for path in (ROOT / DRIVES).glob("*.csv"))
    check(bool(source), f"no test drives in {DRIVES}")
    check(sorted(drives) == source, f"the window lists the built-in drives {sorted(drives)}, the source has {source}")
    installed = Path(drives[DRIVE])
    check(app.venv in installed.parents, f"the built-in {DRIVE} is {installed}, not in the installed package")
    app.ok("simulate", "--preset", WINDOW_PRESET, "--controls", DRIVE, "--out", "by_name.csv")
    app.ok("simulate", "--preset", WINDOW_PRESET, "--controls", str(installed), "--out", "by_path.csv")
    lines = (app.work / "by_name.csv").read_text(encoding="utf-8").splitlines()
    ticks = len((ROOT / DRIVES / f"{DRIVE}.csv").read_text(encoding="utf-8").splitlines()) - 1
    check(lines[:1] == [TRAJECTORY_HEADER], f"by_name.csv: header {lines[:1]}, expected {TRAJECTORY_HEADER}")
    check(len(lines) == 1 + ticks, f"by_name.csv: {len(lines) - 1} rows, the drive has {ticks} ticks")
    travelled = float(lines[-1].split(",")[1]) ** 2 + float(lines[-1].split(",")[2]) ** 2
    check(travelled > 1e4, f"by_name.csv: the car ends {travelled**0.5:g} px from the start, it did not drive")
    same = (app.work / "by_path.csv").read_text(encoding="utf-8").splitlines() == lines
    check(same, "the drive by its name and by its file's path give different trajectories")
    refused = app.run("simulate", "--preset", WINDOW_PRESET, "--controls", "zzzz", "--out", "none.csv")
    said = refused.stderr
    check(refused.returncode == 2 and "Traceback" not in said, f"an unknown drive: exit {refused.returncode}:\n{said}")
    check(all(stem in said for stem in source), f"the refusal does not list the built-in drives:\n{said}")
    return [
        f"built-in test drives: {len(drives)}, listed from the installed package",
        f"simulate --controls {DRIVE}: {ticks} rows, as from the file's path; --controls zzzz: refused, listing them",
    ]


def bench_parts(app: Installed) -> list[str]:
    """`bench --help`, and bench's parts that read a file, run from the installed package:
    the sweep over the built-in slalom runs; the live-link figures say why they are not
    measured (their Godot project is in the checkout's tools/, or no Godot is installed)."""
    print("bench: its help, and its parts that read a file", flush=True)
    said = app.ok("bench", "--help").stdout
    check("--quick" in said, f"bench --help does not say its options:\n{said}")
    done = app.run_python("-c", BENCH_PARTS, timeout=600)
    check(done.returncode == 0, f"bench's parts failed from the installed package:\n{done.stderr[-2000:]}")
    parts = json.loads(done.stdout.splitlines()[-1])
    sweep, link = parts["sweep"], parts["link"]
    check(sweep["tunings"] == 4 and sweep["ticks"] > 0, f"bench's sweep: {sweep}")
    check(set(link) == {"skipped"}, f"bench's live link ran from the installed package: {sorted(link)}")
    check("source checkout" in link["skipped"] or "no Godot 3" in link["skipped"], f"bench's live link: {link}")
    return [
        f"bench --help; its sweep over the built-in slalom: {sweep['tunings']} tunings x {sweep['ticks']} ticks",
        f"bench's live link to the game: not measured ({link['skipped']})",
    ]


def _parsed_by(parsed: list[str]) -> str:
    checkers = sorted({p for p in parsed if p})
    unparsed = sum(1 for p in parsed if not p)
    text = f"{len(parsed) - unparsed} parsed ({', '.join(checkers) or 'nothing'})"
    return text + (f", {unparsed} not parsed (no checker installed)" if unparsed else "")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="car-sandbox-wheel-") as folder:
        try:
            summary = smoke(Path(folder))
        except (SmokeError, subprocess.SubprocessError, OSError) as exc:
            print(f"wheel smoke set FAILED: {exc}", file=sys.stderr)
            return 1
    print("wheel smoke set passed:")
    for line in summary:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
