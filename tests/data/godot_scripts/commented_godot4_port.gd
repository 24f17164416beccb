@tool
class_name Car
extends CharacterBody2D
## A top-down car after the Godot recipe "Car steering".
##
## Reads the accelerate and brake actions as analog strengths (gamepad triggers).

signal crashed(speed: float)
signal lap_finished

enum Surface { ROAD, GRASS, ICE }

const GRIP_BY_SURFACE = {
    Surface.ROAD: 1.0,
    Surface.GRASS: 0.6,  # mud: less grip (a comment inside the braces)
    Surface.ICE: 0.2,
}

@export_group("Chassis")
## Distance from front to rear wheel (px).
@export var wheel_base = 70  # matches the sprite
## How far the front wheels turn at full lock.
@export_range(1, 60, 0.5, "suffix:°") var steering_angle = 15

@export_group("Engine and brakes")
@export_range(0, 4000, 10, "suffix:px/s²")
var engine_power = 900  # Forward acceleration force.
@export_range(-4000, 0, 10, "suffix:px/s²") var braking := -450.0
@export var max_speed_reverse: float = 250

@export_group("Resistance")
## Ground friction, proportional to speed.
@export_range(-400, 0, 1, "suffix:1/s²") var friction = -55
@export_range(-1, 0, 0.001, "suffix:1/(px·s)") var drag = -0.06  # sets the top speed

@export_group("Traction", "traction_")
@export_subgroup("Slip")
@export var slip_speed := 400  # Speed where traction is reduced
@export_range(0, 20, 0.1) var traction_fast: float = 2.5
@export_range(0, 20, 0.1) var traction_slow: float = 10.0

@export_category("Look")
@export var tint := Color("#ff8800")  # a '#' inside a string is no comment
@export var badge := "Car (#1) :)"

@onready var skid_player: AudioStreamPlayer2D = $SkidPlayer
@onready var trail := $"Trail (back)" as Line2D

static var cars_built := 0
var surface: Surface = Surface.ROAD
var acceleration := Vector2.ZERO
var steer_direction  # set by get_input, read by calculate_steering
var label_text = "speed: " \
    + "px/s"
var trail_colours = [
    Color.WHITE,
    Color(1, 0.2, 0.2),
]


func _ready() -> void:
    cars_built += 1


func _physics_process(delta: float) -> void:
    acceleration = Vector2.ZERO
    get_input()
    apply_friction(delta)
    calculate_steering(delta)
    velocity += acceleration * delta
    move_and_slide()
    if get_slide_collision_count() > 0:
        crashed.emit(velocity.length())


## Steering from the stick; throttle and brake from the triggers.
func get_input() -> void:
    var turn := Input.get_axis("steer_left", "steer_right")
    steer_direction = turn * deg_to_rad(steering_angle)
    var throttle := Input.get_action_strength("accelerate")
    var brake := Input.get_action_strength("brake")
    if throttle > 0:
        acceleration = transform.x * engine_power * throttle
    if brake > 0:
        acceleration = transform.x * braking * brake


## Friction (∝ v) and drag (∝ v²), taken off the acceleration.
func apply_friction(delta: float) -> void:
    if acceleration == Vector2.ZERO and velocity.length() < 50:
        velocity = Vector2.ZERO  # creeping forward forever looks wrong
    var friction_force := velocity * friction * delta
    var drag_force := velocity * velocity.length() * drag * delta
    acceleration += drag_force + friction_force


func calculate_steering(delta: float) -> void:
    var rear_wheel := position - transform.x * wheel_base / 2.0
    var front_wheel := position + transform.x * wheel_base / 2.0
    rear_wheel += velocity * delta
    front_wheel += velocity.rotated(steer_direction) * delta
    var new_heading := (front_wheel - rear_wheel).normalized()
    var traction := traction_slow
    if velocity.length() > slip_speed:
        traction = traction_fast  # the tyres let go: drift
    var d := new_heading.dot(velocity.normalized())
    if d > 0:
        velocity = velocity.lerp(new_heading * velocity.length(),
                traction * delta)
    if d < 0:
        velocity = -new_heading * min(velocity.length(), max_speed_reverse)
    rotation = new_heading.angle()
