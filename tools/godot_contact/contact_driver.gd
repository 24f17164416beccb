# Builds static walls and a KinematicBody2D with one collision shape from a JSON
# description, calls move_and_slide with the given velocity each physics tick, and
# writes one row per tick: tick,x,y,vx,vy,slides,nx,ny (position and returned velocity
# after the call, how many collisions it had, the last collision's normal).
#
# Environment: CONTACT_SCENE (the JSON file), CONTACT_OUT (CSV out).
# JSON: {"hz": 60, "polylines": [{"points": [[x, y], ...], "closed": bool}],
#  "concave": bool (polylines as one ConcavePolygonShape2D each, else a SegmentShape2D
#  per piece), "rects": [[x, y, width, height, angle]], "circles": [[x, y, r]],
#  "polygons": [[[x, y], ...]], "shape": [kind, size1, size2, offset_x, offset_y, angle],
#  "pose": [x, y, rotation], "velocities": [[vx, vy], ...]}
# shape kinds (the sandbox's numbering, as its tuning's Shape list): 0 rectangle (full
# width, height), 1 capsule (radius, length tip to tip: Godot 3's height is that minus
# two radii), 2 circle (radius).
extends Node2D

const SETTLE_TICKS = 2

var data
var body
var out
var tick = 0


func _ready():
	var file = File.new()
	if file.open(OS.get_environment("CONTACT_SCENE"), File.READ) != OK:
		printerr("cannot read CONTACT_SCENE")
		get_tree().quit(1)
		return
	var parsed = JSON.parse(file.get_as_text())
	file.close()
	if parsed.error != OK:
		printerr("bad JSON in CONTACT_SCENE")
		get_tree().quit(1)
		return
	data = parsed.result
	Engine.iterations_per_second = int(data["hz"])
	for line in data["polylines"]:
		_add_polyline(line["points"], line["closed"])
	for r in data["rects"]:
		var rect = RectangleShape2D.new()
		rect.extents = Vector2(r[2] / 2.0, r[3] / 2.0)
		_add_static(rect, Vector2(r[0], r[1]), r[4])
	for c in data["circles"]:
		var circle = CircleShape2D.new()
		circle.radius = c[2]
		_add_static(circle, Vector2(c[0], c[1]), 0.0)
	for p in data["polygons"]:
		var polygon = ConvexPolygonShape2D.new()
		polygon.points = _points(p)
		_add_static(polygon, Vector2(), 0.0)
	body = KinematicBody2D.new()
	var holder = CollisionShape2D.new()
	holder.shape = _body_shape(data["shape"])
	holder.position = Vector2(data["shape"][3], data["shape"][4])
	holder.rotation = data["shape"][5]
	body.add_child(holder)
	body.position = Vector2(data["pose"][0], data["pose"][1])
	body.rotation = data["pose"][2]
	add_child(body)
	out = File.new()
	if out.open(OS.get_environment("CONTACT_OUT"), File.WRITE) != OK:
		printerr("cannot write CONTACT_OUT")
		get_tree().quit(1)
		return
	out.store_line("tick,x,y,vx,vy,slides,nx,ny")


func _physics_process(_delta):
	tick += 1
	if tick <= SETTLE_TICKS:
		return
	var n = tick - SETTLE_TICKS - 1
	if n >= data["velocities"].size():
		out.close()
		get_tree().quit(0)
		set_physics_process(false)
		return
	var v = data["velocities"][n]
	var returned = body.move_and_slide(Vector2(v[0], v[1]))
	var slides = body.get_slide_count()
	var normal = Vector2()
	if slides > 0:
		normal = body.get_slide_collision(slides - 1).normal
	var p = body.position
	out.store_line("%d,%.6f,%.6f,%.6f,%.6f,%d,%.6f,%.6f" % [n, p.x, p.y, returned.x, returned.y, slides, normal.x, normal.y])


func _body_shape(s):
	if int(s[0]) == 0:
		var rect = RectangleShape2D.new()
		rect.extents = Vector2(s[1] / 2.0, s[2] / 2.0)
		return rect
	if int(s[0]) == 1:
		var capsule = CapsuleShape2D.new()
		capsule.radius = s[1]
		capsule.height = s[2] - 2.0 * s[1]
		return capsule
	var circle = CircleShape2D.new()
	circle.radius = s[1]
	return circle


func _add_polyline(points, closed):
	var pairs = PoolVector2Array()
	var count = points.size()
	var last = count if closed else count - 1
	for i in range(last):
		var a = points[i]
		var b = points[(i + 1) % count]
		pairs.append(Vector2(a[0], a[1]))
		pairs.append(Vector2(b[0], b[1]))
	if data["concave"]:
		var shape = ConcavePolygonShape2D.new()
		shape.segments = pairs
		_add_static(shape, Vector2(), 0.0)
		return
	for i in range(0, pairs.size(), 2):
		var segment = SegmentShape2D.new()
		segment.a = pairs[i]
		segment.b = pairs[i + 1]
		_add_static(segment, Vector2(), 0.0)


func _add_static(shape, position, rotation):
	var wall = StaticBody2D.new()
	var holder = CollisionShape2D.new()
	holder.shape = shape
	wall.add_child(holder)
	wall.position = position
	wall.rotation = rotation
	add_child(wall)


func _points(list):
	var points = PoolVector2Array()
	for p in list:
		points.append(Vector2(p[0], p[1]))
	return points
