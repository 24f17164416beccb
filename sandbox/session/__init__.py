"""What is driven, without a window: the live car, where its controls come from, the
ghosts, recording and replay, the odometers and gaps, and the frame clock.

The window (sandbox.ui) observes a `DriveSession` and draws it; the session imports no
Qt, so it is tested without one. A new source of controls (a game controller, a network
peer, a driver program) is a `ControlSource`; a new car beside the driven one is a ghost.
"""
