# Dynamic car of Marco Monster's "Car Physics for Games" (2003), Godot 3.
{{HEADER}}
extends KinematicBody2D

{{CONSTANTS}}
const ASSIST_MIN_SPEED = {{ASSIST_MIN_SPEED}}  # m/s: slower, the assists rest (a slip angle is noise)
const RADIANS = PI / 180.0
const G = 9.8
const LOW_SPEED = 2.0  # m/s: the car turns kinematically below it; the slip formulas' divisor floor
const STOP = 0.3  # m/s: below it the brake selects reverse (and the throttle first gear)
const SPEED_LIMIT_M = 500.0  # m/s: the sandbox's speed guard, shared by every model
# rpm of the torque curve's points, the parameters torque_1000 … torque_6000 in order
const KNOTS = [1000.0, 2000.0, 2500.0, 3500.0, 4400.0, 5000.0, 5600.0, 6000.0]
const MAGIC_C = 1.65  # the Magic Formula's shape C (pacejka)
const MAGIC_E = 0.97  # and its curvature E
# B·x where the Magic Formula peaks (bisection in the sandbox): 3.9800792737318322, written as
# its exact fraction because Godot 3.2 reads a 17-digit literal an ulp off
const MAGIC_PEAK = 8962341767041857 / 2251799813685248.0
# walls (the sandbox's track parameters; see _bounce below)
const WALL_RESTITUTION = 0.2  # the share of the speed into a wall a car keeps going out
const WALL_FRICTION = 0.5  # Coulomb friction coefficient along a wall
const FACE_END = 1e-3  # share of a face's length within which a contact is at its end

{{PARAMS}}
{{SCALE}}

{{METRES_STATE}}
var steer_feel = 0.0  # the steer held by the steering feel, -1 … 1
# the rest of the sandbox's state, slot by slot
var vx = 0.0  # m/s, world frame
var vy = 0.0
var wheel_angle = 0.0  # rad: the front wheels' angle in the last tick
var traction_fast = 0.0  # 1.0: the rear wheels slipped (|slip ratio| > 0.2) in the last tick
var omega = 0.0  # yaw rate, rad/s
var wheel_omega = 0.0  # the rear axle's spin, rad/s
var gear = 1  # 1 … 6, -1 reverse
var rpm = 0.0
var slip_ratio = 0.0
var alpha_front = 0.0
var alpha_rear = 0.0
var lat_front = 0.0
var lat_rear = 0.0
var load_front = 0.0
var load_rear = 0.0
var traction = 0.0
var accel_long = 0.0  # m/s²: last tick's, the next tick's weight transfer
var wheel_left = 0.0
var wheel_right = 0.0
# the body's unit heading vector, kept from the tick that set it: NaN until the first tick
# takes it from the heading (set both to NAN after turning the car by hand)
var heading_x = NAN
var heading_y = NAN
var velocity = Vector2.ZERO


func _ready():
	_start_at_node()


func _physics_process(delta):
	var turn = Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")
	turn = feel_with_assists(turn, vx, vy, heading, max_steer, _tick_length(delta))
	var throttle = Input.get_action_strength("accelerate")
	var brake = Input.get_action_strength("brake")
	var handbrake = Input.get_action_strength("handbrake")
	var shift = 0
	if Input.is_action_just_pressed("shift_up"):
		shift = 1
	elif Input.is_action_just_pressed("shift_down"):
		shift = -1
	var x0 = pos_x
	var y0 = pos_y
	step(turn, throttle, brake, handbrake, shift, _tick_length(delta))
	# walls: the tick's motion with move_and_collide, an impulse where it met one
	_bounce(x0, y0, yaw_inertia)
	rotation = heading


func step(steer_in, throttle, brake, handbrake_in, shift, dt):
	# one tick, as the sandbox computes it (car frame: x forward, y right)
	var handbrake = handbrake_in > 0
	var m = mass
	var inertia = yaw_inertia
	var b = cg_to_front  # the text's b and c
	var c = cg_to_rear
	var wheel_base = b + c
	var radius = wheel_radius
	var axle_inertia = wheel_inertia
	var delta = steer_in * (max_steer * RADIANS)  # the front wheels' angle δ (not a time)
	var sin_d = sin(delta)
	var cos_d = cos(delta)

	var h = heading
	var ch = heading_x
	var sh = heading_y
	if is_nan(ch) or is_nan(sh):
		# a car placed by hand: its heading vector from the angle
		ch = cos(h)
		sh = sin(h)
	var v_long = vx * ch - vy * -sh  # into the car frame
	var v_lat = vx * -sh + vy * ch
	var wheel = wheel_omega
	var loads = _axle_loads(accel_long)
	var front_load = loads[0]
	var rear_load = loads[1]

	# gearbox (the state's gear, shifted in place): reverse from rest on the brake, first
	# from rest on the throttle (at rest: slow along the car and across it)
	var still = _max(abs(v_long), abs(v_lat)) < STOP
	if still and brake > 0 and throttle == 0:
		gear = -1
	if still and throttle > 0 and gear < 0:
		gear = 1
	var ratio = _gear_ratio(gear)
	var rpm_now = _engine_rpm(wheel, ratio)
	var up = shift > 0
	var down = shift < 0
	if not manual_gears:
		up = rpm_now > shift_up_rpm
		down = rpm_now < shift_down_rpm
	if up and 1 <= gear and gear < 6:
		gear += 1
	elif down and gear > 1:
		gear -= 1
	ratio = _gear_ratio(gear)
	rpm_now = _max(_engine_rpm(wheel, ratio), idle_rpm)
	var pedal = brake if gear < 0 else throttle  # in reverse the brake pedal drives
	var direction = -1.0 if gear < 0 else 1.0
	var engine_torque = pedal * _torque_curve(rpm_now)
	var drive_torque = direction * engine_torque * ratio * differential * efficiency

	var braking = throttle if gear < 0 else brake  # in reverse the pedals swap: the throttle brakes
	var floor_speed = _max(abs(v_long), LOW_SPEED)
	var slip_speed = wheel * radius - v_long
	var slip_start = slip_speed / floor_speed

	# cornering: slip angles and lateral forces, grip ≤ μ·load
	var direction_sign = 1.0 if v_long >= 0 else -1.0
	var alpha_f = atan2(v_lat + omega * b, floor_speed) - delta * direction_sign
	var alpha_r = atan2(v_lat - omega * c, floor_speed)
	var rear_grip = handbrake_grip if handbrake else 1.0
	# side forces fade out when slow, along the car and across it (a car sliding
	# sideways is not slow, whatever its forward speed)
	var dynamic_now = _smooth((_max(abs(v_long), abs(v_lat)) - LOW_SPEED) / LOW_SPEED)
	var grip_f = mu * front_load
	var grip_r = mu * rear_load * rear_grip
	var lat_f = dynamic_now * _min(_max(-cornering_front * alpha_f * front_load, -grip_f), grip_f)
	var lat_r = dynamic_now * _min(_max(-cornering_rear * alpha_r * rear_load, -grip_r), grip_r)

	# forces in the car frame other than the rear traction
	var speed = sqrt(v_long * v_long + v_lat * v_lat)
	var brakes = _brakes(braking, front_load, abs(v_long) / floor_speed)
	var front_brake = brakes[0]
	var rear_brake = brakes[1]
	var along_front = -sin_d * lat_f
	if tutorial_cornering:
		along_front = 0.0
	var side_front = cos_d * lat_f
	var fy = lat_r + side_front
	# drag and rolling resistance (held at Crr·LOW_SPEED when slower), and the front
	# brakes: never reverse the motion
	var resist = c_drag * speed + c_rr * _max(speed, LOW_SPEED) / _max(speed, 1e-12)
	resist = _min(resist, m / dt)
	var front_stop = _min(front_brake, abs(v_long) * m / dt)
	var other = along_front - resist * v_long - _sign(v_long) * front_stop
	fy = fy - resist * v_lat

	# rear wheels: the traction that agrees with the slip it leaves (implicit), the
	# brake against the spin; a brake that would reverse the wheel locks it instead
	var turning = _sign(wheel)
	if wheel == 0.0:
		turning = _sign(drive_torque - _traction_ratio(slip_start) * rear_load * radius)
	var brake_torque_now = rear_brake * turning
	var spin_up = radius * (drive_torque - brake_torque_now) / axle_inertia
	var slip_ahead = slip_speed + dt * (spin_up - other / m)
	var give = dt * (radius * radius / axle_inertia + 1.0 / m)
	var rear_traction = _implicit_traction(slip_ahead, give, rear_load, floor_speed)
	var wheel_torque = drive_torque - rear_traction * radius - brake_torque_now
	var wheel_after = wheel + wheel_torque / axle_inertia * dt
	if handbrake or (rear_brake > 0 and wheel_after * turning <= 0):
		# the wheel held still: only the car moves the slip
		wheel_after = 0.0
		rear_traction = _implicit_traction(-v_long - dt * other / m, dt / m, rear_load, floor_speed)
	var travel = 1.0 if v_long >= 0 else -1.0
	if anti_lock_brakes and rear_brake > 0 and not handbrake:
		var slip_after = wheel_after * radius - (v_long + (rear_traction + other) / m * dt)
		var held = _peak_slip_ratio() * floor_speed  # ABS: the braking slip stays at the peak's
		if slip_after * travel < -held:
			rear_traction = -travel * mu * rear_load
			var rolled = (v_long + (rear_traction + other) / m * dt) * travel - held
			wheel_after = travel * _max(rolled, 0.0) / radius
	if braking > 0 and (v_long + (rear_traction + other) / m * dt) * v_long < 0:
		# guard: braking stops the car, never reverses it
		rear_traction = -other - v_long * m / dt
	var fx = rear_traction + other
	var torque = b * side_front - c * lat_r

	var ax = fx / m
	var ay = fy / m
	# Euler in world coordinates, as the text (a = F/M; v += a·dt): the velocity turns
	# only by the forces, not with the body
	var world_ax = ax * ch - ay * sh
	var world_ay = ax * sh + ay * ch
	var vx_dynamic = vx + world_ax * dt
	var vy_dynamic = vy + world_ay * dt
	var new_long = v_long + ax * dt
	var new_omega = omega + torque / inertia * dt
	# low speed: kinematic turning, blended into the dynamic model up to 2·LOW_SPEED
	# along the car or across it
	var new_lat = v_lat + ay * dt
	var dynamic = _smooth((_max(abs(new_long), abs(new_lat)) - LOW_SPEED) / LOW_SPEED)
	var kinematic_omega = new_long * sin_d / wheel_base
	new_omega = dynamic * new_omega + (1.0 - dynamic) * kinematic_omega
	var new_heading = h + new_omega * dt
	var chn = cos(new_heading)
	var shn = sin(new_heading)
	# kinematic: the velocity follows the body, along the new heading. Across the car it
	# loses (1 − dynamic)·new_lat, but at most what the side grip μ·(Wf + Wr·rear grip)
	# left by this tick's tyre forces can take (m/s): a sideways slide keeps the rest
	var grip_left = _max(grip_f + grip_r - abs(side_front + lat_r), 0.0) * dt / m
	var lost = _min(_max((1.0 - dynamic) * new_lat, -grip_left), grip_left)
	var kept = (1.0 - dynamic) * new_lat - lost
	var new_vx = dynamic * vx_dynamic + (1.0 - dynamic) * chn * new_long - shn * kept
	var new_vy = dynamic * vy_dynamic + (1.0 - dynamic) * shn * new_long + chn * kept
	# guard: no faster than the sandbox's 500 m/s (compared squared, as limits.limit_speed)
	var squared = new_vx * new_vx + new_vy * new_vy
	if squared > SPEED_LIMIT_M * SPEED_LIMIT_M:
		var slower = SPEED_LIMIT_M / sqrt(squared)
		new_vx = new_vx * slower
		new_vy = new_vy * slower
	# the tachometer and the slip ratio as they stand after the tick (with its speed)
	var end_long = new_vx * chn - new_vy * -shn
	var end_rpm = _max(_engine_rpm(wheel_after, ratio), idle_rpm)
	var end_slip = (wheel_after * radius - end_long) / _max(abs(end_long), LOW_SPEED)

	pos_x += new_vx * dt
	pos_y += new_vy * dt
	heading = atan2(shn, chn)
	vx = new_vx
	vy = new_vy
	wheel_angle = delta
	traction_fast = 1.0 if abs(end_slip) > 0.2 else 0.0
	omega = new_omega
	wheel_omega = wheel_after
	rpm = end_rpm
	slip_ratio = end_slip
	alpha_front = alpha_f
	alpha_rear = alpha_r
	lat_front = lat_f
	lat_rear = lat_r
	load_front = front_load
	load_rear = rear_load
	traction = rear_traction
	accel_long = ax
	wheel_left = delta
	wheel_right = delta
	heading_x = chn
	heading_y = shn


func _gear_ratio(number):
	# ratio of gear `number` (1 … 6, above 6 the sixth; below 0 reverse; 0 neutral: 0)
	if number > 0:
		return [gear_1, gear_2, gear_3, gear_4, gear_5, gear_6][_min(number, 6) - 1]
	if number < 0:
		return gear_reverse
	return 0.0


func _engine_rpm(spin, ratio):
	# rpm = wheel rotation rate · xg · xd · 60 / 2π (the text, "How do we get the RPM?")
	return abs(spin) * ratio * differential * 60.0 / (2.0 * PI)


func _torque_curve(at_rpm):
	# max engine torque (N·m): linear between the curve's points, the end values beyond
	# them, 0 above the redline; np.interp's arithmetic (slope · (rpm - knot) + value)
	if at_rpm > redline_rpm:
		return 0.0
	var values = [torque_1000, torque_2000, torque_2500, torque_3500, torque_4400, torque_5000,
			torque_5600, torque_6000]
	var last = KNOTS.size() - 1
	if at_rpm <= KNOTS[0]:
		return values[0]
	if at_rpm >= KNOTS[last]:
		return values[last]
	var j = 0
	while at_rpm >= KNOTS[j + 1]:  # KNOTS[j] <= rpm < KNOTS[j + 1]
		j += 1
	var low = values[j]
	var high = values[j + 1]
	return (high - low) / (KNOTS[j + 1] - KNOTS[j]) * (at_rpm - KNOTS[j]) + low


func _axle_loads(accel):
	# [front, rear] axle loads (N) with weight transfer (the text, "Weight Transfer")
	var b = cg_to_front
	var c = cg_to_rear
	var h = cg_height
	var m = mass
	var wheel_base = b + c
	var weight = m * G
	var shift = h / wheel_base * m * accel
	var front = _min(_max(c / wheel_base * weight - shift, 0.0), weight)
	return [front, weight - front]


func _traction_ratio(slip):
	# traction force / load for a slip ratio: Ct·SR capped at ±μ, or Pacejka
	var k = traction_slope
	if not pacejka:
		return _min(_max(k * slip, -mu), mu)
	# Magic Formula D·sin(C·atan(B·x − E·(B·x − atan(B·x)))) with B from the same slope
	var shape_b = k / (MAGIC_C * _max(mu, 1e-9))
	var bx = shape_b * slip
	return mu * sin(MAGIC_C * atan(bx - MAGIC_E * (bx - atan(bx))))


func _peak_slip_ratio():
	# slip ratio of the traction curve's peak: μ/Ct when capped linear, the Magic Formula's
	var mu_safe = _max(mu, 1e-9)
	if not pacejka:
		return mu_safe / traction_slope
	return MAGIC_PEAK * MAGIC_C * mu_safe / traction_slope


func _traction_slope(slip):
	# d(traction ratio)/d(slip ratio) of _traction_ratio, for Newton's method
	var k = traction_slope
	if not pacejka:
		return k if abs(k * slip) < mu else 0.0
	var shape_b = k / (MAGIC_C * _max(mu, 1e-9))
	var bx = shape_b * slip
	var phi = bx - MAGIC_E * (bx - atan(bx))
	var dphi = shape_b - MAGIC_E * (shape_b - shape_b / (1.0 + bx * bx))
	return mu * cos(MAGIC_C * atan(phi)) * MAGIC_C / (1.0 + phi * phi) * dphi


func _implicit_traction(slip_ahead, give, axle_load, floor_speed):
	# the traction T (N) that agrees with the slip it leaves at the end of the tick
	# (backward Euler on the wheel's stiff equation): T = load·f((slip_ahead − give·T)/floor).
	# Capped linear: in closed form; Magic Formula: Newton kept inside the bracket [0, μ·load]
	if not pacejka:
		var stiffness = axle_load * traction_slope / floor_speed  # N per m/s of slip
		var linear = stiffness * slip_ahead / (1.0 + give * stiffness)
		return _min(_max(linear, -mu * axle_load), mu * axle_load)
	var lo = 0.0
	var hi = mu * axle_load * _sign(slip_ahead)
	if hi < lo:
		var swap = lo
		lo = hi
		hi = swap
	var force = 0.0
	for _k in range(40):
		var ratio = (slip_ahead - give * force) / floor_speed
		var error = force - axle_load * _traction_ratio(ratio)
		if abs(error) <= 1e-9 * (1.0 + mu * axle_load):
			break
		if error > 0:
			hi = force
		else:
			lo = force
		var slope = 1.0 + axle_load * _traction_slope(ratio) * give / floor_speed
		var next_force = lo - 1.0
		if slope > 0:
			next_force = force - error / slope
		force = next_force if lo < next_force and next_force < hi else (lo + hi) / 2.0
	return force


func _brakes(pedal, front_load, locked_ratio):
	# [front braking force N, rear brake torque N·m]: the text's split (a force on the
	# front, at most μ × its load, and a torque on the rear wheels), or four_wheel_brakes:
	# one torque shared by brake_bias; a front braked past its grip locks and slides at
	# the curve's value (with ABS, it stays at the peak)
	if not four_wheel_brakes:
		return [_min(pedal * brake_force, mu * front_load), pedal * brake_torque]
	var total = pedal * brake_total
	var front = total * brake_bias / wheel_radius
	var peak = mu * front_load
	if front > peak:
		front = peak if anti_lock_brakes else abs(_traction_ratio(-locked_ratio)) * front_load
	return [front, total * (1.0 - brake_bias)]


func _smooth(x):
	var t = _min(_max(x, 0.0), 1.0)
	return t * t * (3.0 - 2.0 * t)


{{METRES}}


{{IMPULSE}}


{{STEER_FEEL}}


{{STEER_ASSIST}}


{{ADD_ACTIONS}}
