extends KinematicBody2D

# The recipe's car for Godot 3, its settings in the Inspector.

export var wheel_base = 70
export(float, 1, 60) var steering_angle = 15
export(float, 0, 4000, 10) var engine_power = 900
export(float, -400, 0) var friction = -55
export(float, -1, 0, 0.001) var drag = -0.06
export(int, -4000, 0) var braking = -450
export(int) var max_speed_reverse = 250
export(float, EXP, 1, 3000) var slip_speed = 400
export(float, 0, 20, 0.1) var traction_fast = 2.5
export var traction_slow = 10.0

var velocity = Vector2.ZERO
var acceleration = Vector2.ZERO
var steer_direction = 0.0

onready var sprite = $Sprite


func _physics_process(delta):
	acceleration = Vector2.ZERO
	get_input()
	apply_friction(delta)
	calculate_steering(delta)
	velocity += acceleration * delta
	velocity = move_and_slide(velocity)


func get_input():
	var turn = 0
	if Input.is_action_pressed("steer_right"):
		turn += 1
	if Input.is_action_pressed("steer_left"):
		turn -= 1
	steer_direction = turn * deg2rad(steering_angle)
	if Input.is_action_pressed("accelerate"):
		acceleration = transform.x * engine_power
	if Input.is_action_pressed("brake"):
		acceleration = transform.x * braking


func apply_friction(delta):
	if acceleration == Vector2.ZERO and velocity.length() < 50:
		velocity = Vector2.ZERO
	var friction_force = velocity * friction * delta
	var drag_force = velocity * velocity.length() * drag * delta
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
		velocity = velocity.linear_interpolate(new_heading * velocity.length(), traction * delta)
	if d < 0:
		velocity = -new_heading * min(velocity.length(), max_speed_reverse)
	rotation = new_heading.angle()
