"""The list of metrics in `sweep --help` and `tune --help`, built only when the help is shown."""

from __future__ import annotations

import argparse


class MetricsHelp(argparse.RawDescriptionHelpFormatter):
    """`sweep --help` and `tune --help` with the list of metrics, built from the metrics' declarations
    only when the help is shown (loading them loads the physics: too slow for every
    start of the command)."""

    def add_text(self, text):
        if text == METRICS_EPILOG:
            text = metrics_help()
        elif text == TUNE_EPILOG:  # tune has no --metric and no CSV: its targets name the metrics
            text = metrics_help(["metrics (--target NAME=VALUE[±TOL]; in the model's units;"])
        super().add_text(text)


METRICS_EPILOG = "(the metrics)"
TUNE_EPILOG = "(the metrics a target names)"


def metrics_help(intro: list[str] | None = None) -> str:
    """The metrics `--metric` (or `intro`'s option) takes, one a line: name and what it is."""
    from ..analysis.metrics import METRICS

    width = max(len(name) for name in METRICS)
    lines = (intro or ["metrics (--metric NAME; every one is written to the CSV;"]) + [
        '"100" is 100 px/s, or 100 km/h for models in metres):'
    ]
    lines += [f"  {name:{width}s}  {metric.label}" for name, metric in METRICS.items()]
    return "\n".join(lines)
