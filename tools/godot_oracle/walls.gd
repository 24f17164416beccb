# Static walls from a JSON description, for the oracle's drives on a track (the
# format of tools/godot_contact: "polylines": [{"points": [[x, y], ...], "closed":
# bool}] as one SegmentShape2D per piece, "rects": [[x, y, width, height, angle]],
# "circles": [[x, y, r]]); and a car's collision shape from the sandbox's shape array
# (kind 0 rectangle, 1 capsule, 2 circle; sizes as tools/godot_contact says).
extends Reference


static func add_walls(parent, path):
	var file = File.new()
	if file.open(path, File.READ) != OK:
		return false
	var parsed = JSON.parse(file.get_as_text())
	file.close()
	if parsed.error != OK:
		return false
	var data = parsed.result
	for line in data["polylines"]:
		var points = line["points"]
		var count = points.size()
		var last = count if line["closed"] else count - 1
		for i in range(last):
			var segment = SegmentShape2D.new()
			segment.a = Vector2(points[i][0], points[i][1])
			segment.b = Vector2(points[(i + 1) % count][0], points[(i + 1) % count][1])
			_add_static(parent, segment, Vector2(), 0.0)
	for r in data["rects"]:
		var rect = RectangleShape2D.new()
		rect.extents = Vector2(r[2] / 2.0, r[3] / 2.0)
		_add_static(parent, rect, Vector2(r[0], r[1]), r[4])
	for c in data["circles"]:
		var circle = CircleShape2D.new()
		circle.radius = c[2]
		_add_static(parent, circle, Vector2(c[0], c[1]), 0.0)
	return true


static func car_shape(s):
	var holder = CollisionShape2D.new()
	if int(s[0]) == 0:
		holder.shape = RectangleShape2D.new()
		holder.shape.extents = Vector2(s[1] / 2.0, s[2] / 2.0)
	elif int(s[0]) == 1:
		holder.shape = CapsuleShape2D.new()
		holder.shape.radius = s[1]
		holder.shape.height = s[2] - 2.0 * s[1]
	else:
		holder.shape = CircleShape2D.new()
		holder.shape.radius = s[1]
	holder.position = Vector2(s[3], s[4])
	holder.rotation = s[5]
	return holder


static func _add_static(parent, shape, position, rotation):
	var wall = StaticBody2D.new()
	var holder = CollisionShape2D.new()
	holder.shape = shape
	wall.add_child(holder)
	wall.position = position
	wall.rotation = rotation
	parent.add_child(wall)
