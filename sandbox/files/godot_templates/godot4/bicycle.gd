# Kinematic bicycle of "Simple 2D car steering physics in games" (2010), Godot 4.
{{HEADER}}
extends CharacterBody2D

{{CONSTANTS}}
const RADIANS: float = PI / 180.0
const HISTORY: int = 128  # ticks of heading kept for the drift delay
const UNSET: float = 1000000000.0  # the history's first slot while it holds nothing

{{SCALE}}

{{PARAMS}}

{{METRES_STATE}}
var _steer_feel := 0.0  # the steer held by the steering feel, -1 … 1
var _display_heading: float = 0.0
var _speed: float = 0.0
var _steer: float = 0.0
var _ticks: int = 0
var _heading_history: Array[float] = []


func _ready() -> void:
	_start_at_node()
	_display_heading = rotation
	for _k in range(HISTORY):
		_heading_history.append(UNSET)


func _physics_process(delta: float) -> void:
	# delta is the sandbox's tick: 1.0 / physics_ticks_per_second in 64 bits (× Engine.time_scale)
	var turn := Input.get_axis("steer_left", "steer_right")
	var speed_size := _speed if _speed >= 0 else -_speed
	turn = _feel_steer(turn, speed_size, 0.0, false, max_steer, delta)
	var throttle := Input.get_action_strength("accelerate")
	var x0 := _pos_x  # where the model starts the tick, m
	var y0 := _pos_y
	_step(turn, throttle, Input.get_action_strength("brake"), delta)
	# the body meets walls turned to the model's heading; drawn at the drift's heading
	rotation = _heading
	if _place(delta, x0, y0):
		_speed = _speed_after_wall(_heading)
	rotation = _display_heading


func _step(steer_in: float, throttle: float, brake: float, dt: float) -> void:
	# the blog's six lines: both wheels move, then the wheel base is rebuilt
	var x0 := _pos_x
	var y0 := _pos_y
	var h := _heading
	_speed = _next_speed(_speed, throttle, brake, dt)
	_steer = _next_steer(steer_in, _steer, _speed, dt)
	var motion := _motion_heading(dt)
	var length := wheel_base
	var r := _speed * dt
	var ch := cos(h)
	var sh := sin(h)
	var cm := ch
	var sm := sh
	if motion != h:
		cm = cos(motion)
		sm = sin(motion)
	var half := length / 2.0
	var bx := x0 - half * ch
	var by := y0 - half * sh
	var fx := x0 + half * ch
	var fy := y0 + half * sh
	var front := r
	if keep_wheel_base:
		# the comment thread: the front wheel travels what keeps the wheels a wheel base apart
		var b := (length - r) * cos(_steer)
		front = sqrt(maxf(0.0, b * b + r * (2.0 * length - r))) - b
	bx = bx + r * cm
	by = by + r * sm
	var wheel_direction := motion + _steer
	fx = fx + front * cos(wheel_direction)
	fy = fy + front * sin(wheel_direction)
	var x := (fx + bx) / 2.0
	var y := (fy + by) / 2.0
	var new_heading := atan2(fy - by, fx - bx)
	if exact_arc:
		# a rigid car turned about the instantaneous centre, L/tan(steer) out from the rear axle
		var sin_steer := sin(_steer)
		var turn := _speed * sin_steer / length * dt
		if absf(sin_steer) > 1e-12:
			var radius := length / tan(_steer)
			var cx := x0 - half * cm - radius * sm
			var cy := y0 - half * sm + radius * cm
			var c := cos(turn)
			var s := sin(turn)
			x = cx + c * (x0 - cx) - s * (y0 - cy)
			y = cy + s * (x0 - cx) + c * (y0 - cy)
		else:
			x = x0 + r * cm
			y = y0 + r * sm
		new_heading = atan2(sin(h + turn), cos(h + turn))
	_ticks += 1
	_pos_x = x
	_pos_y = y
	_heading = new_heading
	_display_heading = _heading + _steer * (_speed / maxf(1e-9, max_speed)) * drift_overrotate
	if drift_delay > 0:
		_heading_history[_ticks % HISTORY] = _heading


{{SPEED_CONTROL}}


func _next_steer(steer_in: float, current: float, now_speed: float, dt: float) -> float:
	var target := steer_in * (max_steer * RADIANS)
	if not steer_rate > 0:
		return target
	var goal := target
	var most := steer_rate * RADIANS * dt
	if steer_in == 0:
		# back to centre at the return rate, optionally scaled by speed / top speed
		var factor := 1.0
		if return_with_speed:
			factor = absf(now_speed) / maxf(1e-9, max_speed)
		goal = 0.0
		most = return_rate * RADIANS * dt * factor
	return current + clampf(goal - current, -most, most)


func _motion_heading(dt: float) -> float:
	# the heading the wheels move along: with the drift delay, the one of that long ago
	if not drift_delay > 0:
		_heading_history[0] = UNSET
		return _heading
	if _heading_history[0] == UNSET:
		for k in range(HISTORY):
			_heading_history[k] = _heading
	var lag := mini(
		_ticks, mini(HISTORY - 1, _round_half_even(minf(float(HISTORY), drift_delay / dt)))
	)
	if lag > 0:
		return _heading_history[(_ticks - int(lag)) % HISTORY]
	return _heading


func _round_half_even(value: float) -> int:
	# the sandbox rounds a tie to the even neighbour; GDScript's round() away from zero
	var low := floorf(value)
	var rest := value - low
	if rest > 0.5 or (rest == 0.5 and fmod(low, 2.0) != 0.0):
		low += 1.0
	return int(low)


{{METRES}}


{{STEER_FEEL}}


{{ADD_ACTIONS}}
