class_name PlayerCar
extends CharacterBody2D
## The recipe's car with static types everywhere.

const STOP_SPEED: float = 50.0

var wheel_base: float = 70.0
var steering_angle: float = 15.0
var engine_power: float = 900.0
var friction: float = -55.0
var drag: float = -0.06
var braking: float = -450.0
var max_speed_reverse: float = 250.0
var slip_speed: float = 400.0
var traction_fast: float = 2.5
var traction_slow: float = 10.0

var acceleration: Vector2 = Vector2.ZERO
var _steer_direction: float


func _physics_process(delta: float) -> void:
	acceleration = Vector2.ZERO
	_get_input()
	_apply_friction(delta)
	_calculate_steering(delta)
	velocity += acceleration * delta
	move_and_slide()


func _get_input() -> void:
	var turn: float = Input.get_axis("steer_left", "steer_right")
	_steer_direction = turn * deg_to_rad(steering_angle)
	if Input.is_action_pressed("accelerate"):
		acceleration = transform.x * engine_power
	if Input.is_action_pressed("brake"):
		acceleration = transform.x * braking


func _apply_friction(delta: float) -> void:
	if acceleration == Vector2.ZERO and velocity.length() < STOP_SPEED:
		velocity = Vector2.ZERO
	var friction_force: Vector2 = velocity * friction * delta
	var drag_force: Vector2 = velocity * velocity.length() * drag * delta
	acceleration += drag_force + friction_force


func _calculate_steering(delta: float) -> void:
	var rear_wheel: Vector2 = position - transform.x * wheel_base / 2.0
	var front_wheel: Vector2 = position + transform.x * wheel_base / 2.0
	rear_wheel += velocity * delta
	front_wheel += velocity.rotated(_steer_direction) * delta
	var new_heading: Vector2 = (front_wheel - rear_wheel).normalized()
	var traction: float = traction_slow if velocity.length() <= slip_speed else traction_fast
	var d: float = new_heading.dot(velocity.normalized())
	if d > 0:
		velocity = velocity.lerp(new_heading * velocity.length(), traction * delta)
	elif d < 0:
		velocity = -new_heading * minf(velocity.length(), max_speed_reverse)
	rotation = new_heading.angle()
