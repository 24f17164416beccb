# Car controller from the Godot recipe "Car steering" (KidsCanCode), Godot 4.
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
	var start_velocity := velocity
	_calculate_steering(delta)
	velocity += _acceleration * delta
	if rate_independent:
		# move by the mean of this tick's start and end velocities; keep the end velocity
		# unless something in the way changed it
		var end_velocity := velocity
		velocity = (start_velocity + end_velocity) / 2.0
		move_and_slide()
		if get_slide_collision_count() == 0:
			velocity = end_velocity
	else:
		move_and_slide()
	# guard (car-sandbox): with nothing resisting, a held throttle would speed up for ever
	if velocity.length_squared() > SPEED_LIMIT * SPEED_LIMIT:
		velocity = velocity.normalized() * SPEED_LIMIT


func _get_input() -> void:
	var turn := Input.get_axis("steer_left", "steer_right")
	var dt := get_physics_process_delta_time()  # the tick's delta
	turn = _feel_with_assists(turn, velocity.x, velocity.y, rotation, steering_angle, dt)
	_steer_direction = turn * deg_to_rad(steering_angle)
	var throttle := Input.get_action_strength("accelerate")
	var brake := Input.get_action_strength("brake")
	if not analog_pedals:
		# the recipe's is_action_pressed: any press is the whole pedal
		throttle = float(Input.is_action_pressed("accelerate"))
		brake = float(Input.is_action_pressed("brake"))
	if throttle > 0:
		_acceleration = transform.x * (engine_power * throttle)
	if brake > 0:
		_acceleration = transform.x * (braking * brake)


func _apply_friction(delta: float) -> void:
	if _acceleration == Vector2.ZERO and velocity.length() < 50:
		velocity = Vector2.ZERO
	var friction_force := velocity * friction * delta
	var drag_force := velocity * velocity.length() * drag * delta
	if rate_independent:
		# the recipe's strength at 60 Hz, applied once per tick (midpoint rule)
		var ref := 1.0 / 60.0
		var drag_now := velocity * velocity.length() * drag
		var mid := velocity + (_acceleration + (velocity * friction + drag_now) * ref) * delta / 2.0
		friction_force = mid * friction * ref
		drag_force = mid * mid.length() * drag * ref
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
	var weight := minf(traction * delta, 1.0)  # guard (car-sandbox): above 1 the lerp overshoots
	if rate_independent:
		weight = 1.0 - pow(1.0 - minf(traction / 60.0, 1.0), delta * 60.0)
	var d := new_heading.dot(velocity.normalized())
	if d > 0:
		velocity = velocity.lerp(new_heading * velocity.length(), weight)
	if d < 0:
		velocity = -new_heading * minf(velocity.length(), max_speed_reverse)
	rotation = new_heading.angle()


{{STEER_FEEL}}


{{STEER_ASSIST}}


{{ADD_ACTIONS}}
