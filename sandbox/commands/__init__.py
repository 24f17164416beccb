"""The command line's commands, one module each (`run(args)`), and what they share:
argument types, progress lines, the terminal-safe output. Each imports the physics,
the files and Qt inside its `run`, so that parsing and `--help` stay fast."""
