# Ackermann kinematics from D. Zorin's notes on a turning car, Godot 4.
{{HEADER}}
extends CharacterBody2D

{{CONSTANTS}}
const RADIANS: float = PI / 180.0
# the inner wheel's widest angle: wider would put the centre of the turn inside the car
const MAX_INNER: float = 89.0 * RADIANS

{{SCALE}}

{{PARAMS}}

{{METRES_STATE}}
var _steer_feel := 0.0  # the steer held by the steering feel, -1 … 1
var _speed: float = 0.0
var _alpha: float = 0.0  # the outer front wheel's angle
var _beta: float = 0.0  # the inner front wheel's angle
var _omega: float = 0.0  # yaw rate, rad/s


func _ready() -> void:
	_start_at_node()


func _physics_process(delta: float) -> void:
	# delta is the sandbox's tick: 1.0 / physics_ticks_per_second in 64 bits (× Engine.time_scale)
	var turn := Input.get_axis("steer_left", "steer_right")
	var speed_size := _speed if _speed >= 0 else -_speed
	turn = _feel_steer(turn, speed_size, 0.0, false, max_steer, delta)
	var throttle := Input.get_action_strength("accelerate")
	var x0 := _pos_x  # where the model starts the tick, m
	var y0 := _pos_y
	_step(turn, throttle, Input.get_action_strength("brake"), delta)
	rotation = _heading  # the body meets walls at the new heading
	if _place(delta, x0, y0):
		_speed = _speed_after_wall(_heading)


func _step(steer_in: float, throttle: float, brake: float, dt: float) -> void:
	var x0 := _pos_x
	var y0 := _pos_y
	var h := _heading
	_speed = _next_speed(_speed, throttle, brake, dt)
	var side := signf(steer_in)  # +1: the centre on the right
	var length := wheel_base
	var width := track_width
	_alpha = minf(_outer_limit(width, length), absf(steer_in) * (max_steer * RADIANS))
	var turning := _alpha > 1e-9
	_beta = 0.0
	if turning:
		_beta = _inner_angle(_alpha, width, length)
	var dx := cos(h)
	var dy := sin(h)
	_omega = 0.0
	if turning:
		# 1.-3.: the outer rear wheel, the centre l·cot α across from it, and the turn about it
		var ex := -dy * side
		var ey := dx * side
		var reach := length / tan(_alpha)
		var rear_x := x0 - length / 2.0 * dx - width / 2.0 * ex
		var rear_y := y0 - length / 2.0 * dy - width / 2.0 * ey
		var cx := rear_x + reach * ex
		var cy := rear_y + reach * ey
		_omega = side * _speed / reach
		var c := cos(_omega * dt)
		var s := sin(_omega * dt)
		_pos_x = cx + c * (x0 - cx) - s * (y0 - cy)
		_pos_y = cy + s * (x0 - cx) + c * (y0 - cy)
	else:
		_pos_x = x0 + _speed * dt * dx
		_pos_y = y0 + _speed * dt * dy
	_heading = atan2(sin(h + _omega * dt), cos(h + _omega * dt))


func _inner_angle(outer: float, width: float, length: float) -> float:
	# cot β = cot α − w/l: the axes of all four wheels meet in one centre
	var cot_beta := 1.0 / tan(outer) - width / length
	return atan2(1.0, cot_beta)


func _outer_limit(width: float, length: float) -> float:
	# the widest α whose inner angle stays at MAX_INNER
	return atan2(1.0, 1.0 / tan(MAX_INNER) + width / length)


{{SPEED_CONTROL}}


{{METRES}}


{{STEER_FEEL}}


{{ADD_ACTIONS}}
