# Shared by the templates of the models in metres: starting at the node, and moving it.

func _start_at_node() -> void:
	# a top-down car: no floor and no walls, whatever it meets it slides along
	motion_mode = CharacterBody2D.MOTION_MODE_FLOATING
	# the input actions the car reads, and the model where the node stands, turned as it is
	_add_missing_actions()
	_pos_x = position.x / pixels_per_metre
	_pos_y = position.y / pixels_per_metre
	_heading = rotation


func _place(delta: float) -> bool:
	# move the node to the model's position, in pixels; where something in the way stops
	# it, the model goes on from where the engine left it (true: it did)
	var target := Vector2(_pos_x, _pos_y) * pixels_per_metre
	velocity = (target - position) / delta
	move_and_slide()
	var collided := get_slide_collision_count() > 0
	if collided:
		_pos_x = position.x / pixels_per_metre
		_pos_y = position.y / pixels_per_metre
	else:
		position = target
	return collided
