# Shared by the rigid cars' templates: walls met as the sandbox meets them (its docs,
# "Walls: how a rigid car meets them"): move_and_collide of the tick's motion, then an
# impulse at the contact point with the walls' restitution and friction.

func _bounce(x0: float, y0: float, inertia: float) -> bool:
	# the node where the tick began, turned to the new heading, moved by the tick's motion;
	# a wall met: the car stays where the engine stopped it and an impulse at the contact
	# point changes its velocity and yaw rate (true: it met one)
	position = Vector2(x0, y0) * pixels_per_metre
	rotation = _heading
	var target := Vector2(_pos_x, _pos_y) * pixels_per_metre
	var hit := move_and_collide(target - position)
	if hit == null:
		position = target
	else:
		_pos_x = position.x / pixels_per_metre
		_pos_y = position.y / pixels_per_metre
		var normal := hit.get_normal()
		var point := _pressure_point(hit.get_position(), normal) / pixels_per_metre
		_wall_impulse(point.x - _pos_x, point.y - _pos_y, normal.x, normal.y, inertia)
	velocity = Vector2(_vx, _vy) * pixels_per_metre  # px/s, as a game reads a body's velocity
	return hit != null


func _wall_impulse(rx: float, ry: float, nx: float, ny: float, inertia: float) -> void:
	# the impulse of a rigid body on a fixed wall at lever (rx, ry) (m), normal (nx, ny) out
	# of the wall: the point's speed into the wall × −restitution, then friction along the
	# wall at most WALL_FRICTION × the normal impulse (never past stopping the sliding)
	var px := _vx - _omega * ry
	var py := _vy + _omega * rx
	var vn := px * nx + py * ny
	if vn >= 0.0:
		return
	var lever_n := rx * ny - ry * nx
	var jn := -(1.0 + WALL_RESTITUTION) * vn / (1.0 / mass + lever_n * lever_n / inertia)
	_vx += jn * nx / mass
	_vy += jn * ny / mass
	_omega += lever_n * jn / inertia
	px = _vx - _omega * ry
	py = _vy + _omega * rx
	vn = px * nx + py * ny
	var tx := px - vn * nx
	var ty := py - vn * ny
	var sliding := sqrt(tx * tx + ty * ty)
	if sliding == 0.0:
		return
	tx /= sliding
	ty /= sliding
	var lever_t := rx * ty - ry * tx
	var jt := minf(WALL_FRICTION * jn, sliding / (1.0 / mass + lever_t * lever_t / inertia))
	_vx -= jt * tx / mass
	_vy -= jt * ty / mass
	_omega -= lever_t * jt / inertia


func _pressure_point(point: Vector2, normal: Vector2) -> Vector2:
	# where the impulse acts (px): the engine's contact point, unless a face of the car meets
	# the wall flat and the point is one of its ends: then the face's middle, along the wall
	var face: Array = _face_along(-normal)
	if face.size() < 2:
		return point
	var t := Vector2(-normal.y, normal.x)
	var a: float = face[0].dot(t)
	var b: float = face[1].dot(t)
	var at := point.dot(t)
	if minf(absf(at - b), absf(at - a)) > FACE_END * absf(b - a) + get_safe_margin():
		return point
	return point + t * ((a + b) / 2.0 - at)


func _face_along(d: Vector2) -> Array:
	# the ends of the car shape's face along direction d (px), when a face is within the
	# engine's support threshold of it; else nothing
	for child in get_children():
		var collision := child as CollisionShape2D
		if collision != null and not collision.disabled:
			var xf := collision.global_transform
			var local := xf.basis_xform_inv(d).normalized()
			var shape = collision.shape  # untyped: its sizes are those of its own kind
			if shape is RectangleShape2D:
				var e: Vector2 = shape.size / 2.0
				if absf(local.x) >= 0.99998:
					var sx := e.x if local.x > 0 else -e.x
					return [xf * Vector2(sx, e.y), xf * Vector2(sx, -e.y)]
				if absf(local.y) >= 0.99998:
					var sy := e.y if local.y > 0 else -e.y
					return [xf * Vector2(e.x, sy), xf * Vector2(-e.x, sy)]
			elif shape is CapsuleShape2D and absf(local.y) < 2e-5:
				var r: float = shape.radius if local.x > 0 else -shape.radius
				var h: float = shape.height / 2.0 - shape.radius  # Godot 4: tip to tip
				return [xf * Vector2(r, h), xf * Vector2(r, -h)]
			return []
	return []
