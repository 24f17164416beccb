# The state every template of a model in metres starts with (the rest is the model's own).

# The car in metres, seconds and radians, as 64-bit floats (the node's own Vector2 is
# 32-bit in Godot's standard builds): the node is moved to it each tick. The bound comes
# first in minf and maxf, so that a tie gives what the sandbox's min and max give.
var _pos_x: float = 0.0
var _pos_y: float = 0.0
var _heading: float = 0.0
