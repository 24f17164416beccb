"""The window's import of a car script or scene inside a Godot project (a folder above it
holds project.godot): the game controllers take the project's dead zones and the status bar
says so beside the import; a project.godot that cannot be read is said there, the dead zones
stay and the import stands. The project files are written as Godot 3.5 and Godot 4.3 write
them (tests/data/godot_input)."""

from pathlib import Path

from sandbox.files.presets import BUILTIN_DIR

DATA = Path(__file__).parent / "data" / "godot_input"


def game(window, tmp_path, project: str | None, godot: int) -> Path:
    """A game folder with `project` as its project.godot and the car on screen exported
    into its cars/ folder for Godot `godot`; the script's path."""
    (tmp_path / "game" / "cars").mkdir(parents=True)
    if project is not None:
        (tmp_path / "game" / "project.godot").write_text(project, encoding="utf-8")
    car = tmp_path / "game" / "cars" / "car.gd"
    assert window.godot.export(car, godot)
    return car


def test_an_import_in_a_godot4_project_takes_its_dead_zones_and_says_so(window, tmp_path):
    assert window.controllers.dead_zones.of("steer_left") == 0.5  # Godot 3's default, no project
    car = game(window, tmp_path, (DATA / "godot4" / "project.godot").read_text(encoding="utf-8"), 4)
    assert window.import_godot(car)
    zones = window.controllers.dead_zones
    assert (zones.of("accelerate"), zones.of("steer_left"), zones.of("brake")) == (0.05, 0.2, 0.5)  # 4.3's default
    assert Path(window.controllers.project) == car.parent.parent / "project.godot"
    message = window.statusBar().currentMessage()
    assert (
        message.startswith("Imported ")
        and f" values from {car}. Controller dead zones from " in message
        and "accelerate 0.05" in message
    )


def test_an_import_with_notes_keeps_the_dead_zones_in_the_status_bar(window, tmp_path):
    window.open_preset_file(BUILTIN_DIR / "go_kart.json")
    car = game(window, tmp_path, (DATA / "godot3" / "project.godot").read_text(encoding="utf-8"), 3)
    assert window.import_godot(car)  # a Godot 3 script of a car with walls: a note says whose walls
    assert "Godot 3" in window.last_error
    assert window.controllers.dead_zones.of("steer_right") == 0.35
    assert "steer_right 0.35" in window.statusBar().currentMessage()


def test_a_project_godot_that_cannot_be_read_is_said_and_the_import_stands(window, tmp_path):
    before = window.controllers.dead_zones
    text = (DATA / "godot3" / "project.godot").read_text(encoding="utf-8")
    car = game(window, tmp_path, text + ";" + "x" * (10 * 1024 * 1024) + "\n", 4)
    exported = window.tuning["drag"]
    window.panel.sliders["drag"].setValue(exported / 2)
    assert window.import_godot(car)
    assert window.tuning["drag"] == exported  # the values imported
    message = window.statusBar().currentMessage()
    assert message.startswith("Imported ") and "Dead zones not read" in message and "project.godot" in message
    assert window.controllers.dead_zones is before and window.controllers.project == ""


def test_an_import_outside_any_project_leaves_the_dead_zones(window, tmp_path):
    before = window.controllers.dead_zones
    car = game(window, tmp_path, None, 4)
    assert window.import_godot(car)
    message = window.statusBar().currentMessage()
    assert message.startswith("Imported ") and message.endswith(f" values from {car}")
    assert window.controllers.dead_zones is before
