# The pedals' speed of the kinematic models (speed_control.py), shared by their templates.

func _speed_after_wall(angle):
	# a wall met: the speed is the share along `angle` (the heading) of the velocity
	# move_and_slide returned, slid along the wall, in m/s (as the sandbox feeds it back)
	return (velocity.x * cos(angle) + velocity.y * sin(angle)) / pixels_per_metre


func _next_speed(current, throttle, brake, dt):
	# the pedals: the brake wins, and held at rest drives in reverse; no pedal coasts to 0
	var accel = acceleration * dt
	var slowing = braking * dt
	if brake > 0:
		if current > 0:
			return _max(current - slowing * brake, 0.0)
		var target = -reverse_speed * brake
		if current < target:
			# the pedal eased off: back to its reverse speed at the coasting rate
			target = _min(current + coast * dt, target)
		return _max(current - accel * brake, target)
	if throttle > 0:
		if current > max_speed:
			return _max(current - coast * dt, max_speed)
		if current < 0:
			return _min(current + slowing * throttle, 0.0)
		return _min(current + accel * throttle, max_speed)
	return _sign(current) * _max(abs(current) - coast * dt, 0.0)
