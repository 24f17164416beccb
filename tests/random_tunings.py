"""Random tunings inside a model's declared ranges, for the robustness tests."""

import numpy as np


def random_tunings(model, seed: int, n: int, edges: float) -> dict:
    """`n` tunings: uniform in each declared range, a share `edges` of the values at the
    range's ends, switches at random; the same `seed` gives the same tunings."""
    rng = np.random.default_rng(seed)
    params = {}
    for p in model.PARAMS:
        if p.is_bool:
            params[p.name] = rng.integers(0, 2, n).astype(bool)
        else:
            values = rng.uniform(p.min, p.max, n)
            at_edge = rng.random(n) < edges
            params[p.name] = np.where(at_edge, np.where(rng.random(n) < 0.5, p.min, p.max), values)
    return params
