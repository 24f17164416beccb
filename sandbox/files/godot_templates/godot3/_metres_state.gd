# The state every template of a model in metres starts with (the rest is the model's own).

# The car in metres, seconds and radians, as 64-bit floats (the node's own vectors are
# 32-bit in Godot 3): the node is moved to it each tick.
var pos_x = 0.0
var pos_y = 0.0
var heading = 0.0
