"""The live link to a running Godot game: JSON messages over UDP on 127.0.0.1 (the
protocol is written down in docs/link.md), the listening end, and recording the game's
drive. Imports no Qt: the window and the `link` command both drive it."""
