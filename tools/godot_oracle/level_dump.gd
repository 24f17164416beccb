# Loads a level scene in the engine and writes what its physics holds, for the level
# import's tests: every shape of every StaticBody2D (its type, its data and its global
# transform, as the physics server has them), every Path2D's baked curve in global
# coordinates, and which static bodies contain each probe point (on layer 1, the car's
# mask). Run as the main loop, from the level's own project:
#   LEVEL_SCENE=res://level.tscn LEVEL_OUT=out.txt LEVEL_PROBES=probes.txt \
#     godot3-server --path PROJECT -s /path/to/level_dump.gd
# Lines written: shape|shape node's path|index|type|disabled|one way|layer|6 transform numbers|data...
# path|node path|x y x y ...; probe|index|node paths containing it, comma-separated.
extends SceneTree

var level
var frames = 0


func _init():
	level = load(OS.get_environment("LEVEL_SCENE")).instance()
	get_root().add_child(level)


func _idle(_delta):
	frames += 1
	if frames < 3:  # a physics step or two: the bodies are in the space's broadphase
		return false
	var out = File.new()
	out.open(OS.get_environment("LEVEL_OUT"), File.WRITE)
	_walk(level, out)
	_probe(out)
	out.close()
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
		for p in node.curve.get_baked_points():
			points.append(node.global_transform.xform(p))
		out.store_line("path|%s|%s" % [path, _numbers(_flat(points))])
	for child in node.get_children():
		_walk(child, out)


func _probe(out):
	var file = File.new()
	if file.open(OS.get_environment("LEVEL_PROBES"), File.READ) != OK:
		return
	var space = get_root().world_2d.direct_space_state
	var index = 0
	while not file.eof_reached():
		var line = file.get_line().strip_edges()
		if line == "":
			continue
		var xy = line.split(" ")
		var inside = []
		for hit in space.intersect_point(Vector2(float(xy[0]), float(xy[1])), 64, [], 1, true, false):
			if hit.collider is StaticBody2D:
				inside.append(str(level.get_path_to(hit.collider)))
		inside.sort()
		out.store_line("probe|%d|%s" % [index, PoolStringArray(inside).join(",")])
		index += 1
	file.close()
