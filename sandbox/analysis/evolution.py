"""The CMA-ES (the `cma` package) the auto-tune and the fit search slider coordinates
with: every coordinate within 0 … 1, one generation asked as one batch."""

from __future__ import annotations

import warnings

import numpy as np

# cma offers plots through matplotlib, which the sandbox neither uses nor installs
warnings.filterwarnings("ignore", message="Could not import matplotlib", module="cma")


def strategy(start: np.ndarray, sigma: float, seed: int, popsize: int | None = None, **options):
    """A CMA-ES from coordinates `start` with step `sigma` (coordinates), bounded to
    0 … 1, quiet, reproducible for `seed`; `options` are cma's (tolfun, tolx, …).
    One free parameter: CMA-ES needs two dimensions, so a second one rides along
    unused (`ask` leaves it out)."""
    import cma

    settings = {"bounds": [0.0, 1.0], "seed": int(seed), "verbose": -9, "tolfun": 1e-9, "tolx": 1e-6, **options}
    if popsize is not None:
        settings["popsize"] = popsize
    x0 = list(start) if len(start) > 1 else [start[0], 0.5]
    return cma.CMAEvolutionStrategy(x0, sigma, settings)


def ask(es, dimensions: int) -> tuple[np.ndarray, np.ndarray]:
    """(what the strategy asked, as it is told back; its first `dimensions` coordinates)."""
    asked = np.array(es.ask())
    return asked, asked[:, :dimensions]
