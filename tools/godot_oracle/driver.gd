# Replays a control trace (CSV steer,throttle,brake; one row per tick) on a car
# script through the input actions, and writes one trajectory row per tick, the
# state after that tick: t,x,y,heading,vx,vy,speed,slip_angle, in the model's units:
# a car script with `pixels_per_metre` (a metric model) is read in metres. The heading is
# the script's own `heading` where it keeps one (the bicycle draws its body turned by its
# drift illusion), else the node's rotation.
#
# Environment: ORACLE_TRACE (CSV in), ORACLE_OUT (CSV out), ORACLE_SCRIPT (car
# script, default res://recipe_car.gd), ORACLE_PARAMS (name=value;... set on the
# car before it starts), ORACLE_HZ (physics ticks per second, default 60),
# ORACLE_CAR_ADDS_ACTIONS (set: the input actions are left for the car script to add),
# ORACLE_SCENE (a car scene to drive instead, e.g. an exported car.tscn).
# On a track: ORACLE_WALLS (the walls' JSON, see walls.gd), ORACLE_SHAPE (the car's
# shape array, comma separated, see walls.gd), ORACLE_START (x,y,rotation); each row
# then ends with `slides`, the car's get_slide_count() after its tick.
extends Node

const Walls = preload("res://walls.gd")

const ACTIONS = ["accelerate", "brake", "steer_left", "steer_right", "handbrake", "shift_up", "shift_down"]

var rows = []
var tick = 0
var out
var car
var hz = 60
var on_track = false


func _ready():
	hz = int(_env("ORACLE_HZ", "60"))
	Engine.iterations_per_second = hz
	if _env("ORACLE_CAR_ADDS_ACTIONS", "") == "":
		for action in ACTIONS:
			if not InputMap.has_action(action):
				InputMap.add_action(action)
	rows = _read_trace(_env("ORACLE_TRACE", ""))
	if _env("ORACLE_SCENE", "") != "":
		car = load(_env("ORACLE_SCENE", "")).instance()
	else:
		car = KinematicBody2D.new()
		car.set_script(load(_env("ORACLE_SCRIPT", "res://recipe_car.gd")))
		if _env("ORACLE_SHAPE", "") != "":
			car.add_child(Walls.car_shape(_numbers(_env("ORACLE_SHAPE", ""))))
		else:
			var shape = CollisionShape2D.new()
			shape.shape = CapsuleShape2D.new()
			car.add_child(shape)
	if _env("ORACLE_WALLS", "") != "":
		on_track = true
		if not Walls.add_walls(self, _env("ORACLE_WALLS", "")):
			printerr("cannot read ORACLE_WALLS")
			get_tree().quit(1)
			return
	if _env("ORACLE_START", "") != "":
		var start = _numbers(_env("ORACLE_START", ""))
		car.position = Vector2(start[0], start[1])
		car.rotation = start[2]
	for pair in _env("ORACLE_PARAMS", "").split(";", false):
		var kv = pair.split("=")
		car.set(kv[0], _number(kv[1]))
	add_child(car)
	out = File.new()
	if out.open(_env("ORACLE_OUT", "user://trajectory.csv"), File.WRITE) != OK:
		printerr("cannot write ORACLE_OUT")
		get_tree().quit(1)
		return
	out.store_line("t,x,y,heading,vx,vy,speed,slip_angle" + (",slides" if on_track else ""))


func _physics_process(_delta):
	# The driver is the car's parent, so this runs before the car's step: first
	# record the state the previous tick left, then press this tick's inputs.
	if tick > 0:
		_record()
	if tick >= rows.size():
		out.close()
		get_tree().quit(0)
		set_physics_process(false)
		return
	var row = rows[tick]
	_set_action("steer_left", max(0.0, -row[0]))
	_set_action("steer_right", max(0.0, row[0]))
	_set_action("accelerate", row[1])
	_set_action("brake", row[2])
	tick += 1


func _set_action(action, strength):
	if strength > 0.0:
		Input.action_press(action, strength)
	else:
		Input.action_release(action)


func _record():
	var scale = 1.0
	if "pixels_per_metre" in car:
		scale = car.pixels_per_metre
	var heading = car.rotation
	if "heading" in car:
		heading = car.heading
	var v = car.velocity / scale
	var h = Vector2(cos(heading), sin(heading))
	var slip = atan2(h.x * v.y - h.y * v.x, h.x * v.x + h.y * v.y)
	var values = [float(tick) / hz, car.position.x / scale, car.position.y / scale, heading, v.x, v.y,
			v.length(), slip]
	if on_track:
		values.append(float(car.get_slide_count()))
	var cells = PoolStringArray()
	for value in values:
		cells.append("%.7f" % value)
	out.store_line(cells.join(","))


func _read_trace(path):
	var f = File.new()
	var result = []
	if f.open(path, File.READ) != OK:
		printerr("cannot read ORACLE_TRACE: ", path)
		get_tree().quit(1)
		return result
	f.get_line()  # header
	while not f.eof_reached():
		var line = f.get_line().strip_edges()
		if line == "":
			continue
		var cells = line.split(",")
		result.append([_number(cells[0]), _number(cells[1]), _number(cells[2])])
	f.close()
	return result


func _numbers(text):
	var result = []
	for cell in text.split(","):
		result.append(float(cell))
	return result


func _number(text):
	if text == "true":
		return true
	if text == "false":
		return false
	return float(text)


func _env(name, fallback):
	var value = OS.get_environment(name)
	return value if value != "" else fallback
