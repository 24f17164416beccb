"""`python -m sandbox` and the `car-sandbox` command. The program's modules load inside
`main`, so a Ctrl+C while they load (a second or more on a busy machine) stops it as
a later one does: exit 130 and one line, no traceback."""

import sys


def main() -> int:
    try:
        from .cli import main as command_line
    except KeyboardInterrupt:
        from .commands.terminal import say_stopped

        return say_stopped()
    return command_line()


if __name__ == "__main__":
    sys.exit(main())
