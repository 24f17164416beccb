"""CSV text of float rows, shared by every part that writes a table (traces, sweeps,
force curves)."""

from __future__ import annotations

import numpy as np


def format_rows(columns: tuple[str, ...], rows: np.ndarray) -> str:
    """CSV text with every float written as its shortest exact repr (byte-stable).

    Adding 0.0 turns -0.0 into 0.0 and leaves every other value as it is.
    """
    body = "\n".join(",".join(repr(float(v) + 0.0) for v in row) for row in rows)
    return ",".join(columns) + "\n" + body + ("\n" if len(rows) else "")
