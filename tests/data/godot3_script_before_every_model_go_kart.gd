# Car controller from the Godot recipe "Car steering" (KidsCanCode), Godot 3.
# Exported by car-sandbox 0.1.0: preset 'Go-kart'
# Tuned at 60 physics ticks per second: set Project Settings > Physics > Common >
# Physics Fps to 60.
# Input actions, read as analog strengths (a gamepad's triggers and stick work):
# accelerate (W or Up), brake (S or Down), steer_left (A or Left), steer_right (D or Right).
# Actions missing from the project's Input Map are added with these keys when the car is ready.
extends KinematicBody2D

const ACTIONS = {
	"accelerate": [KEY_W, KEY_UP],
	"brake": [KEY_S, KEY_DOWN],
	"steer_left": [KEY_A, KEY_LEFT],
	"steer_right": [KEY_D, KEY_RIGHT],
}

# Wheel base [px]: Distance from rear to front wheel. Longer turns wider.
export(float, 10, 300, 1) var wheel_base = 40.0
# Steering angle [°]: How far the front wheels turn at full steer.
export(float, 1, 60, 0.5) var steering_angle = 22.0
# Engine power [px/s²]: Forward acceleration while the throttle is held.
export(float, 0, 4000, 10) var engine_power = 1500.0
# Friction [1/s²]: Ground friction, proportional to speed (the recipe multiplies it by the tick
# length twice). More negative = stickier ground.
export(float, -400, 0, 1) var friction = -75.0
# Drag [1/(px·s)]: Air drag, proportional to speed squared (also applied with the tick length
# twice). Mostly sets the top speed.
export(float, -1, 0, 0.001) var drag = -0.0123
# Braking [px/s²]: Deceleration while the brake is held; past zero it drives in reverse.
export(float, -4000, 0, 10) var braking = -1000.0
# Reverse speed limit [px/s]: Reverse speed is clamped to this before each tick's acceleration.
export(float, 0, 2000, 5) var max_speed_reverse = 150.0
# Slip speed [px/s]: Above this speed the tyres use traction_fast and the car slides.
export(float, 0, 3000, 5) var slip_speed = 650.0
# Traction fast [1/s]: Grip above slip speed: how fast the velocity turns toward the heading. Low
# values drift.
export(float, 0, 60, 0.1) var traction_fast = 9.0
# Traction slow [1/s]: Grip below slip speed.
export(float, 0, 60, 0.1) var traction_slow = 22.0
# Rate independent: Off: the recipe as written (friction, drag and traction change with the tick
# rate). On: the same feel at every tick rate, equal to the recipe at 60 Hz.
export(bool) var rate_independent = false

var acceleration = Vector2.ZERO
var velocity = Vector2.ZERO
var steer_direction = 0.0


func _ready():
	for action in ACTIONS:
		if not InputMap.has_action(action):
			InputMap.add_action(action)
			for key in ACTIONS[action]:
				var event = InputEventKey.new()
				event.scancode = key
				InputMap.action_add_event(action, event)


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


func get_input():
	var turn = Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")
	steer_direction = turn * deg2rad(steering_angle)
	var throttle = Input.get_action_strength("accelerate")
	var brake = Input.get_action_strength("brake")
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
