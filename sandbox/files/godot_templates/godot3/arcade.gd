# Car controller from the Godot recipe "Car steering" (KidsCanCode), Godot 3.
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
	var start_velocity = velocity
	calculate_steering(delta)
	velocity += acceleration * delta
	if rate_independent:
		# move by the mean of this tick's start and end velocities
		var slid = move_and_slide((start_velocity + velocity) / 2.0)
		if get_slide_count() > 0:
			velocity = slid
	else:
		velocity = move_and_slide(velocity)
	# guard (car-sandbox): with nothing resisting, a held throttle would speed up for ever
	if velocity.length_squared() > SPEED_LIMIT * SPEED_LIMIT:
		velocity = velocity.normalized() * SPEED_LIMIT


func get_input():
	var turn = Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")
	var dt = get_physics_process_delta_time()  # the tick's delta
	turn = feel_with_assists(turn, velocity.x, velocity.y, rotation, steering_angle, dt)
	steer_direction = turn * deg2rad(steering_angle)
	var throttle = Input.get_action_strength("accelerate")
	var brake = Input.get_action_strength("brake")
	if not analog_pedals:
		# the recipe's is_action_pressed: any press is the whole pedal
		throttle = float(Input.is_action_pressed("accelerate"))
		brake = float(Input.is_action_pressed("brake"))
	if throttle > 0:
		acceleration = transform.x * (engine_power * throttle)
	if brake > 0:
		acceleration = transform.x * (braking * brake)


func apply_friction(delta):
	if acceleration == Vector2.ZERO and velocity.length() < 50:
		velocity = Vector2.ZERO
	var friction_force = velocity * friction * delta
	var drag_force = velocity * velocity.length() * drag * delta
	if rate_independent:
		# the recipe's strength at 60 Hz, applied once per tick (midpoint rule)
		var ref = 1.0 / 60.0
		var drag_now = velocity * velocity.length() * drag
		var mid = velocity + (acceleration + (velocity * friction + drag_now) * ref) * delta / 2.0
		friction_force = mid * friction * ref
		drag_force = mid * mid.length() * drag * ref
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
	var weight = min(traction * delta, 1.0)  # guard (car-sandbox): above 1 the lerp overshoots
	if rate_independent:
		weight = 1.0 - pow(1.0 - min(traction / 60.0, 1.0), delta * 60.0)
	var d = new_heading.dot(velocity.normalized())
	if d > 0:
		velocity = velocity.linear_interpolate(new_heading * velocity.length(), weight)
	if d < 0:
		velocity = -new_heading * min(velocity.length(), max_speed_reverse)
	rotation = new_heading.angle()


{{STEER_FEEL}}


{{STEER_ASSIST}}


{{ADD_ACTIONS}}
