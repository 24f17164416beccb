# The steering feel, shared by every template: the steer the model reads from the steer input.

func _feel_steer(
	turn: float, car_speed: float, assist: float, assisted: bool, full_lock: float, dt: float
) -> float:
	# the steering feel (car-sandbox; its Models page, "Steering feel"): the steer the model
	# reads this tick from the input turn (-1 … 1) at car_speed (per second), given the
	# assists' front wheel angle (rad; assisted: an assist is on) and the full lock (°):
	# the assists, the steering rate, the full lock at this speed; at the defaults the input
	var locks := lock_at_1 == 100 and lock_at_2 == 100 and lock_at_3 == 100
	if steer_time == 0 and return_time == 0 and locks and not assisted:
		_steer_feel = turn
		return turn
	var share := _feel_share(car_speed, lock_at_1, lock_at_2, lock_at_3) / 100.0
	var target := turn
	var full := full_lock * (PI / 180.0) * share
	if full > 0:
		target += assist / full
	if target < -1.0:
		target = -1.0
	elif target > 1.0:
		target = 1.0
	var held := _steer_feel
	var target_size := target if target >= 0 else -target
	var held_size := held if held >= 0 else -held
	# toward the centre (not across it): the return time; else the steer time
	var time := steer_time
	if target * held >= 0 and target_size < held_size:
		time = return_time
	if time > 0:
		var rate := _feel_share(car_speed, rate_at_1, rate_at_2, rate_at_3) / 100.0
		var stride := dt / time * rate
		var gap := target - held
		var gap_size := gap if gap >= 0 else -gap
		if gap_size <= stride * 1.000000001:  # short by rounding alone: there
			held = target
		else:
			held = held + (stride if gap > 0 else -stride)
	else:
		held = target
	_steer_feel = held
	return held * share


func _feel_share(v: float, a1: float, a2: float, a3: float) -> float:
	# the share at speed v on the straight lines through the three speed points, flat
	# before the first and after the last
	if v <= speed_point_1:
		return a1
	if v <= speed_point_2:
		return a1 + (a2 - a1) * (v - speed_point_1) / (speed_point_2 - speed_point_1)
	if v <= speed_point_3:
		return a2 + (a3 - a2) * (v - speed_point_2) / (speed_point_3 - speed_point_2)
	return a3
