# Rigid body with tyre patches of M. Kincaid's "2D Car Physics", Godot 4.
{{HEADER}}
extends CharacterBody2D

{{CONSTANTS}}
const ASSIST_MIN_SPEED: float = {{ASSIST_MIN_SPEED}}  # m/s: slower, the assists rest (a slip angle is noise)
const RADIANS: float = PI / 180.0
const GRAVITY: float = 9.81  # m/s²: the weight that loads the tyres with grip ∝ load
const REVERSE_BELOW: float = 0.5  # m/s: below this forward speed, the brake pedal drives backwards
const SPEED_LIMIT_M: float = 500.0  # m/s: the sandbox's speed guard (the tutorial has no drag)
# wheel corners in units of (half_length, half_width): front-left, front-right, rear-left,
# rear-right
const CORNER_X: Array[float] = [1.0, 1.0, -1.0, -1.0]
const CORNER_Y: Array[float] = [-1.0, 1.0, -1.0, 1.0]
const FRONT: Array[bool] = [true, true, false, false]
# walls (the sandbox's track parameters; see _bounce below)
const WALL_RESTITUTION := 0.2  # the share of the speed into a wall a car keeps going out
const WALL_FRICTION := 0.5  # Coulomb friction coefficient along a wall
const FACE_END := 1e-3  # share of a face's length within which a contact is at its end

{{SCALE}}

{{PARAMS}}

{{METRES_STATE}}
# Vehicle frame: +x forward, +y to the right; the heading increases turning right.
var _steer_feel := 0.0  # the steer held by the steering feel, -1 … 1
var _vx: float = 0.0
var _vy: float = 0.0
var _omega: float = 0.0
# rad/s: front-left, front-right, rear-left, rear-right
var _wheel_speed: Array[float] = [0.0, 0.0, 0.0, 0.0]
var _steer: float = 0.0
# telemetry, as the sandbox plots it: tyre slip angles (rad) and lateral forces (N)
var _slip_front: float = 0.0
var _slip_rear: float = 0.0
var _side_force_front: float = 0.0
var _side_force_rear: float = 0.0


func _ready() -> void:
	_start_at_node()


func _physics_process(delta: float) -> void:
	# delta is the sandbox's tick: 1.0 / physics_ticks_per_second in 64 bits (× Engine.time_scale)
	var turn := Input.get_axis("steer_left", "steer_right")
	turn = _feel_with_assists(turn, _vx, _vy, _heading, max_steer, delta)
	var throttle := Input.get_action_strength("accelerate")
	var brake := Input.get_action_strength("brake")
	var x0 := _pos_x
	var y0 := _pos_y
	_step(turn, throttle, brake, delta)
	# walls: the tick's motion with move_and_collide, an impulse where it met one
	_bounce(x0, y0, _yaw_inertia())
	rotation = _heading


func _step(steer_in: float, throttle: float, brake: float, dt: float) -> void:
	# one tick of the tutorial: four tyre patches push the chassis, then Euler
	_steer = steer_in * (max_steer * RADIANS)
	var radius := wheel_radius
	var inertia := _yaw_inertia()
	var inertia_w := wheel_inertia
	var limited := grip_limit or grip_load
	var cap := max_grip
	if grip_load:
		cap = mu * mass * GRAVITY / 4.0

	var ch := cos(_heading)
	var sh := sin(_heading)
	var nsh := -sh  # the rotation into the vehicle frame
	var forward_speed := ch * _vx + sh * _vy
	# the pedals: the brake drives backwards once nearly stopped, else brakes every wheel
	var reverse := brake > 0 and forward_speed < REVERSE_BELOW
	var pedal := throttle
	var brake_pedal := brake
	if reverse:
		pedal = -brake
		brake_pedal = 0.0
	var drive := pedal * drive_torque
	var braking := brake_pedal * brake_torque
	var stop_spin := braking / inertia_w * dt
	var top_spin := SPEED_LIMIT_M / radius
	# wheel axes (vehicle frame): forward (cos δ, sin δ), δ = steer on the front wheels, 0 behind
	var cos_steer := cos(_steer)
	var sin_steer := sin(_steer)
	var safe_forward_grip := _forward_grip(
		cos_steer, sin_steer, inertia, radius * radius / inertia_w, dt
	)

	var force_x := 0.0
	var force_y := 0.0
	var torque := 0.0
	var slips: Array[float] = [0.0, 0.0]  # front, rear
	var sides: Array[float] = [0.0, 0.0]
	for k in range(4):
		var front := FRONT[k]
		# the wheel's offset in the vehicle frame, and in the world
		var ox := CORNER_X[k] * half_length
		var oy := CORNER_Y[k] * half_width
		var wx := ox * ch - oy * sh
		var wy := ox * sh + oy * ch
		# 1. axes: forward (fx, fy), side (−sin δ, cos δ)
		var fx := 1.0
		var fy := 0.0
		if front:
			fx = cos_steer
			fy = sin_steer
		var sx := -fy
		var sy := fx
		# 2. ground velocity of the wheel point (PointVel), into the vehicle frame
		var px := _vx - _omega * wy
		var py := _vy + _omega * wx
		var gx := px * ch - py * nsh
		var gy := px * nsh + py * ch
		var spin_now := _wheel_speed[k]
		var dx := gx - fx * spin_now * radius
		var dy := gy - fy * spin_now * radius
		# 3. projections
		var side_mag := dx * sx + dy * sy
		var forward_mag := dx * fx + dy * fy
		# 4. response force (vehicle frame), optionally saturated
		var safe_side_grip := minf(_grip_cap(ox, oy, sx, sy, inertia, dt), side_grip)
		var rx := -sx * side_mag * safe_side_grip - fx * forward_mag * safe_forward_grip
		var ry := -sy * side_mag * safe_side_grip - fy * forward_mag * safe_forward_grip
		var shrink := 1.0
		if limited:
			# the sandbox takes math.hypot here, which can differ from this by an ulp
			var size := sqrt(rx * rx + ry * ry)
			if size > cap:
				shrink = cap / maxf(1e-12, size)
				rx = rx * shrink
				ry = ry * shrink
		# 5. wheel torque: the reaction of the patch's forward force (−F·radius) + drive
		# (rear) + brake (against the spin, never past zero)
		var road := forward_mag * safe_forward_grip * shrink * radius
		var own_drive := 0.0
		if not front:
			own_drive = drive
		var spin := spin_now + (road + own_drive) / inertia_w * dt
		spin = signf(spin) * maxf(0.0, absf(spin) - stop_spin)
		# 6. the new spin, held to the ground speed of the speed guard
		_wheel_speed[k] = clampf(spin, -top_spin, top_spin)
		# the chassis: accumulate the world force and torque (AddForce: τ += offset × f)
		var world_x := rx * ch - ry * sh
		var world_y := rx * sh + ry * ch
		var cross := wx * world_y - wy * world_x
		force_x = force_x + world_x
		force_y = force_y + world_y
		torque = torque + cross
		# telemetry: slip angle and lateral force of the tyre
		var axle := 0 if front else 1
		slips[axle] += atan2(side_mag, maxf(1e-6, absf(gx * fx + gy * fy)))
		sides[axle] += rx * sx + ry * sy

	_integrate(force_x, force_y, torque, inertia, dt)
	# guard: the tutorial has no drag, so a held throttle never stops accelerating
	_limit_speed()
	_slip_front = slips[0] / 2.0
	_slip_rear = slips[1] / 2.0
	_side_force_front = sides[0]
	_side_force_rear = sides[1]


func _yaw_inertia() -> float:
	# kg·m²: the tutorial's (1/12)·hx²·hy²·m, or a box's m·(L² + W²)/12
	if box_inertia:
		var length := 2.0 * half_length
		var width := 2.0 * half_width
		return mass * (length * length + width * width) / 12.0
	return (1.0 / 12.0) * (half_length * half_length) * (half_width * half_width) * mass


func _integrate(force_x: float, force_y: float, torque: float, inertia: float, dt: float) -> void:
	# Euler with the new velocity (the tutorial's RigidBody.Update); the heading wrapped to (-π, π]
	_vx = _vx + force_x / mass * dt
	_vy = _vy + force_y / mass * dt
	_omega = _omega + torque / inertia * dt
	var new_heading := _heading + _omega * dt
	_pos_x += _vx * dt
	_pos_y += _vy * dt
	_heading = atan2(sin(new_heading), cos(new_heading))


func _limit_speed() -> void:
	# scaled down to the speed guard if faster, compared squared as the sandbox does
	var squared := _vx * _vx + _vy * _vy
	if squared > SPEED_LIMIT_M * SPEED_LIMIT_M:
		var factor := SPEED_LIMIT_M / sqrt(squared)
		_vx = _vx * factor
		_vy = _vy * factor


func _grip_cap(ox: float, oy: float, ax: float, ay: float, inertia: float, dt: float) -> float:
	# the largest grip (N·s/m) that removes no more than a patch's own slip along axis
	# (ax, ay) in one tick, shared by the four wheels: m_eff / (4·dt)
	var lever := ox * ay - oy * ax
	var m_eff := 1.0 / (1.0 / mass + lever * lever / inertia)
	return m_eff / (4.0 * dt)


func _forward_axis(k: int, cos_steer: float, sin_steer: float) -> Array[float]:
	# wheel k's forward axis (vehicle frame) and its lever about the centre (m)
	var fx := 1.0
	var fy := 0.0
	if FRONT[k]:
		fx = cos_steer
		fy = sin_steer
	return [fx, fy, CORNER_X[k] * half_length * fy - CORNER_Y[k] * half_width * fx]


func _forward_grip(
	cos_steer: float, sin_steer: float, inertia: float, spin_term: float, dt: float
) -> float:
	# the forward grip (N·s/m), lowered so that dt·grip·(Gershgorin's largest row sum of
	# the forward patches' coupling) is at most 1; entry (k, l) is f_k·f_l/m + lever_k·lever_l/I
	# (+ radius²/wheel_inertia, spin_term, when k = l)
	var worst := 0.0
	for k in range(4):
		var axis := _forward_axis(k, cos_steer, sin_steer)
		var row := spin_term
		for j in range(4):
			var other := _forward_axis(j, cos_steer, sin_steer)
			row += absf(
				(axis[0] * other[0] + axis[1] * other[1]) / mass + axis[2] * other[2] / inertia
			)
		worst = maxf(row, worst)
	return minf(1.0 / (dt * worst), forward_grip)


{{METRES}}


{{IMPULSE}}


{{STEER_FEEL}}


{{STEER_ASSIST}}


{{ADD_ACTIONS}}
