# Runs a car with the sandbox's link node as its child, replaying a control trace (CSV
# steer,throttle,brake[,handbrake,shift]; one row per tick) through the input actions,
# then quits. The driver is the car's parent and steps first (its process_priority is
# below the link node's), so each tick: the driver presses, the link node reads and
# applies, the car steps.
#
# Environment: LINK_TRACE (CSV in), LINK_NODE (the link node's script), LINK_PORT,
# LINK_TOKEN, LINK_HZ (physics ticks per second, default 60), LINK_SCRIPT (car script,
# default res://recipe_car.gd), LINK_SCENE (a car scene to instance instead),
# LINK_PARAMS (name=value;... set on the car before it starts), LINK_CAR_ADDS_ACTIONS
# (set: the car script adds the input actions), LINK_TIMEOUT (s of wall-clock time
# after which the game quits whatever is left of the trace), LINK_BEFORE_CAR (set: the
# link node is the car's sibling, in the tree before it, as an autoload would be),
# LINK_FRAME_SLEEP_US (µs the headless engine sleeps between frames: it cannot draw,
# so it sleeps 6900 by default and a physics tick can start that much late; a game that
# draws runs its frames back to back or at the display's rate), LINK_DRIVER_PRIORITY (the
# driver's process_priority, default -2000: before the link node's -1000), LINK_LEVEL (a
# level scene instanced beside the car, before it in the tree).
extends Node

const ACTIONS = ["accelerate", "brake", "steer_left", "steer_right", "handbrake", "shift_up", "shift_down"]

var rows = []
var tick = 0
var started = 0
var timeout_ms = 60000


func _ready():
	process_priority = int(_env("LINK_DRIVER_PRIORITY", "-2000"))
	started = OS.get_ticks_msec()
	timeout_ms = int(float(_env("LINK_TIMEOUT", "60")) * 1000.0)
	Engine.iterations_per_second = int(_env("LINK_HZ", "60"))
	if _env("LINK_FRAME_SLEEP_US", "") != "":
		OS.low_processor_usage_mode_sleep_usec = int(_env("LINK_FRAME_SLEEP_US", ""))
	if _env("LINK_CAR_ADDS_ACTIONS", "") == "":
		for action in ACTIONS:
			if not InputMap.has_action(action):
				InputMap.add_action(action)
	rows = _read_trace(_env("LINK_TRACE", ""))
	var car
	if _env("LINK_SCENE", "") != "":
		car = load(_env("LINK_SCENE", "")).instance()
	else:
		car = KinematicBody2D.new()
		car.set_script(load(_env("LINK_SCRIPT", "res://recipe_car.gd")))
		var shape = CollisionShape2D.new()
		shape.shape = CapsuleShape2D.new()
		car.add_child(shape)
	for pair in _env("LINK_PARAMS", "").split(";", false):
		var kv = pair.split("=")
		car.set(kv[0], _number(kv[1]))
	if _env("LINK_LEVEL", "") != "":
		add_child(load(_env("LINK_LEVEL", "")).instance())
	var link = Node.new()
	link.set_script(load(_env("LINK_NODE", "res://sandbox_link.gd")))
	link.name = "SandboxLink"
	link.port = int(_env("LINK_PORT", "47620"))
	link.token = _env("LINK_TOKEN", "")
	if _env("LINK_BEFORE_CAR", "") != "":
		# as an autoload is: in the tree before the car, which it finds by its path
		car.name = "Car"
		link.car_path = NodePath("../Car")
		add_child(link)
		add_child(car)
	else:
		car.add_child(link)
		add_child(car)


func _physics_process(_delta):
	if tick >= rows.size() or OS.get_ticks_msec() - started > timeout_ms:
		set_physics_process(false)
		get_tree().quit(0 if tick >= rows.size() else 2)
		return
	var row = rows[tick]
	_set_action("steer_left", max(0.0, -row[0]))
	_set_action("steer_right", max(0.0, row[0]))
	_set_action("accelerate", row[1])
	_set_action("brake", row[2])
	_set_action("handbrake", row[3])
	_set_action("shift_up", 1.0 if row[4] > 0 else 0.0)
	_set_action("shift_down", 1.0 if row[4] < 0 else 0.0)
	tick += 1


func _set_action(action, strength):
	if not InputMap.has_action(action):
		return
	if strength > 0.0:
		Input.action_press(action, strength)
	else:
		Input.action_release(action)


func _read_trace(path):
	var f = File.new()
	var result = []
	if f.open(path, File.READ) != OK:
		printerr("cannot read LINK_TRACE: ", path)
		get_tree().quit(1)
		return result
	f.get_line()  # header
	while not f.eof_reached():
		var line = f.get_line().strip_edges()
		if line == "":
			continue
		var cells = line.split(",")
		var row = [0.0, 0.0, 0.0, 0.0, 0.0]
		for k in range(min(cells.size(), 5)):
			row[k] = float(cells[k])
		result.append(row)
	f.close()
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
