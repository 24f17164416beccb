# The assists, shared by the templates of the models with slip angles.

func _feel_with_assists(
	turn: float, vel_x: float, vel_y: float, nose: float, full_lock: float, dt: float
) -> float:
	# the steering feel of a model with slip angles, moving at (vel_x, vel_y) per second
	# with its nose at the heading nose (rad): its assists' angle, then _feel_steer
	var assisted := countersteer_help != 0 or drift_hold != 0
	var assist := 0.0
	if assisted:
		assist = _steer_assist(vel_x, vel_y, nose, ASSIST_MIN_SPEED)
	var car_speed := sqrt(vel_x * vel_x + vel_y * vel_y)
	return _feel_steer(turn, car_speed, assist, assisted, full_lock, dt)


func _steer_assist(vel_x: float, vel_y: float, nose: float, min_speed: float) -> float:
	# the assists' front wheel angle (rad) of a car moving at (vel_x, vel_y) with its nose
	# at the heading nose (rad): counter-steer help past its slip angle and the drift hold
	# toward its angle, moving forward faster than min_speed (per second)
	var car_speed := sqrt(vel_x * vel_x + vel_y * vel_y)
	if car_speed < min_speed or vel_x * cos(nose) + vel_y * sin(nose) <= 0:
		return 0.0
	var beta := atan2(vel_y, vel_x) - nose
	beta = atan2(sin(beta), cos(beta))  # the slip angle, positive: the velocity right of the nose
	var side := 1.0 if beta > 0 else -1.0
	var size := beta if beta >= 0 else -beta
	var out := 0.0
	var help := countersteer_help / 100.0
	var threshold := countersteer_slip * (PI / 180.0)
	if help > 0 and size > threshold:
		out += help * (size - threshold) * side
	var hold := drift_hold / 100.0
	var angle := drift_hold_angle * (PI / 180.0)
	if hold > 0 and size > angle / 2.0:
		# from nothing at half the angle: no jerk as a drift takes hold
		var weight := (size - angle / 2.0) / (angle / 2.0)
		if weight > 1.0:
			weight = 1.0
		out += weight * hold * (beta - side * angle)
	return out
