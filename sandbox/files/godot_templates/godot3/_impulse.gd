# Shared by the rigid cars' templates: walls met as the sandbox meets them (its docs,
# "Walls: how a rigid car meets them"): move_and_collide of the tick's motion, then an
# impulse at the contact point with the walls' restitution and friction.

func _bounce(x0, y0, inertia):
	# the node where the tick began, turned to the new heading, moved by the tick's motion;
	# a wall met: the car stays where the engine stopped it and an impulse at the contact
	# point changes its velocity and yaw rate (true: it met one)
	position = Vector2(x0, y0) * pixels_per_metre
	rotation = heading
	var target = Vector2(pos_x, pos_y) * pixels_per_metre
	var hit = move_and_collide(target - position)
	if hit == null:
		position = target
	else:
		pos_x = position.x / pixels_per_metre
		pos_y = position.y / pixels_per_metre
		var normal = hit.get_normal()
		var point = _pressure_point(hit.get_position(), normal) / pixels_per_metre
		_wall_impulse(point.x - pos_x, point.y - pos_y, normal.x, normal.y, inertia)
	velocity = Vector2(vx, vy) * pixels_per_metre  # px/s, as a game reads a body's velocity
	return hit != null


func _wall_impulse(rx, ry, nx, ny, inertia):
	# the impulse of a rigid body on a fixed wall at lever (rx, ry) (m), normal (nx, ny) out
	# of the wall: the point's speed into the wall × −restitution, then friction along the
	# wall at most WALL_FRICTION × the normal impulse (never past stopping the sliding)
	var px = vx - omega * ry
	var py = vy + omega * rx
	var vn = px * nx + py * ny
	if vn >= 0.0:
		return
	var lever_n = rx * ny - ry * nx
	var jn = -(1.0 + WALL_RESTITUTION) * vn / (1.0 / mass + lever_n * lever_n / inertia)
	vx += jn * nx / mass
	vy += jn * ny / mass
	omega += lever_n * jn / inertia
	px = vx - omega * ry
	py = vy + omega * rx
	vn = px * nx + py * ny
	var tx = px - vn * nx
	var ty = py - vn * ny
	var sliding = sqrt(tx * tx + ty * ty)
	if sliding == 0.0:
		return
	tx /= sliding
	ty /= sliding
	var lever_t = rx * ty - ry * tx
	var jt = _min(sliding / (1.0 / mass + lever_t * lever_t / inertia), WALL_FRICTION * jn)
	vx -= jt * tx / mass
	vy -= jt * ty / mass
	omega -= lever_t * jt / inertia


func _pressure_point(point, normal):
	# where the impulse acts (px): the engine's contact point, unless a face of the car meets
	# the wall flat and the point is one of its ends: then the face's middle, along the wall
	var face = _face_along(-normal)
	if face.size() < 2:
		return point
	var t = Vector2(-normal.y, normal.x)
	var a = face[0].dot(t)
	var b = face[1].dot(t)
	var at = point.dot(t)
	if _min(abs(at - a), abs(at - b)) > FACE_END * abs(b - a) + get_safe_margin():
		return point
	return point + t * ((a + b) / 2.0 - at)


func _face_along(d):
	# the ends of the car shape's face along direction d (px), when a face is within the
	# engine's support threshold of it; else nothing
	for child in get_children():
		var collision = child as CollisionShape2D
		if collision != null and not collision.disabled:
			var xf = collision.global_transform
			var local = xf.basis_xform_inv(d).normalized()
			var shape = collision.shape  # untyped: its sizes are those of its own kind
			if shape is RectangleShape2D:
				var e = shape.extents
				if abs(local.x) >= 0.99998:
					var sx = e.x if local.x > 0 else -e.x
					return [xf * Vector2(sx, e.y), xf * Vector2(sx, -e.y)]
				if abs(local.y) >= 0.99998:
					var sy = e.y if local.y > 0 else -e.y
					return [xf * Vector2(e.x, sy), xf * Vector2(-e.x, sy)]
			elif shape is CapsuleShape2D and abs(local.y) < 2e-5:
				var r = shape.radius if local.x > 0 else -shape.radius
				var h = shape.height / 2.0  # Godot 3: the straight part
				return [xf * Vector2(r, h), xf * Vector2(r, -h)]
			return []
	return []
