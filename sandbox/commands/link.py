"""`link`: listen for the running game (docs/link.md), say what it is (and when another
game, or the game restarted, takes its place), send it values, record its drive, and
say what arrived and what was dropped; as text or one JSON object. Every text of the
game's is shown through link.game.from_game."""

from __future__ import annotations

import argparse
import difflib
import json
import math
import sys
import time

from ..errors import UserError, printable, shown
from .arguments import number_in

ACK_WAIT_S = 5.0
"""s to wait for the game's ack of the values sent (many ticks of a running game)."""
LOOK_S = 0.1
"""s between looks at the link while linked (a game changed, a recording ended)."""


def set_value(text: str) -> tuple[str, float | bool]:
    """A --set argument NAME=VALUE: VALUE a finite number, or true/false for an option."""
    name, equals, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"{shown(repr(text))} is not NAME=VALUE (e.g. engine_power=900)")
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    from ..files.json_text import GivenNumber

    try:
        number = GivenNumber(value)  # messages quote it as given: -5, not -5.0
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name}: {shown(repr(value))} is not a number (nor true/false)") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{name}: {shown(value)} is not a finite number")
    return name, number


def port_number(text: str) -> int:
    return int(number_in(text, "port", 0, 65535, whole=True))


def link_host(text: str) -> str:
    from ..link.protocol import LinkError, check_host

    try:
        return check_host(text)
    except LinkError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def link_token(text: str) -> str:
    from ..link.protocol import LinkError, check_token

    try:
        return check_token(text)
    except LinkError as exc:
        raise argparse.ArgumentTypeError(
            f"{exc}: leave it out for a new one, and give that to the link node's token property"
        ) from None


def wait_seconds(text: str) -> float:
    return number_in(text, "wait", 0.1, 3600, " s")


def linked_seconds(text: str) -> float:
    return number_in(text, "duration", 0.1, 3600, " s")


def checked_sets(pairs: list[tuple[str, float | bool]], game) -> dict[str, float | bool]:
    """The --set values, each checked against the game's mapped parameters and, when the
    game names a model this sandbox has, against that model's declaration (range, kind);
    UserError names the first bad one (nothing is sent)."""
    from ..link.game import names_from_game
    from ..physics.models import MODELS

    values = dict(pairs)
    twice = sorted({name for name, _ in pairs if [n for n, _ in pairs].count(name) > 1})
    if twice:
        raise UserError(f"--set {twice[0]} is given more than once: which value is meant? (nothing sent)")
    model = MODELS.get(game.model)
    declared = {p.name: p for p in model.PARAMS} if model else {}
    for name, value in values.items():
        if model is not None and name not in declared:
            close = difflib.get_close_matches(name, list(declared), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise UserError(f"--set {shown(name)}: the {model.NAME} model has no such parameter{hint}; nothing sent")
        if name in game.missing:
            raise UserError(f"--set {shown(name)}: the game's car script has no variable for it; nothing sent")
        if name not in game.params:
            known = names_from_game(sorted(game.params)) or "none"
            raise UserError(f"--set {shown(name)}: the game's link node maps no such parameter (it maps: {known})")
        if model is not None:
            try:
                values[name] = declared[name].under({**game.params, **values}).check(value)
            except ValueError as exc:
                raise UserError(f"--set {shown(name)}: {exc}; nothing sent") from None
    return values


def _text(value: float | bool) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else f"{value:g}"


def _values_text(values: dict) -> str:
    from ..link.game import from_game

    return ", ".join(f"{from_game(name)} {_text(value)}" for name, value in values.items()) or "none"


def _game_report(game) -> dict:
    """The game as the JSON report gives it (its texts as sent: JSON escapes them)."""
    return {
        "name": game.game, "godot": game.godot, "model": game.model, "format": game.format, "hz": game.hz,
        "units": game.units, "values": game.params, "missing": list(game.missing),
        "address": f"{game.address[0]}:{game.address[1]}",
    }  # fmt: skip


def _linger(server, seconds: float, args, report: dict, game) -> None:
    """Stay linked `seconds` s, taking the telemetry as the window would (the queue
    stays empty: nothing dropped for want of a reader), saying when another game (or
    the game restarted) takes `game`'s place; a recording that ends at such a change
    ends the stay (what it holds is written at once)."""
    from ..link.game import change_text

    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(LOOK_S, left))
        server.take()
        status = server.status()
        now = status.game
        if now is not None and (game is None or now.number != game.number):
            text = change_text(game, now)
            _say(args, text)
            report["changes"].append({"at_s": round(seconds - left, 3), "said": text, "game": _game_report(now)})
            game = now
        if status.recording_ended and args.out is not None:
            _say(args, f"recording: {status.recording_ended}")
            return


def run(args) -> int:
    from ..link.record_target import replaced_recording
    from ..link.server import LinkServer

    pairs = args.set or []
    if args.out is not None and args.seconds is None:
        raise UserError("--record needs --seconds: how long to record the game's drive")
    args.replaces = replaced_recording(args.out) if args.out is not None else None  # before linking
    server = LinkServer(port=args.port, host=args.host, token=args.token)
    server.start()
    try:
        report, code = _linked(server, args, pairs)
    finally:
        server.stop()
    status = server.status()
    report.update(messages=status.received, dropped=status.dropped, lost_ticks=status.lost_ticks, rtt_ms=status.rtt_ms)
    if report.get("error"):
        print(f"car-sandbox link: {report['error']}", file=sys.stderr)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        dropped = ", ".join(f"{reason} {count:,d}" for reason, count in sorted(status.dropped.items())) or "none"
        rtt = "none measured" if status.rtt_ms is None else f"{status.rtt_ms:.2f} ms"
        print(f"messages received: {status.received:,d}; dropped: {dropped}")
        print(f"ticks lost: {status.lost_ticks:,d}; round trip: {rtt}")
    return code


def _say(args, text: str) -> None:
    """A line for the person at the terminal: stdout, or stderr under --json (where
    stdout holds only the JSON)."""
    print(text, file=sys.stderr if args.json else sys.stdout, flush=True)


def _linked(server, args, pairs) -> tuple[dict, int]:
    """Everything between listening and the summary: (the report so far, exit code)."""
    from ..link.protocol import LinkError

    host, port, token = server.host, server.port, server.token
    report: dict = {"host": host, "port": port, "token": token, "game": None, "set": None, "recording": None}
    report["changes"] = []
    _say(args, f"listening on {host} port {port}, token {token}")
    _say(args, f"In the game, give the link node port {port} and token {token}, then run it.")
    if server.warning:
        print(f"car-sandbox link: warning: {server.warning}", file=sys.stderr)
    _say(args, f"waiting up to {args.wait:g} s for the game…")
    game = server.wait_for_game(args.wait)
    if game is None:
        report["error"] = (
            f"no game said hello within {args.wait:g} s on {host} port {port}: is the game running, "
            f"with the link node's port {port} and token {token}?"
        )
        return report, 1
    from ..link.game import REASON_CHARS, from_game, names_from_game

    report["game"] = _game_report(game)
    model = f"model {from_game(game.model)}" + (f" (format {game.format})" if game.format is not None else "")
    model = model if game.model else "no model named"
    _say(args, f"game: {from_game(game.game)} (Godot {from_game(game.godot)}), {model}, {game.hz:g} Hz, "
               f"lengths in {from_game(game.units)}")  # fmt: skip
    _say(args, f"values: {_values_text(game.params)}")
    if game.missing:
        _say(args, f"missing in the game's car script: {names_from_game(game.missing)}")
    if game.switches or game.switches_ignored:  # what a recording states, for the fit
        from ..analysis.fit_switches import on_off

        report["game"]["switches"] = game.switches
        left = game.switches_ignored
        left_text = f" ({left} of its entries left out: not the model's on/off options)" if left else ""
        stated = on_off(game.switches) if game.switches else "none"
        _say(args, f"switches of the game's car script: {stated}{left_text}")
    code = 0
    if pairs:
        values = checked_sets(pairs, game)
        seq = server.send_set(values)
        _say(args, f"sent: {_values_text(values)}")
        ack = server.wait_applied(seq, ACK_WAIT_S)
        report["set"] = {"seq": seq, "sent": values, "applied": None, "refused": None}
        if ack is None:
            report["error"] = f"the game did not acknowledge the values within {ACK_WAIT_S:g} s"
            return report, 1
        report["set"].update(applied=ack["applied"], refused=ack["refused"], tick=ack["tick"])
        _say(args, f"applied at tick {ack['tick']}: {_values_text(ack['applied'])}")
        for name, why in ack["refused"].items():
            _say(args, f"refused by the game: {from_game(name)}: {from_game(why, REASON_CHARS)}")
        code = 1 if ack["refused"] else 0
    if args.seconds is not None:
        if args.out is not None:
            server.start_recording()
            kept = f" (the recording there now is kept as {printable(args.replaces)})" if args.replaces else ""
            _say(args, f"recording {args.seconds:g} s to {printable(args.out)}{kept}")
        _linger(server, args.seconds, args, report, game)
        if args.out is not None:
            try:
                summary = server.stop_recording(args.out)
            except LinkError as exc:
                report["error"] = str(exc)
                return report, 1
            report["recording"] = {
                "path": str(summary.path), "rows": summary.rows, "seconds": summary.seconds,
                "lost_ticks": summary.lost_ticks, "columns": list(summary.columns),
                "backup": None if summary.backup is None else str(summary.backup), "ended": summary.ended,
            }  # fmt: skip
            lost = f"; {summary.lost_ticks:,d} ticks lost on the way (left out)" if summary.lost_ticks else ""
            kept = f"; the older recording is kept as {printable(summary.backup)}" if summary.backup else ""
            where = printable(summary.path)
            _say(args, f"recorded {summary.rows:,d} ticks ({summary.seconds:.2f} s) to {where}{lost}{kept}")
            if summary.ended:
                _say(args, f"the recording is shorter than asked: {summary.ended}")
                code = 1
    return report, code
