# The pedals' speed of the kinematic models (speed_control.py), shared by their templates.

func _speed_after_wall(angle: float) -> float:
	# a wall met: the speed is the share along `angle` (the heading) of what the body
	# moved, in m/s (as the sandbox feeds it back); Godot 4's floating move_and_slide
	# leaves `velocity` as it was set, so that would keep pressing into the wall
	var moved := get_real_velocity()
	return (moved.x * cos(angle) + moved.y * sin(angle)) / pixels_per_metre


func _next_speed(current: float, throttle: float, brake: float, dt: float) -> float:
	# the pedals: the brake wins, and held at rest drives in reverse; no pedal coasts to 0
	var accel := acceleration * dt
	var slowing := braking * dt
	if brake > 0:
		if current > 0:
			return maxf(0.0, current - slowing * brake)
		var target := -reverse_speed * brake
		if current < target:
			# the pedal eased off: back to its reverse speed at the coasting rate
			target = minf(target, current + coast * dt)
		return maxf(target, current - accel * brake)
	if throttle > 0:
		if current > max_speed:
			return maxf(max_speed, current - coast * dt)
		if current < 0:
			return minf(0.0, current + slowing * throttle)
		return minf(max_speed, current + accel * throttle)
	return signf(current) * maxf(0.0, absf(current) - coast * dt)
