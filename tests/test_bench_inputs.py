"""`bench`'s largest-inputs figures run the program as a user does (`python -m sandbox`)
in a child process and read its peak memory there."""

import pytest

from sandbox.devtools.bench_inputs import _measured


def test_a_command_is_measured_in_its_own_process():
    figures = _measured("params", "--json")
    assert figures["code"] == 0
    assert figures["seconds"] > 0
    assert figures["peak_mb"] > 10  # the interpreter and numpy at least: the child's own mark


def test_a_failing_command_is_said_with_its_message():
    with pytest.raises(RuntimeError, match="(?s)car-sandbox params failed: .*unrecognized arguments: --no-such-option"):
        _measured("params", "--no-such-option")
