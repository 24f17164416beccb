"""Which formula an arcade car script follows, read from its code (never from its
numbers). The recipe exists in two versions with the same variable names:

| | Godot 4 recipe (2024) | 2020 recipe (Godot 3) |
|---|---|---|
| friction, drag | multiplied by delta in apply_friction(delta) | not multiplied by delta |
| traction weight of the lerp | traction * delta | traction alone |
| low speed | stops below 50 px/s with no acceleration | stops below 5 px/s; friction ×3 below 100 px/s |

and the pedals are read on/off (`is_action_pressed`, the recipe) or as analog
strengths (`get_action_strength`, `get_axis`). A script that declares one of the
sandbox's switches (recipe_2020, analog_pedals) is taken at its word for it; the
branches of its code under a switch (`if rate_independent:`) are the sandbox's
options and are passed by. The script's functions are read as steps in
gdscript_functions.py.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Mapping

from .gdscript_functions import Function, Step, function_steps, is_tick, script_functions, tick_names
from .gdscript_reader import Statement, closing, split_at, statements
from .godot import GodotError

FORMULA_SWITCHES = ("recipe_2020", "analog_pedals", "rate_independent")
"""The arcade's switches a script may declare: under `if <switch>:` its code is an option's."""
PRESSED = frozenset({"is_action_pressed", "is_action_just_pressed"})
STRENGTH = frozenset({"get_action_strength", "get_action_raw_strength", "get_axis", "get_vector"})
PEDALS = frozenset({"accelerate", "brake"})
STEERING = frozenset({"steer_left", "steer_right"})
CARRIED = {"friction": "friction", "drag": "drag", "traction_fast": "traction", "traction_slow": "traction"}
"""The parameters followed through the code, by what they are."""
ASSIGNMENTS = frozenset({"=", ":=", "+=", "-=", "*=", "/="})
ZERO_VECTORS = frozenset({"Vector2.ZERO", "Vector2()", "Vector2(0,0)", "Vector2(0.0,0.0)"})
STOP_SPEEDS = {50.0: False, 5.0: True}
"""px/s below which each recipe stops the car (True: the 2020 recipe's)."""
GODOT4, OLD = "the Godot 4 recipe", "the 2020 recipe"


@dataclass(frozen=True)
class Formula:
    """What a script computes: `recipe_2020` (the 2020 formula, else the Godot 4
    recipe's), `analog_pedals` (None: no pedal read found), `rate_independent` (only
    a script declaring that switch can be), `evidence` (what in the code told, in
    words) and `notes` (where the script differs from that formula in ways its
    numbers do not show)."""

    recipe_2020: bool
    analog_pedals: bool | None
    rate_independent: bool = False
    evidence: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def switches(self) -> dict[str, bool]:
        """The switch values the script's code stands for."""
        found = {"recipe_2020": self.recipe_2020, "rate_independent": self.rate_independent}
        if self.analog_pedals is not None:
            found["analog_pedals"] = self.analog_pedals
        return found

    def describe(self) -> str:
        recipe = "the 2020 recipe (Godot 3)" if self.recipe_2020 else "the Godot 4 recipe (2024)"
        pedals = {None: "", True: ", analog pedals", False: ", on/off pedals"}[self.analog_pedals]
        return recipe + pedals


@dataclass
class _Seen:
    """What the code does with the parameters, as found."""

    escapes: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))  # reaches a member, × delta?
    weights: list[bool] = field(default_factory=list)  # a traction lerp weight, × delta?
    boosts: int = 0  # friction multiplied again (×3 at low speed)
    stops: list[list[str]] = field(default_factory=list)  # conditions of `velocity = Vector2.ZERO`
    pedals: set[str] = field(default_factory=set)  # "pressed", "strength"
    steering: set[str] = field(default_factory=set)  # "pressed", "strength"


def recognise(text: str, declared: Mapping[str, object] = {}, parsed: tuple[Statement, ...] | None = None) -> Formula:
    """The formula of an arcade script's code (`declared`: the switches the script
    declares, which win over its code; `parsed`: its statements, when already read).
    GodotError naming what differs when the code follows neither recipe, or when none
    of it (friction, drag, traction) is there."""
    seen = _inspect(statements(text) if parsed is None else parsed, set(FORMULA_SWITCHES))
    votes = _votes(seen)
    notes: list[str] = []
    if "recipe_2020" in declared:
        recipe_2020 = bool(declared["recipe_2020"])
    else:
        recipe_2020 = _decide(seen, votes)
        if recipe_2020 and not seen.boosts:
            notes.append(
                "the script does not multiply friction by 3 below 100 px/s as the 2020 recipe does; the sandbox does"
            )
    for condition in seen.stops:
        speed = _stop_speed(condition)
        if speed is not None and speed not in STOP_SPEEDS:
            usual = 5 if recipe_2020 else 50
            notes.append(
                f"the script stops the car below {speed:g} px/s; the sandbox stops it below {usual} px/s "
                "as the recipe does"
            )
    analog = declared.get("analog_pedals")
    if analog is None and seen.pedals:
        analog = "strength" in seen.pedals
    notes += _steering_note(seen.steering, recipe_2020 and not analog)
    return Formula(
        recipe_2020,
        None if analog is None else bool(analog),
        bool(declared.get("rate_independent")),
        tuple(what for what, _ in votes),
        tuple(notes),
    )


def has_recipe_code(parsed: tuple[Statement, ...]) -> bool:
    """Whether a script computes with the recipe's friction, drag or traction (then it
    is an arcade script, whichever recipe it follows)."""
    seen = _inspect(parsed, set(FORMULA_SWITCHES))
    return bool(seen.escapes or seen.weights)


def _steering_note(read: set[str], keys: bool) -> list[str]:
    """Where the script reads the steering otherwise than the sandbox does for that
    formula (`keys`: pressed or not, as the 2020 recipe with on/off pedals; else by the
    stick's strength, as the Godot 4 recipe's get_axis): the same with a keyboard."""
    if read == {"pressed"} and not keys:
        return [
            "the script reads the steering keys pressed or not (is_action_pressed), where the sandbox "
            "steers by how far the stick is pushed, as the recipe's get_axis does: the same with a "
            "keyboard, not with a gamepad's stick"
        ]
    if read == {"strength"} and keys:
        return [
            "the script steers by how far the stick is pushed, where the sandbox reads the steering keys "
            "pressed or not, as the 2020 recipe does (turn on analog_pedals for a stick): the same with a "
            "keyboard, not with a gamepad's stick"
        ]
    return []


def _decide(seen: _Seen, votes: list[tuple[str, bool]]) -> bool:
    if not (seen.escapes or seen.weights):
        raise GodotError(
            "cannot tell which recipe the script follows: no friction, drag or traction code found "
            "(the recipe's apply_friction and calculate_steering)"
        )
    godot4 = [what for what, old in votes if not old]
    old = [what for what, is_old in votes if is_old]
    if godot4 and old:
        raise GodotError(f"the script follows neither recipe: {_listed(godot4)} ({GODOT4}) but {_listed(old)} ({OLD})")
    return bool(old)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _votes(seen: _Seen) -> list[tuple[str, bool]]:
    """(what the code does, whether that is the 2020 recipe's) for each telling feature."""
    votes = []
    for name in ("friction", "drag"):
        if seen.escapes.get(name):
            timed = any(seen.escapes[name])
            votes.append((f"{name} is {'' if timed else 'not '}multiplied by delta", not timed))
    if seen.weights:
        timed = any(seen.weights)
        votes.append((f"the traction weight is {'' if timed else 'not '}multiplied by delta", not timed))
    if seen.boosts:
        votes.append(("friction is multiplied again at low speed", True))
    for condition in seen.stops:
        waits = any(_named(word, "acceleration") for word in condition)
        votes.append(
            (
                "the car stops at low speed only with no acceleration"
                if waits
                else "the car stops at low speed whatever the acceleration",
                not waits,
            )
        )
        speed = _stop_speed(condition)
        if speed in STOP_SPEEDS:
            votes.append((f"the car stops below {speed:g} px/s", STOP_SPEEDS[speed]))
    return votes


def _stop_speed(condition: list[str]) -> float | None:
    """The number a stop's condition compares the speed with (`… < 50`), if any."""
    for i, word in enumerate(condition[:-1]):
        if word in ("<", "<="):
            try:
                return float(condition[i + 1].replace("_", ""))
            except ValueError:
                return None
    return None


def _named(word: str, name: str) -> bool:
    """Whether `word` is the recipe's variable `name`, maybe with leading underscores."""
    return word.lstrip("_") == name


def _inspect(parsed: tuple[Statement, ...], switches: set[str]) -> _Seen:
    seen = _Seen()
    functions = script_functions(parsed)
    ticks = tick_names(functions)
    for function in functions:
        _follow(function, function_steps(function, switches), ticks[function.name], seen)
    return seen


def _follow(function: Function, steps: list[Step], ticks: set[str], seen: _Seen) -> None:
    """Follow friction, drag and traction through one function's statements in order:
    through its local variables, to where they reach a member (acceleration,
    velocity), noting whether the tick multiplied them on the way."""
    local = set(function.parameters)
    carries: dict[str, set[str]] = defaultdict(set)  # local -> the parameters it holds
    timed: dict[str, set[str]] = defaultdict(set)  # local -> those of them multiplied by the tick
    holds_tick: set[str] = set()
    for step in steps:
        _calls(step, local, carries, timed, holds_tick, ticks, seen)
        if step.header:
            continue
        words = step.words
        declared = words[0] == "var"
        op = next((i for i, word in enumerate(words) if word in ASSIGNMENTS), None)
        if op is None:
            continue
        target = [words[1]] if declared else words[:op]
        names = [t.text for t in step.tokens[op + 1 :] if t.kind == "name"]
        if words[op] not in ("=", ":="):
            names += [word for word in target if word.isidentifier()]  # x *= 3 keeps what x held
        sources = {CARRIED[n] for n in names if n in CARRIED}.union(*(carries[n] for n in names if n in local))
        tick_here = any(is_tick(n, ticks) or n in holds_tick for n in names)
        now_timed = (sources if tick_here else set()).union(*(timed[n] for n in names if n in local))
        name = target[0] if len(target) == 1 else None
        if declared:
            local.add(name)
        if name in local:
            factor = words[op] == "*=" or (name in names and "*" in words[op:])
            if (
                "friction" in carries[name]
                and factor
                and not tick_here
                and any(t.kind == "number" for t in step.tokens[op + 1 :])
            ):
                seen.boosts += 1  # friction_force *= 3
            carries[name] |= sources
            timed[name] |= now_timed
            if carries[name]:  # a force or a weight, the tick in it or not (timed says)
                holds_tick.discard(name)
            elif tick_here:  # the tick itself, or a share of it (var step = delta / 2)
                holds_tick.add(name)
            continue
        for what in ("friction", "drag"):
            if what in sources:
                seen.escapes[what].append(what in now_timed)
        if (
            _named(target[-1], "velocity")
            and target[:-1] in ([], ["self", "."])
            and words[op] == "="
            and "".join(words[op + 1 :]) in ZERO_VECTORS
            and step.conditions
            and "<" in step.conditions[-1]
        ):
            seen.stops.append(step.conditions[-1])


def _calls(step: Step, local: set[str], carries, timed, holds_tick: set[str], ticks: set[str], seen: _Seen) -> None:
    """The traction lerps (is the weight × the tick?) and the pedal reads of a step."""
    words, tokens = step.words, step.tokens
    for i, word in enumerate(words[:-1]):
        if words[i + 1] != "(":
            continue
        end = closing(words, i + 1)
        if word in ("lerp", "linear_interpolate"):
            a, b = split_at(words, ",", i + 2, end)[-1]
            names = [t.text for t in tokens[a:b] if t.kind == "name"]
            if any(
                n in CARRIED and CARRIED[n] == "traction" or "traction" in carries.get(n, ())
                for n in names
                if n in CARRIED or n in local
            ):
                seen.weights.append(
                    any(is_tick(n, ticks) or n in holds_tick or "traction" in timed.get(n, ()) for n in names)
                )
        elif word in PRESSED or word in STRENGTH:
            actions = {t.text.lstrip("rR").strip("\"'") for t in tokens[i + 2 : end] if t.kind == "string"}
            if actions & PEDALS:
                seen.pedals.add("pressed" if word in PRESSED else "strength")
            if actions & STEERING:
                seen.steering.add("pressed" if word in PRESSED else "strength")
