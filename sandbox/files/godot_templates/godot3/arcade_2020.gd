# Car controller from the Godot recipe "Car steering" (KidsCanCode) in its Godot 3 version
# (2020), Godot 3.
{{HEADER}}
extends KinematicBody2D

{{CONSTANTS}}
const ASSIST_MIN_SPEED = {{ASSIST_MIN_SPEED}}  # px/s: slower, the assists rest (a slip angle is noise)
# px/s: the sandbox's speed guard (at friction and drag 0 nothing resists)
const SPEED_LIMIT = 20000.0

{{PARAMS}}

var steer_feel = 0.0  # the steer held by the steering feel, -1 … 1
var acceleration = Vector2.ZERO
var velocity = Vector2.ZERO
var steer_direction = 0.0


func _ready():
	_add_missing_actions()


func _physics_process(delta):
	acceleration = Vector2.ZERO
	get_input()
	apply_friction(delta)
	calculate_steering(delta)
	velocity += acceleration * delta
	velocity = move_and_slide(velocity)
	# guard (car-sandbox): with nothing resisting, a held throttle would speed up for ever
	if velocity.length_squared() > SPEED_LIMIT * SPEED_LIMIT:
		velocity = velocity.normalized() * SPEED_LIMIT


func get_input():
	var turn = Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")
	var throttle = Input.get_action_strength("accelerate")
	var brake = Input.get_action_strength("brake")
	if not analog_pedals:
		# the recipe's is_action_pressed: any press is the whole key or pedal
		var right = float(Input.is_action_pressed("steer_right"))
		turn = right - float(Input.is_action_pressed("steer_left"))
		throttle = float(Input.is_action_pressed("accelerate"))
		brake = float(Input.is_action_pressed("brake"))
	# the steering feel: on the keys as the recipe reads them, pressed or not
	var dt = get_physics_process_delta_time()  # the tick's delta
	turn = feel_with_assists(turn, velocity.x, velocity.y, rotation, steering_angle, dt)
	steer_direction = turn * deg2rad(steering_angle)
	if throttle > 0:
		acceleration = transform.x * (engine_power * throttle)
	if brake > 0:
		acceleration = transform.x * (braking * brake)


func apply_friction(delta):
	if velocity.length() < 5:
		velocity = Vector2.ZERO
	var friction_force = velocity * friction
	var drag_force = velocity * velocity.length() * drag
	if velocity.length() < 100:
		friction_force *= 3
	# guard (car-sandbox): one tick of friction and drag never removes more than the
	# whole velocity; it never acts at sensible values, only where the step is unstable
	var most = -velocity / delta
	if (drag_force + friction_force).dot(velocity) < most.dot(velocity):
		drag_force = most
		friction_force = Vector2.ZERO
	acceleration += drag_force + friction_force


func calculate_steering(delta):
	var rear_wheel = position - transform.x * wheel_base / 2.0
	var front_wheel = position + transform.x * wheel_base / 2.0
	rear_wheel += velocity * delta
	front_wheel += velocity.rotated(steer_direction) * delta
	var new_heading = (front_wheel - rear_wheel).normalized()
	var traction = traction_slow
	if velocity.length() > slip_speed:
		traction = traction_fast
	var d = new_heading.dot(velocity.normalized())
	if d > 0:
		velocity = velocity.linear_interpolate(new_heading * velocity.length(), min(traction, 1.0))
	if d < 0:
		velocity = -new_heading * min(velocity.length(), max_speed_reverse)
	rotation = new_heading.angle()


{{STEER_FEEL}}


{{STEER_ASSIST}}


{{ADD_ACTIONS}}
