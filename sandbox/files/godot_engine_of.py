"""Which Godot a car script or scene is written for, and the tuning's engine option
(`car_shape.engine_param`: whose move_and_slide rules the kinematic cars meet walls
by) that follows from it: a Godot 3 script or a `format=2` scene gives Godot 3, a
Godot 4 script or a `format=3` scene Godot 4.

A script tells by its base class (`extends KinematicBody2D` is Godot 3's,
`extends CharacterBody2D` Godot 4's), else by the spellings only one version has:
Godot 4's annotations (`@export`, `@onready`), Godot 3's `export`, `onready` and
`setget` keywords. A script that shows neither leaves the option as it is.
"""

from __future__ import annotations

from types import ModuleType

from ..physics.car_shape import ENGINE_CHOICES, ENGINE_NAME, GODOT3
from .gdscript_reader import Statement

BASES = {"KinematicBody2D": 3, "CharacterBody2D": 4}
"""The kinematic bodies' classes of each version."""
DECLARING = ("export", "onready")
"""What starts a class-level declaration: Godot 3's keywords, Godot 4's annotations (after `@`)."""


def script_godot(parsed: tuple[Statement, ...]) -> int | None:
    """3 or 4: the Godot version a script (its statements) is written for; None when
    it does not tell."""
    top = [statement.words for statement in parsed if statement.top_level and statement.words]
    for words in top:
        if words[0] == "extends" and len(words) > 1 and words[1] in BASES:
            return BASES[words[1]]
    for words in top:
        if words[0] == "@" and len(words) > 1 and words[1].startswith(DECLARING):  # @export_range too
            return 4
        if words[0] in DECLARING or "setget" in words:
            return 3
    return None


def engine_values(model: ModuleType, godot: int | None, what: str) -> tuple[dict[str, float], list[str]]:
    """The engine option's value for a car of `model` read from a Godot `godot` file
    (`what`: "script" or "scene"), and a note saying so; nothing for a model without
    walls of its own or a file that does not tell."""
    if godot is None or ENGINE_NAME not in {p.name for p in model.PARAMS}:
        return {}, []
    name = f"Godot {godot}"
    note = f"walls are met by {name}'s move_and_slide rules (Engine: {name}), as the {what} is written for {name}"
    return {ENGINE_NAME: float(ENGINE_CHOICES.index(name))}, [note]


def scene_engine(model: ModuleType, godot: int, values: dict, notes: list[str]) -> list[str]:
    """A car scene of Godot `godot` sets the engine option in `values` (its script's
    word, read into `values` and `notes` before, gives way to the scene's): the notes
    after it."""
    engine, said = engine_values(model, godot, "scene")
    if not engine:
        return notes
    script = values.get(ENGINE_NAME)
    if script is not None:
        _, script_said = engine_values(model, 3 if script == GODOT3 else 4, "script")
        if script == engine[ENGINE_NAME]:
            return notes  # the script's note says it already
        notes = [note for note in notes if note not in script_said]
        said = [f"the script reads as written for another Godot than its scene: {said[0]}"]
    values.update(engine)
    return notes + said


def export_note(model: ModuleType, values, godot: int) -> str | None:
    """What an export for Godot `godot` of a tuning (`values`) says when the tuning meets
    walls by the other engine's rules: the script meets them as its engine does. None
    when they agree, or the model has no engine option."""
    if ENGINE_NAME not in {p.name for p in model.PARAMS}:
        return None
    tuned = ENGINE_CHOICES[int(values[ENGINE_NAME])]
    if tuned == f"Godot {godot}":
        return None
    return (
        f"this tuning meets walls by {tuned}'s move_and_slide rules (its Engine) and this script is for "
        f"Godot {godot}: in the game the car meets walls as Godot {godot} does (set Engine to Godot {godot} "
        "to try that in the sandbox); the open field drives the same"
    )
