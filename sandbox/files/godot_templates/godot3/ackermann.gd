# Ackermann kinematics from D. Zorin's notes on a turning car, Godot 3.
{{HEADER}}
extends KinematicBody2D

{{CONSTANTS}}
const RADIANS = PI / 180.0
# the inner wheel's widest angle: wider would put the centre of the turn inside the car
const MAX_INNER = 89.0 * RADIANS

{{PARAMS}}
{{SCALE}}

{{METRES_STATE}}
var steer_feel = 0.0  # the steer held by the steering feel, -1 … 1
var speed = 0.0
var alpha = 0.0  # the outer front wheel's angle
var beta = 0.0  # the inner front wheel's angle
var omega = 0.0  # yaw rate, rad/s
var velocity = Vector2.ZERO


func _ready():
	_start_at_node()


func _physics_process(delta):
	var turn = Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")
	var speed_size = speed if speed >= 0 else -speed
	turn = feel_steer(turn, speed_size, 0.0, false, max_steer, _tick_length(delta))
	var throttle = Input.get_action_strength("accelerate")
	var x0 = pos_x  # where the model starts the tick, m
	var y0 = pos_y
	step(turn, throttle, Input.get_action_strength("brake"), _tick_length(delta))
	rotation = heading  # the body meets walls at the new heading
	if _place(delta, x0, y0):
		speed = _speed_after_wall(heading)


func step(steer_in, throttle, brake, dt):
	var x0 = pos_x
	var y0 = pos_y
	var h = heading
	speed = _next_speed(speed, throttle, brake, dt)
	var side = _sign(steer_in)  # +1: the centre on the right
	var length = wheel_base
	var width = track_width
	alpha = _min(abs(steer_in) * (max_steer * RADIANS), _outer_limit(width, length))
	var turning = alpha > 1e-9
	beta = 0.0
	if turning:
		beta = _inner_angle(alpha, width, length)
	var dx = cos(h)
	var dy = sin(h)
	omega = 0.0
	if turning:
		# 1.-3.: the outer rear wheel, the centre l·cot α across from it, and the turn about it
		var ex = -dy * side
		var ey = dx * side
		var reach = length / tan(alpha)
		var rear_x = x0 - length / 2.0 * dx - width / 2.0 * ex
		var rear_y = y0 - length / 2.0 * dy - width / 2.0 * ey
		var cx = rear_x + reach * ex
		var cy = rear_y + reach * ey
		omega = side * speed / reach
		var c = cos(omega * dt)
		var s = sin(omega * dt)
		pos_x = cx + c * (x0 - cx) - s * (y0 - cy)
		pos_y = cy + s * (x0 - cx) + c * (y0 - cy)
	else:
		pos_x = x0 + speed * dt * dx
		pos_y = y0 + speed * dt * dy
	heading = atan2(sin(h + omega * dt), cos(h + omega * dt))


func _inner_angle(outer, width, length):
	# cot β = cot α − w/l: the axes of all four wheels meet in one centre
	var cot_beta = 1.0 / tan(outer) - width / length
	return atan2(1.0, cot_beta)


func _outer_limit(width, length):
	# the widest α whose inner angle stays at MAX_INNER
	return atan2(1.0, 1.0 / tan(MAX_INNER) + width / length)


{{SPEED_CONTROL}}


{{METRES}}


{{STEER_FEEL}}


{{ADD_ACTIONS}}
