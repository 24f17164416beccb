"""`bench` and `soak`: developer runs that print their figures and write them as JSON
(by default into the user cache folder)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import printable


def report_path(name: str) -> Path:
    """Default place of a developer report (`bench.json`, `soak.json`): the user cache
    folder (platformdirs), created if needed; the current folder if it cannot be."""
    import platformdirs

    folder = Path(platformdirs.user_cache_dir("car-sandbox", appauthor=False))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path(name)
    return folder / name


def bench(args) -> None:
    from ..devtools.bench import report, run
    from ..files.disk import write_text_atomic

    figures = run(quick=args.quick)
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    write_text_atomic(args.out, json.dumps(figures, indent=2) + "\n")
    print(f"wrote {printable(args.out)}", file=sys.stderr)


def soak(args) -> None:
    from ..devtools.soak import HEADER, minute_line, report, run
    from ..files.disk import write_text_atomic

    print(HEADER, flush=True)
    result = run(args.minutes, on_minute=lambda r: print(minute_line(r), flush=True))
    print(report(result))
    write_text_atomic(args.out, json.dumps(result, indent=2) + "\n")
    print(f"wrote {printable(args.out)}", file=sys.stderr)
