# Kinematic bicycle of "Simple 2D car steering physics in games" (2010), Godot 3.
{{HEADER}}
extends KinematicBody2D

{{CONSTANTS}}
const RADIANS = PI / 180.0
const HISTORY = 128  # ticks of heading kept for the drift delay
const UNSET = 1000000000.0  # the history's first slot while it holds nothing

{{PARAMS}}
{{SCALE}}

{{METRES_STATE}}
var steer_feel = 0.0  # the steer held by the steering feel, -1 … 1
var display_heading = 0.0
var speed = 0.0
var steer = 0.0
var ticks = 0
var heading_history = []
var velocity = Vector2.ZERO


func _ready():
	_start_at_node()
	display_heading = rotation
	for _k in range(HISTORY):
		heading_history.append(UNSET)


func _physics_process(delta):
	var turn = Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")
	var speed_size = speed if speed >= 0 else -speed
	turn = feel_steer(turn, speed_size, 0.0, false, max_steer, _tick_length(delta))
	var throttle = Input.get_action_strength("accelerate")
	var x0 = pos_x  # where the model starts the tick, m
	var y0 = pos_y
	step(turn, throttle, Input.get_action_strength("brake"), _tick_length(delta))
	# the body meets walls turned to the model's heading; drawn at the drift's heading
	rotation = heading
	if _place(delta, x0, y0):
		speed = _speed_after_wall(heading)
	rotation = display_heading


func step(steer_in, throttle, brake, dt):
	# the blog's six lines: both wheels move, then the wheel base is rebuilt
	var x0 = pos_x
	var y0 = pos_y
	var h = heading
	speed = _next_speed(speed, throttle, brake, dt)
	steer = _steer(steer_in, steer, speed, dt)
	var motion = _motion_heading(dt)
	var length = wheel_base
	var r = speed * dt
	var ch = cos(h)
	var sh = sin(h)
	var cm = ch
	var sm = sh
	if motion != h:
		cm = cos(motion)
		sm = sin(motion)
	var half = length / 2.0
	var bx = x0 - half * ch
	var by = y0 - half * sh
	var fx = x0 + half * ch
	var fy = y0 + half * sh
	var front = r
	if keep_wheel_base:
		# the comment thread: the front wheel travels what keeps the wheels a wheel base apart
		var b = (length - r) * cos(steer)
		front = sqrt(_max(b * b + r * (2.0 * length - r), 0.0)) - b
	bx = bx + r * cm
	by = by + r * sm
	var wheel_direction = motion + steer
	fx = fx + front * cos(wheel_direction)
	fy = fy + front * sin(wheel_direction)
	var x = (fx + bx) / 2.0
	var y = (fy + by) / 2.0
	var new_heading = atan2(fy - by, fx - bx)
	if exact_arc:
		# a rigid car turned about the instantaneous centre, L/tan(steer) out from the rear axle
		var sin_steer = sin(steer)
		var turn = speed * sin_steer / length * dt
		if abs(sin_steer) > 1e-12:
			var radius = length / tan(steer)
			var cx = x0 - half * cm - radius * sm
			var cy = y0 - half * sm + radius * cm
			var c = cos(turn)
			var s = sin(turn)
			x = cx + c * (x0 - cx) - s * (y0 - cy)
			y = cy + s * (x0 - cx) + c * (y0 - cy)
		else:
			x = x0 + r * cm
			y = y0 + r * sm
		new_heading = atan2(sin(h + turn), cos(h + turn))
	ticks += 1
	pos_x = x
	pos_y = y
	heading = new_heading
	display_heading = heading + steer * (speed / _max(max_speed, 1e-9)) * drift_overrotate
	if drift_delay > 0:
		heading_history[ticks % HISTORY] = heading


{{SPEED_CONTROL}}


func _steer(steer_in, current, now_speed, dt):
	var target = steer_in * (max_steer * RADIANS)
	if not steer_rate > 0:
		return target
	var goal = target
	var most = steer_rate * RADIANS * dt
	if steer_in == 0:
		# back to centre at the return rate, optionally scaled by speed / top speed
		var factor = 1.0
		if return_with_speed:
			factor = abs(now_speed) / _max(max_speed, 1e-9)
		goal = 0.0
		most = return_rate * RADIANS * dt * factor
	return current + _min(_max(goal - current, -most), most)


func _motion_heading(dt):
	# the heading the wheels move along: with the drift delay, the one of that long ago
	if not drift_delay > 0:
		heading_history[0] = UNSET
		return heading
	if heading_history[0] == UNSET:
		for k in range(HISTORY):
			heading_history[k] = heading
	var lag = _min(_min(_round_half_even(_min(drift_delay / dt, float(HISTORY))), HISTORY - 1), ticks)
	if lag > 0:
		return heading_history[(ticks - int(lag)) % HISTORY]
	return heading


func _round_half_even(value):
	# the sandbox rounds a tie to the even neighbour; GDScript's round() away from zero
	var low = floor(value)
	var rest = value - low
	if rest > 0.5 or (rest == 0.5 and fmod(low, 2.0) != 0.0):
		low += 1.0
	return int(low)


{{METRES}}


{{STEER_FEEL}}


{{ADD_ACTIONS}}
