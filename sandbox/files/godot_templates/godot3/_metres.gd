# Shared by the templates of the models in metres: starting at the node, moving it, the
# tick length, and the arithmetic Godot 3's built-ins would round to 32 bits.

func _start_at_node():
	# the input actions the car reads, and the model where the node stands, turned as it is
	_add_missing_actions()
	pos_x = position.x / pixels_per_metre
	pos_y = position.y / pixels_per_metre
	heading = rotation


func _place(delta, x0, y0):
	# move the node to the model's position, in pixels, the model having come from (x0, y0)
	# m this tick; where something in the way stops it, the model goes on from where the
	# engine left it (true: it did). The engine is asked for the model's own move, not for
	# the way from the node's 32-bit position: a car at rest asks exactly nothing
	var target = Vector2(pos_x, pos_y) * pixels_per_metre
	var moved = Vector2(pos_x - x0, pos_y - y0) * pixels_per_metre
	velocity = move_and_slide(moved / delta)
	var collided = get_slide_count() > 0
	if collided:
		pos_x = position.x / pixels_per_metre
		pos_y = position.y / pixels_per_metre
	else:
		position = target
	return collided


func _tick_length(delta):
	# the tick as the sandbox takes it, exactly 1 / the tick rate: Godot 3 hands delta over
	# as a 32-bit float, which is not 1 / 60 to the sandbox's precision
	return 1.0 / round(1.0 / delta)


func _min(a, b):
	# the smaller, as the sandbox takes it: Godot 3's min() rounds floats to 32 bits
	return b if b < a else a


func _max(a, b):
	# the larger, as the sandbox takes it: Godot 3's max() rounds floats to 32 bits
	return b if b > a else a


func _sign(x):
	# np.sign as the sandbox takes it (NaN stays NaN): Godot 3's sign() rounds to 32 bits,
	# so a speed of 1e-50 has the sign 0 there
	if x > 0:
		return 1.0
	if x < 0:
		return -1.0
	return 0.0 if x == 0 else x
