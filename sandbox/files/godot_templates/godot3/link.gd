# The live link to car-sandbox, Godot 3: add this node as a child of your car (or point
# car_path at it), run the game, and the sandbox sees the car and tunes it while it drives.
# JSON over UDP on this computer; what it sends and takes is written in the sandbox's
# docs/link.md. It never runs what it receives: it only sets the car's variables named
# below, to numbers within their ranges. Asked, it sends the level's static collision
# shapes (those the car meets), so the sandbox drives on the game's walls.
{{HEADER}}
extends Node

const PROTOCOL = 2  # version 1 (a sandbox from before the level) is version 2 without it
const MAX_BYTES = 65536  # a longer datagram is dropped unread
const MESSAGES_PER_TICK = 64  # read in a tick at most: a flood costs a tick little
const BYTES_PER_TICK = 65536  # once as much is read in a tick, the rest is dropped unread
# Godot's own buffer of the datagrams waiting (at least 1 MB: Godot rounds it up to a power
# of two): more than the computer's socket holds (208 KB on Linux, 768 KB on macOS, 64 KB
# on Windows, by default), so a read never finds more than it can take. With Godot's 64 KB,
# a flood of 1 KB datagrams overflowed it whenever the game read late, and the engine (an
# editor's build) printed a warning for each datagram it dropped
const RECEIVE_BUFFER = 1048576
const CHECKED_PER_TICK = 2048  # characters followed for nesting in a tick at most
const MAX_DEPTH = 2  # brackets nested in a message at most (a set's params)
const MAX_SEQ = 9007199254740991  # 2^53 - 1: a larger JSON number is not one whole number
# the telemetry's text: tick, t, x, y, heading, vx, vy, state members, applied, cost_us,
# then the controls' members and the shared end
const TELEMETRY = (
	'{"type":"telemetry","tick":%d,"t":%s,"x":%s,"y":%s,"heading":%s,"vx":%s,"vy":%s,'
	+ '"state":{%s},"applied":%d,"cost_us":%d%s%s'
)
const WARNINGS_PER_SECOND = 5  # a flood of bad messages does not flood the log
# the node's physics step runs before the car's (0 by default), so a value set now is
# used in this very tick, and the controls it reads are the ones the car reads
const PRIORITY = -1000
const LEVEL_SHAPES = 10000  # shapes of the level sent at most (those beyond are counted)
const LEVEL_PART_BYTES = 60000  # the shapes' text in one level message at most
const NOTE_NODES = 5  # nodes named for each reason a shape was not read
const CENTRE_LINE_BYTES = 30000  # the centre line's text at most (part 0 holds it too)
const MORE_PATHS = "more Path2D nodes: only the first is the centre line"
{{TABLES}}

# the sandbox's UDP port on this computer
export var port = 47620
# the sandbox's address
export var host = "127.0.0.1"
# the token the sandbox prints when it listens
export var token = ""
# the car (the node's parent by default)
export(NodePath) var car_path = NodePath("..")

var _peer = PacketPeerUDP.new()
var _car = null
var _welcomed = false
var _hello_at = 0  # µs of the last hello
var _tick = 0  # physics ticks begun since the node started
# the controls the car reads in the tick under way: steer, throttle, brake, handbrake, shift
var _controls = [0.0, 0.0, 0.0, 0.0, 0]
# JSON takes most of the node's time: the controls' text is made again only when they
# change, and the end every message shares (version and token) when the token does
var _controls_sent = []
var _controls_text = ""
var _tail_token = ""
var _tail_text = ""
var _token_json = ""  # the token as JSON text
var _token_member = ""  # "token": and the token, as the sandbox writes it
var _checks_left = 0  # characters the nesting may still be followed through in this tick
var _applied = 0  # the seq of the last set applied
var _cost_us = 0  # what the node cost the game in the tick under way
var _missing = []  # parameters of the table the car lacks
var _state = []  # the state variables the car has
var _heading = "rotation"
var _has_scale = false
var _has_velocity = false
var _warn_since = 0  # ms: the start of the warnings' second
var _warned = 0
var _quiet = 0
var _level_id = -1  # the seq of the request that collected the level kept below
var _level_parts = []  # each level message's shapes, as JSON text
var _level_head = ""  # the first level message's other members, as JSON text


func _ready():
	process_priority = PRIORITY
	_peer.listen(0, _bind_address(), RECEIVE_BUFFER)  # failing, Godot's 64 KB serve
	if _peer.connect_to_host(host, port) != OK:
		_warn("cannot reach %s port %d: the link is off" % [host, port])
		set_physics_process(false)
		return
	_hello_at = OS.get_ticks_usec() - 1000000
	if not _attach():
		_warn("no 2D car at car_path %s yet: the link waits for one" % car_path)


func _bind_address():
	# any address of the host's family (a name: of both), on a port the system picks
	if not host.is_valid_ip_address():
		return "*"
	return "::" if ":" in host else "0.0.0.0"


func _attach():
	# the car at car_path, and which of the table's variables it has; false while there is
	# none (an autoload starts before the scene with the car; a new level brings a new car)
	var found = get_node_or_null(car_path)
	if not (found is Node2D):
		return false
	_car = found
	_missing = MISSING.duplicate()
	for key in PARAMS:
		if not PARAMS[key][0] in _car:
			_missing.append(key)
	_state = []
	for key in STATE:
		# a number (an array of them, such as a heading history, is not reported)
		if key in _car and (_is_number(_car.get(key)) or typeof(_car.get(key)) == TYPE_BOOL):
			_state.append(key)
	_heading = "heading" if "heading" in _car else "rotation"
	_has_scale = "pixels_per_metre" in _car
	_has_velocity = "velocity" in _car
	return true


func _exit_tree():
	# bye; back in the tree (moved to another parent, say) it says hello again
	if _peer.is_connected_to_host():
		_send({"type": "bye"})
	_welcomed = false
	_hello_at = OS.get_ticks_usec() - 1000000


func _physics_process(_delta):
	var start = OS.get_ticks_usec()
	if not is_instance_valid(_car) and not _attach():
		return
	if _welcomed and _tick > 0:
		_send_telemetry()
	_receive()
	_flush_warnings()
	if not _welcomed and start - _hello_at >= 1000000:
		_hello_at = start
		_send_hello()
	_controls = _read_controls()
	_tick += 1
	_cost_us = OS.get_ticks_usec() - start


func _receive():
	# every datagram waiting is taken (Godot's own buffer, full, would warn for each one it
	# drops); at most MESSAGES_PER_TICK are read, and none once BYTES_PER_TICK were: the
	# rest are dropped unread
	var handled = 0
	var dropped = 0
	var read = 0
	_checks_left = CHECKED_PER_TICK
	while _peer.get_available_packet_count() > 0:
		var packet = _peer.get_packet()
		if _peer.get_packet_error() != OK:
			continue
		if handled >= MESSAGES_PER_TICK or read >= BYTES_PER_TICK:
			dropped += 1
			continue
		handled += 1
		read += packet.size()
		if packet.size() > MAX_BYTES:
			_warn("a message of %d bytes was dropped (at most %d)" % [packet.size(), MAX_BYTES])
			continue
		# read as ASCII: every name the node compares is, and Godot prints an error of its
		# own for every datagram that is not UTF-8; validate_json first: parse_json (and
		# JSON.parse) would print one for every message that is not JSON
		var text = packet.get_string_from_ascii()
		if not _readable(text):
			continue
		if validate_json(text) != "":
			_warn("a message that is not JSON was dropped")
			continue
		_handle(parse_json(text))
	if dropped > 0:
		var limits = [dropped, MESSAGES_PER_TICK, BYTES_PER_TICK]
		_warn("%d messages over %d (or %d bytes) in a tick were dropped unread" % limits)


func _readable(text):
	# whether a datagram may be read as JSON: it has the token and nests no deeper than a
	# message does. Looked at before any parse: a JSON parser recurses once a bracket
	# (Godot 3's without a limit: 30 000 nested arrays crash the game)
	var why = ""
	var second = text.find("{", text.find("{") + 1)  # the second brace, -1 for none
	if not _has_token(text):
		why = "with another token was dropped (is the node's token the sandbox's?)"
	elif text.find("[") < 0 and (second < 0 or text.find("{", second + 1) < 0):
		return true  # two braces cannot nest deeper, found natively: every message of the protocol
	elif text.length() > _checks_left:
		why = "that may nest deeper than %d brackets was dropped unread" % MAX_DEPTH
		why += " (%d characters a tick are followed)" % CHECKED_PER_TICK
	elif _nested_deeper(text):
		why = "nested deeper than %d brackets was dropped unread" % MAX_DEPTH
	if why != "":
		_warn("a message " + why)
	return why == ""


func _has_token(text):
	# the token's JSON text after "token": (spaces allowed); a token quoted in another
	# string does not pass (its quotes are escaped), one in a nested object is refused
	# after the parse, which checks the message's own member
	var quoted = _quoted_token()
	if text.find(_token_member) >= 0:
		return true  # as the sandbox writes it
	var at = text.find(quoted)
	while at >= 0:
		var start = max(0, at - 24)
		var before = text.substr(start, at - start).strip_edges(false, true)
		if before.ends_with(":"):
			before = before.left(before.length() - 1).strip_edges(false, true)
			if before.ends_with('"token"'):
				return true
		at = text.find(quoted, at + 1)
	return false


func _nested_deeper(text):
	# whether brackets outside strings nest deeper than MAX_DEPTH: one pass over the text,
	# counted against the characters the tick may spend on it
	_checks_left -= text.length()
	var depth = 0
	var quoted = false
	var escaped = false
	for i in range(text.length()):
		var c = text.ord_at(i)
		if escaped:
			escaped = false
		elif quoted:
			escaped = c == 92  # \ escapes the next character
			quoted = c != 34  # " ends the string
		elif c == 34:
			quoted = true
		elif c == 91 or c == 123:  # [ {
			depth += 1
			if depth > MAX_DEPTH:
				return true
		elif c == 93 or c == 125:  # ] }
			depth -= 1
	return false


func _handle(message):
	if typeof(message) != TYPE_DICTIONARY:
		_warn("a message that is not a JSON object was dropped")
		return
	var version = message.get("v")
	if not _is_number(version) or (version != PROTOCOL and version != 1):
		_warn("a message of another protocol version was dropped (this node speaks %d)" % PROTOCOL)
		return
	var given = message.get("token")
	if typeof(given) != TYPE_STRING or given != token:
		_warn("a message with another token was dropped (is the node's token the sandbox's?)")
		return
	var kind = message.get("type")
	if typeof(kind) != TYPE_STRING:
		kind = ""
	if kind == "welcome":
		if not _welcomed:
			print("car-sandbox link: linked to the sandbox on %s port %d" % [host, port])
		_welcomed = true
		return
	if not (kind in ["set", "get", "ping", "get_level"]):
		_warn("a message of an unknown type was dropped")
		return
	var seq = message.get("seq")
	# a whole number 0 … 2^53 - 1: int() of another would answer another seq
	if not (_is_finite_number(seq) and seq >= 0 and seq <= MAX_SEQ and seq == floor(seq)):
		_warn("a %s message without a seq (a whole number 0 … %d) was dropped" % [kind, MAX_SEQ])
		return
	seq = int(seq)
	if kind == "ping":
		_send({"type": "pong", "seq": seq})
	elif kind == "get":
		_send({"type": "values", "seq": seq, "params": _values()})
	elif kind == "get_level":
		_answer_level(seq, message.get("part"), message.get("level"))
	elif typeof(message.get("params")) != TYPE_DICTIONARY:
		_warn("a set message without params was dropped")
	else:
		_apply(seq, message["params"])


func _apply(seq, params):
	# each value on its own: one refused leaves the rest applied
	var applied = {}
	var refused = {}
	for key in params:
		var value = params[key]
		var reason = _refusal(key, value)
		if reason != "":
			refused[key] = reason
			_warn("%s refused: %s" % [_shown(key), reason])
			continue
		_car.set(PARAMS[key][0], value)
		applied[key] = value
	_applied = seq
	_send({"type": "ack", "seq": seq, "tick": _tick + 1, "applied": applied, "refused": refused})


func _refusal(key, value):
	# why a value cannot be set ("" when it can): nothing is clamped
	var reason = ""
	if not PARAMS.has(key):
		reason = "not a parameter this node sets"
	elif key in _missing:
		reason = "the car's script has no variable %s" % PARAMS[key][0]
	elif PARAMS[key][3]:
		if typeof(value) != TYPE_BOOL:
			reason = "not true or false"
	elif not _is_number(value):
		reason = "not a number"
	elif not _is_finite_number(value):
		reason = "not a finite number"
	elif value < PARAMS[key][1] or value > PARAMS[key][2]:
		reason = "%s is outside %s … %s" % [value, PARAMS[key][1], PARAMS[key][2]]
	return reason


func _values():
	var values = {}
	for key in PARAMS:
		if not key in _missing:
			values[key] = _plain(_car.get(PARAMS[key][0]))
	return values


func _send_hello():
	var version = Engine.get_version_info()
	var model = MODEL
	var format = null
	var script = _car.get_script()
	if script != null:
		var constants = script.get_script_constant_map()
		if typeof(constants.get("SANDBOX_MODEL")) == TYPE_STRING:
			model = constants["SANDBOX_MODEL"]
		if _is_number(constants.get("SANDBOX_FORMAT")):
			format = constants["SANDBOX_FORMAT"]
	var message = {
		"type": "hello",
		"game": str(ProjectSettings.get_setting("application/config/name")),
		"godot": "%d.%d.%d" % [version["major"], version["minor"], version["patch"]],
		"model": model,
		"format": format,
		"hz": Engine.iterations_per_second,
		"units": "m" if _has_scale else "px",
		"params": _values(),
		"missing": _missing,
		"switches": SWITCHES,
		"project": ProjectSettings.globalize_path("res://"),
	}
	_send(message)


func _send_telemetry():
	# written through one format: JSON.print of a dictionary costs the tick several times more
	# (measured in the engine in real time: 63 µs against 8); the numbers are the same text
	var scale = 1.0
	if _has_scale and _is_finite_number(_car.pixels_per_metre) and _car.pixels_per_metre > 0:
		scale = _car.pixels_per_metre
	var velocity = Vector2.ZERO
	if _has_velocity and typeof(_car.velocity) == TYPE_VECTOR2:
		velocity = _car.velocity / scale
	var position = _car.position / scale
	var state = PoolStringArray()
	for key in _state:
		state.append('"%s":%s' % [key, _number(_car.get(key))])
	if _controls != _controls_sent:
		_controls_sent = _controls
		var named = {
			"steer": _controls[0],
			"throttle": _controls[1],
			"brake": _controls[2],
			"handbrake": _controls[3],
			"shift": _controls[4],
		}
		_controls_text = ',"controls":' + JSON.print(named)
	var heading = _car.get(_heading)
	var pose = [position.x, position.y, heading, velocity.x, velocity.y]
	# the usual case in one test (a sum with a NaN or an infinity in it is not finite); a
	# value that is not a number, or not finite, goes the slow way and is sent as null
	var usual = typeof(heading) == TYPE_REAL
	if not (usual and _is_finite_number(pose[0] + pose[1] + pose[2] + pose[3] + pose[4])):
		for k in range(pose.size()):
			pose[k] = _number(pose[k])
	var text = TELEMETRY % [
		_tick, float(_tick) / Engine.iterations_per_second, pose[0], pose[1], pose[2], pose[3], pose[4],
		state.join(","), _applied, _cost_us, _controls_text, _tail(),
	]
	_peer.put_packet(text.to_utf8())


func _answer_level(seq, part, level):
	# part 0: the level collected anew (kept for the other parts, asked for with its id)
	if not (_is_finite_number(part) and part >= 0 and part == floor(part)):
		_warn("a get_level message without a part (a whole number) was dropped")
		return
	if part == 0:
		_collect_level(seq)
	elif not _is_number(level) or level != _level_id or part >= _level_parts.size():
		_warn("a get_level message for a level part this node does not hold was dropped")
		return
	var head = {"type": "level", "seq": seq, "level": _level_id, "part": int(part)}
	head["parts"] = _level_parts.size()
	var more = ',"shapes":[' + _level_parts[int(part)] + "]"
	_send(head, more + (_level_head if part == 0 else ""))


func _collect_level(seq):
	# the static bodies' shapes the car meets, in the tree's order, with their global
	# transforms (px); what is not read is named by reason
	var layer = 1
	var mask = 1
	if _car is CollisionObject2D:
		layer = _car.collision_layer
		mask = _car.collision_mask
	var texts = []
	var notes = {}
	var left_out = 0
	var path = null
	var stack = [get_tree().get_root()]
	while stack.size() > 0:
		var node = stack.pop_back()
		var children = node.get_children()
		for k in range(children.size() - 1, -1, -1):
			stack.append(children[k])
		if node is TileMap:
			_note(notes, "tile maps' collision: not read", node)
		# the first Path2D with a curve of two points or more is the centre line (as the
		# sandbox reads a level's .tscn)
		var curve = node.curve if node is Path2D else null
		if curve != null and curve.get_point_count() >= 2:
			if path == null:
				path = node
			else:
				_note(notes, MORE_PATHS, node)
		if not (node is StaticBody2D):
			continue
		# Godot 3 collides two bodies when either one's layer is in the other's mask
		var meets = (node.collision_layer & mask) != 0 or (node.collision_mask & layer) != 0
		for child in children:
			if not (child is CollisionShape2D or child is CollisionPolygon2D):
				continue
			if not meets:
				var unmet = "shapes of bodies the car does not meet (its layer %d, mask %d)"
				_note(notes, unmet % [layer, mask] + ": not read", child)
			elif child.disabled:
				_note(notes, "disabled shapes: not read", child)
			elif texts.size() >= LEVEL_SHAPES:
				left_out += 1
			else:
				var text = _shape_text(child, notes)
				if text.length() > LEVEL_PART_BYTES:
					var too_big = "shapes of too many points to send (over %d bytes)"
					_note(notes, too_big % LEVEL_PART_BYTES + ": not read", child)
				elif text != "":
					texts.append(text)
	var centre = _curve_of(path) if path != null else {}
	if JSON.print(centre).length() > CENTRE_LINE_BYTES:
		var too_long = "a centre line of too many points to send (over %d bytes): not read"
		_note(notes, too_long % CENTRE_LINE_BYTES, path)
		centre = {}
	var head = {"left_out": left_out, "not_read": notes.values()}
	if not centre.empty():
		head["centre_line"] = centre
	# the car's own scale, so that a metric model takes the level in metres as the game does
	if _has_scale and is_instance_valid(_car):
		head["pixels_per_metre"] = _plain(_car.pixels_per_metre)
	var where = _car.global_position if is_instance_valid(_car) else Vector2(NAN, NAN)
	var turn = _car.global_rotation if is_instance_valid(_car) else NAN
	if _is_finite_number(where.x + where.y + turn):
		head["car"] = {"x": where.x, "y": where.y, "rotation": turn}
	var text = JSON.print(head)
	_level_head = "," + text.substr(1, text.length() - 2)
	_level_id = seq
	_level_parts = _parts(texts, LEVEL_PART_BYTES - _level_head.length())


func _shape_text(node, notes):
	# one shape's JSON text ("" when it is not sent: named in notes)
	var t = node.get_global_transform()
	var shape = {
		"node": _node_path(node),
		"transform": _plain_all([t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y]),
	}
	if node.one_way_collision:
		shape["one_way"] = true
	if node is CollisionPolygon2D:
		shape["type"] = "CollisionPolygon2D"
		shape["polygon"] = _flat(node.polygon)
		shape["build_mode"] = node.build_mode
		return JSON.print(shape)
	var s = node.shape
	if s == null:
		_note(notes, "shape nodes without a shape: not read", node)
		return ""
	shape["type"] = s.get_class()
	if s is RectangleShape2D:
		shape["extents"] = _flat([s.extents])
	elif s is CircleShape2D:
		shape["radius"] = _plain(s.radius)
	elif s is CapsuleShape2D:
		shape["radius"] = _plain(s.radius)
		shape["height"] = _plain(s.height)
	elif s is SegmentShape2D:
		shape["a"] = _flat([s.a])
		shape["b"] = _flat([s.b])
	elif s is ConvexPolygonShape2D:
		shape["points"] = _flat(s.points)
	elif s is ConcavePolygonShape2D:
		shape["segments"] = _flat(s.segments)
	else:
		_note(notes, "endless lines and rays (%s): not read" % s.get_class(), node)
		return ""
	return JSON.print(shape)


func _curve_of(path):
	# a Path2D's curve as its scene file holds it: each point's in handle, out handle and
	# position, flat, in the node's own coordinates, with its global transform (px)
	var t = path.get_global_transform()
	var curve = path.curve
	var points = []
	for k in range(curve.get_point_count()):
		points += _flat([curve.get_point_in(k), curve.get_point_out(k)])
		points += _flat([curve.get_point_position(k)])
	var transform = _plain_all([t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y])
	return {"node": _node_path(path), "transform": transform, "points": points}


func _parts(texts, room):
	# the shapes' texts joined into parts of at most LEVEL_PART_BYTES, the first within
	# `room` (it carries the level's other members too); at least one part
	var parts = []
	var part = PoolStringArray()
	var size = 0
	for text in texts:
		var more = text.length() + (1 if part.size() > 0 else 0)
		if size + more > room and (part.size() > 0 or room < LEVEL_PART_BYTES):
			parts.append(part.join(","))
			part = PoolStringArray()
			size = 0
			room = LEVEL_PART_BYTES
			more = text.length()
		part.append(text)
		size += more
	parts.append(part.join(","))
	return parts


func _note(notes, why, node):
	if not notes.has(why):
		notes[why] = {"why": why, "nodes": [], "count": 0}
	notes[why]["count"] += 1
	if node != null and notes[why]["nodes"].size() < NOTE_NODES:
		notes[why]["nodes"].append(_node_path(node))


func _node_path(node):
	# below the tree's root; a long one by its last 200 characters (a message's size is bounded)
	var path = str(node.get_path())
	path = path.substr(6) if path.begins_with("/root/") else path
	return path if path.length() <= 200 else "…" + path.right(path.length() - 200)


func _flat(vectors):
	# vectors as a flat list of numbers, x then y (null for one not finite)
	var out = []
	for v in vectors:
		out.append(_plain(v.x))
		out.append(_plain(v.y))
	return out


func _plain_all(values):
	var out = []
	for value in values:
		out.append(_plain(value))
	return out


func _read_controls():
	var shift = 0
	if _just_pressed("shift_up"):
		shift = 1
	elif _just_pressed("shift_down"):
		shift = -1
	var steer = _strength("steer_right") - _strength("steer_left")
	return [steer, _strength("accelerate"), _strength("brake"), _strength("handbrake"), shift]


func _strength(control):
	var action = ACTIONS[control]
	return Input.get_action_strength(action) if InputMap.has_action(action) else 0.0


func _just_pressed(control):
	var action = ACTIONS[control]
	return InputMap.has_action(action) and Input.is_action_just_pressed(action)


func _send(message, more = ""):
	# the message's JSON, `more` (members already written as JSON) and the shared end
	var text = JSON.print(message)
	_peer.put_packet((text.substr(0, text.length() - 1) + more + _tail()).to_utf8())


func _tail():
	# the end every message shares, made again only when the token changes
	if _tail_text == "" or _tail_token != token:
		_tail_token = token
		_token_json = JSON.print(token)
		_token_member = '"token":' + _token_json
		_tail_text = ',"v":%d,"token":%s}' % [PROTOCOL, _token_json]
	return _tail_text


func _quoted_token():
	# the token's JSON text (made with the shared end when the token changes)
	_tail()
	return _token_json


func _number(value):
	# a value's JSON text as _plain gives it: null for anything but a finite number or
	# true/false
	var plain = _plain(value)
	if plain == null:
		return "null"
	if typeof(plain) == TYPE_BOOL:
		return "true" if plain else "false"
	return str(plain)


func _plain(value):
	# a value as JSON takes it: a number that is not finite (NaN until a car's first tick,
	# say) is null, and anything but a number or true/false is null too
	if typeof(value) == TYPE_BOOL or typeof(value) == TYPE_INT:
		return value
	if typeof(value) == TYPE_REAL and not is_nan(value) and not is_inf(value):
		return value
	return null


func _is_number(value):
	return typeof(value) == TYPE_INT or typeof(value) == TYPE_REAL


func _is_finite_number(value):
	return _is_number(value) and not is_nan(value) and not is_inf(value)


func _shown(key):
	# a name as a warning shows it: at most 40 characters
	return key if key.length() <= 40 else key.substr(0, 40) + "…"


func _warn(text):
	_flush_warnings()
	if _warned < WARNINGS_PER_SECOND:
		_warned += 1
		push_warning("car-sandbox link: " + text)
	else:
		_quiet += 1


func _flush_warnings():
	# once a second: how many warnings were held back in it
	var now = OS.get_ticks_msec()
	if now - _warn_since < 1000:
		return
	if _quiet > 0:
		push_warning("car-sandbox link: %d more warnings in a second were not shown" % _quiet)
	_warn_since = now
	_warned = 0
	_quiet = 0
