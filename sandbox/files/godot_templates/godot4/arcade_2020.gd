# Car controller from the Godot recipe "Car steering" (KidsCanCode) in its Godot 3 version
# (2020), written for Godot 4.
{{HEADER}}
extends CharacterBody2D

{{CONSTANTS}}
const ASSIST_MIN_SPEED: float = {{ASSIST_MIN_SPEED}}  # px/s: slower, the assists rest (a slip angle is noise)
# px/s: the sandbox's speed guard (at friction and drag 0 nothing resists)
const SPEED_LIMIT: float = 20000.0

{{PARAMS}}

var _steer_feel := 0.0  # the steer held by the steering feel, -1 … 1
var _acceleration := Vector2.ZERO
var _steer_direction: float = 0.0


func _ready() -> void:
	# a top-down car: no floor and no walls, whatever it meets it slides along
	motion_mode = CharacterBody2D.MOTION_MODE_FLOATING
	_add_missing_actions()


func _physics_process(delta: float) -> void:
	_acceleration = Vector2.ZERO
	_get_input()
	_apply_friction(delta)
	_calculate_steering(delta)
	velocity += _acceleration * delta
	move_and_slide()
	# guard (car-sandbox): with nothing resisting, a held throttle would speed up for ever
	if velocity.length_squared() > SPEED_LIMIT * SPEED_LIMIT:
		velocity = velocity.normalized() * SPEED_LIMIT


func _get_input() -> void:
	var turn := Input.get_axis("steer_left", "steer_right")
	var throttle := Input.get_action_strength("accelerate")
	var brake := Input.get_action_strength("brake")
	if not analog_pedals:
		# the recipe's is_action_pressed: any press is the whole key or pedal
		var right := float(Input.is_action_pressed("steer_right"))
		turn = right - float(Input.is_action_pressed("steer_left"))
		throttle = float(Input.is_action_pressed("accelerate"))
		brake = float(Input.is_action_pressed("brake"))
	# the steering feel: on the keys as the recipe reads them, pressed or not
	var dt := get_physics_process_delta_time()  # the tick's delta
	turn = _feel_with_assists(turn, velocity.x, velocity.y, rotation, steering_angle, dt)
	_steer_direction = turn * deg_to_rad(steering_angle)
	if throttle > 0:
		_acceleration = transform.x * (engine_power * throttle)
	if brake > 0:
		_acceleration = transform.x * (braking * brake)


func _apply_friction(delta: float) -> void:
	if velocity.length() < 5:
		velocity = Vector2.ZERO
	var friction_force := velocity * friction
	var drag_force := velocity * velocity.length() * drag
	if velocity.length() < 100:
		friction_force *= 3
	# guard (car-sandbox): one tick of friction and drag never removes more than the
	# whole velocity; it never acts at sensible values, only where the step is unstable
	var most := -velocity / delta
	if (drag_force + friction_force).dot(velocity) < most.dot(velocity):
		drag_force = most
		friction_force = Vector2.ZERO
	_acceleration += drag_force + friction_force


func _calculate_steering(delta: float) -> void:
	var rear_wheel := position - transform.x * wheel_base / 2.0
	var front_wheel := position + transform.x * wheel_base / 2.0
	rear_wheel += velocity * delta
	front_wheel += velocity.rotated(_steer_direction) * delta
	var new_heading := (front_wheel - rear_wheel).normalized()
	var traction := traction_slow
	if velocity.length() > slip_speed:
		traction = traction_fast
	var d := new_heading.dot(velocity.normalized())
	if d > 0:
		velocity = velocity.lerp(new_heading * velocity.length(), minf(traction, 1.0))
	if d < 0:
		velocity = -new_heading * minf(velocity.length(), max_speed_reverse)
	rotation = new_heading.angle()


{{STEER_FEEL}}


{{STEER_ASSIST}}


{{ADD_ACTIONS}}
