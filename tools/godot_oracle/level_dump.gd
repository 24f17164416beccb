# Loads a level scene in the engine and writes what its physics holds, for the level
# import's tests: every shape of every StaticBody2D (its type, its data and its global
# transform, as the physics server has them), every Path2D's baked curve in global
# coordinates (on the exact Bézier), which static bodies contain each probe point, and
# whether a car on Godot's default layer and mask meets each body named in LEVEL_MEETS. Run as the main loop, from the level's own project:
#   LEVEL_SCENE=res://level.tscn LEVEL_OUT=out.txt LEVEL_PROBES=probes.txt \
#     godot3-server --path PROJECT -s /path/to/level_dump.gd
# Lines written: shape|shape node's path|index|type|disabled|one way|layer|6 transform numbers|data...
# path|node path|x y x y ...; probe|index|node paths containing it, comma-separated;
# meets|node path|1 or 0.
extends SceneTree

const PATH_STEPS = 400  # points a stretch of a Path2D's curve is written at (on the exact Bézier)

var level
var frames = 0


func _init():
	level = load(OS.get_environment("LEVEL_SCENE")).instance()
	get_root().add_child(level)


func _idle(_delta):
	frames += 1
	if frames != 3:  # a physics step or two first: the bodies are in the space's broadphase
		return false
	var out = File.new()
	out.open(OS.get_environment("LEVEL_OUT"), File.WRITE)
	_walk(level, out)
	_probe(out)
	_meets(out)
	out.close()
	quit()
	return true


func _numbers(values):
	var text = []
	for v in values:
		text.append("%.6f" % v)
	return PoolStringArray(text).join(" ")


func _flat(data):
	if data is Vector2:
		return [data.x, data.y]
	if data is Rect2:
		return [data.position.x, data.position.y, data.size.x, data.size.y]
	if data is PoolVector2Array or data is Array:
		var flat = []
		for p in data:
			flat.append(p.x)
			flat.append(p.y)
		return flat
	return [data]


func _xform(t):
	return [t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y]


func _walk(node, out):
	var path = str(level.get_path_to(node))
	if node is StaticBody2D:
		var rid = node.get_rid()
		var body = Physics2DServer.body_get_state(rid, Physics2DServer.BODY_STATE_TRANSFORM)
		for i in range(Physics2DServer.body_get_shape_count(rid)):
			var shape = Physics2DServer.body_get_shape(rid, i)
			var xform = body * Physics2DServer.body_get_shape_transform(rid, i)
			var owner = node.shape_find_owner(i)
			var fields = [
				"shape", str(level.get_path_to(node.shape_owner_get_owner(owner))), str(i),
				str(Physics2DServer.shape_get_type(shape)), str(int(node.is_shape_owner_disabled(owner))),
				str(int(node.is_shape_owner_one_way_collision_enabled(owner))),
				str(node.collision_layer), _numbers(_xform(xform)),
				_numbers(_flat(Physics2DServer.shape_get_data(shape))),
			]
			out.store_line(PoolStringArray(fields).join("|"))
	if node is Path2D and node.curve != null:
		var points = []
		var curve = node.curve
		for i in range(curve.get_point_count() - 1):
			for k in range(PATH_STEPS):
				points.append(node.global_transform.xform(curve.interpolate(i, float(k) / PATH_STEPS)))
		points.append(node.global_transform.xform(curve.get_point_position(curve.get_point_count() - 1)))
		out.store_line("path|%s|%s" % [path, _numbers(_flat(points))])
	for child in node.get_children():
		_walk(child, out)


func _canvases(node, found):
	if node is StaticBody2D and not node.get_canvas().get_id() in found:
		found.append(node.get_canvas().get_id())
	for child in node.get_children():
		_canvases(child, found)


func _probe(out):
	var file = File.new()
	if file.open(OS.get_environment("LEVEL_PROBES"), File.READ) != OK:
		return
	var space = get_root().world_2d.direct_space_state
	var canvases = []
	_canvases(level, canvases)
	var index = 0
	while not file.eof_reached():
		var line = file.get_line().strip_edges()
		if line == "":
			continue
		var xy = line.split(" ")
		var inside = []
		for canvas in canvases:  # a point query sees the bodies of one canvas (a CanvasLayer has its own)
			var at = Vector2(float(xy[0]), float(xy[1]))
			for hit in space.intersect_point_on_canvas(at, canvas, 64, [], 0x7FFFFFFF, true, false):
				if hit.collider is StaticBody2D and not str(level.get_path_to(hit.collider)) in inside:
					inside.append(str(level.get_path_to(hit.collider)))
		inside.sort()
		out.store_line("probe|%d|%s" % [index, PoolStringArray(inside).join(",")])
		index += 1
	file.close()


# Whether a car (a KinematicBody2D of radius 10 on layer 1 with mask 1, Godot's defaults)
# moving down through the origin of each body named in LEVEL_MEETS hits something.
func _meets(out):
	var car = KinematicBody2D.new()
	var shape = CollisionShape2D.new()
	shape.shape = CircleShape2D.new()
	car.add_child(shape)
	get_root().add_child(car)
	for path in OS.get_environment("LEVEL_MEETS").split(",", false):
		var at = level.get_node(path).global_position
		car.global_position = at - Vector2(0, 40)
		out.store_line("meets|%s|%d" % [path, int(car.test_move(car.global_transform, Vector2(0, 80)))])
