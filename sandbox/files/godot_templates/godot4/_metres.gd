# Shared by the templates of the models in metres: starting at the node, and moving it.

func _start_at_node() -> void:
	# a top-down car: no floor and no walls, whatever it meets it slides along
	motion_mode = CharacterBody2D.MOTION_MODE_FLOATING
	# the input actions the car reads, and the model where the node stands, turned as it is
	_add_missing_actions()
	_pos_x = position.x / pixels_per_metre
	_pos_y = position.y / pixels_per_metre
	_heading = rotation


func _place(delta: float, x0: float, y0: float) -> bool:
	# move the node to the model's position, in pixels, the model having come from (x0, y0)
	# m this tick; where something in the way stops it, the model goes on from where the
	# engine left it (true: it did). The engine is asked for the model's own move, not for
	# the way from the node's 32-bit position: a car at rest asks exactly nothing
	var target := Vector2(_pos_x, _pos_y) * pixels_per_metre
	var moved := Vector2(_pos_x - x0, _pos_y - y0) * pixels_per_metre
	velocity = moved / delta
	move_and_slide()
	var collided := get_slide_collision_count() > 0
	if collided:
		_pos_x = position.x / pixels_per_metre
		_pos_y = position.y / pixels_per_metre
	else:
		position = target
	return collided
