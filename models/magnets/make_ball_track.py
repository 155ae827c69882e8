#!/usr/bin/python3
"""Writes ball_track.xml beside this script: Westhofen et al. 2024, §4.4.1 ("Perpetual Motion Simulator"), built from
the paper's description. Run it again after changing a figure below; the deck it writes is committed."""
import math
import pathlib
import textwrap

MU0 = 4e-7 * math.pi          # H/m
GRAVITY = 9.81                # m/s²

# The paper: a nickel ball (μ = 1.26e-4 H/m) drops from a funnel into a track of non-magnetic metal that brings it
# back to the funnel; gravity alone cannot, so an electromagnet of 13.75 J/T (= A·m²) pulls it on and switches off
# the moment the ball passes. Here the track is a valley of V-groove segments in the x–z plane (below).
NICKEL_PERMEABILITY = 1.26e-4  # H/m
SUSCEPTIBILITY = NICKEL_PERMEABILITY / MU0 - 1  # χ ≈ 99.3
NICKEL_DENSITY = 8900.0       # kg/m³
BALL_RADIUS = 0.01            # m
MAGNET_MOMENT = 13.75         # A·m², along +z (up, towards the track)
MAGNET_RADIUS = 0.02          # m: the electromagnet as a Sphere magnet, whose field outside is exactly its dipole's

# The track: a V groove (two faces at 45° each side of the vertical, a right angle between them) along a valley
# whose bottom line lies in the x–z plane: a flat middle over the magnet, then on each side segments turning up by
# SLOPE_STEP each (a polygon of a circular arc), then a straight ramp. Every kink is concave (the valley turns up),
# so each box may run past its kink under the next one; the ball only ever meets faces.
FLAT_LENGTH = 0.06            # m, centred over the magnet
ARC_SEGMENTS = 5              # per side
ARC_SEGMENT_LENGTH = 0.04     # m
SLOPE_STEP = math.radians(3)  # each kink of the arc, and the arc's first segment's slope
RAMP_SLOPE = math.radians(18)  # = (ARC_SEGMENTS + 1)·SLOPE_STEP: one more kink of the same angle
RAMP_TOP = 0.16               # m, the ramps' upper ends above the groove's lowest line
FACE_WIDTH = 2.5 * BALL_RADIUS  # m, across each face of the groove (the ball touches at BALL_RADIUS from its bottom)
PLATE_THICKNESS = 0.005       # m
OVERRUN = 0.01                # m, each box runs past its kinks under its neighbours

# The cycle: the ball starts at rest in the groove on the left ramp, its groove bottom FUNNEL_HEIGHT above the
# valley's, rolls down and across, up the right ramp, back, and up the left ramp to where it started.
FUNNEL_HEIGHT = 0.10          # m
MAGNET_DEPTH = 0.04765        # m, the magnet's centre below the groove's bottom line at x = 0

# Contact: a stiff, damped IMPACT law (the ball sinks µm) and Coulomb friction so that it rolls.
CONTACT_STIFFNESS = 1e8       # N/m^1.5
CONTACT_EXPONENT = 1.5
CONTACT_DAMPING = 100.0       # N·s/m: about critical at the ball's contact stiffness
CONTACT_DMAX = 1e-6           # m
MU_STATIC, MU_DYNAMIC = 0.3, 0.25
STICTION_VELOCITY, FRICTION_VELOCITY = 5e-3, 1e-2  # m/s

# The switch: the magnet is on while the ball comes towards it, off from the moment it has passed (the sign of
# −x·vx, smoothed over SWITCH_WIDTH m²/s: 2 mm of travel at 1 m/s).
SWITCH_WIDTH = 2e-3
END_TIME = 30                 # s: Table 1's 1 ms steps, T_total / T_step = 30 005 of them
PRINT_INTERVAL = 0.01         # s

BALL_BODY, BALL_MARKER, BALL_GRAPHIC = 2, 20, 200
MAGNET_MARKER, MAGNET_GRAPHIC = 10, 100


def fmt(x):
    return f"{0.0 if abs(x) < 1e-13 else x:.10g}"


def groove_bottom_line():
    """The groove's bottom line as vertices (x, z) from the left ramp's top to the right ramp's top."""
    right = [(FLAT_LENGTH / 2, 0.0)]
    for k in range(1, ARC_SEGMENTS + 1):
        x, z = right[-1]
        slope = k * SLOPE_STEP
        right.append((x + ARC_SEGMENT_LENGTH * math.cos(slope), z + ARC_SEGMENT_LENGTH * math.sin(slope)))
    x, z = right[-1]
    ramp = (RAMP_TOP - z) / math.sin(RAMP_SLOPE)
    right.append((x + ramp * math.cos(RAMP_SLOPE), RAMP_TOP))
    return [(-x, z) for x, z in reversed(right)] + right


def left_ramp_x(height):
    """x of the groove's bottom line at `height` on the left ramp."""
    vertices = groove_bottom_line()
    (x0, z0), (x1, z1) = vertices[0], vertices[1]
    return x0 + (x1 - x0) * (height - z0) / (z1 - z0)


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def combine(*terms):
    """Σ coefficient·vector over (coefficient, vector) terms."""
    return tuple(sum(c * v[i] for c, v in terms) for i in range(3))


def groove_boxes():
    """(centre, x axis, z axis, length) of every box: two faces of the V groove per segment of the bottom line."""
    vertices = groove_bottom_line()
    root = math.sqrt(0.5)
    boxes = []
    for (xa, za), (xb, zb) in zip(vertices, vertices[1:]):
        length = math.hypot(xb - xa, zb - za)
        along = ((xb - xa) / length, 0.0, (zb - za) / length)
        up = (-along[2], 0.0, along[0])
        side = (0.0, 1.0, 0.0)
        middle = ((xa + xb) / 2, 0.0, (za + zb) / 2)
        for sign in (+1, -1):
            normal = combine((root, up), (-sign * root, side))  # into the groove
            across = combine((root, up), (sign * root, side))   # up the face, from the bottom line
            centre = combine((1, middle), (FACE_WIDTH / 2, across), (-PLATE_THICKNESS / 2, normal))
            boxes.append((centre, along, normal, length + 2 * OVERRUN))
    return boxes


def ball_properties():
    volume = 4 / 3 * math.pi * BALL_RADIUS**3
    mass = NICKEL_DENSITY * volume
    return mass, 0.4 * mass * BALL_RADIUS**2


def magnet_energy_at_pass():
    """The soft ball's energy in the dipole's field on its axis at the pass, −μ0·α·m²/(8π²·d⁶), α = 4πa³χ/(χ+3)."""
    alpha = 4 * math.pi * BALL_RADIUS**3 * SUSCEPTIBILITY / (SUSCEPTIBILITY + 3)
    distance = MAGNET_DEPTH + BALL_RADIUS * math.sqrt(2)
    return MU0 * alpha * MAGNET_MOMENT**2 / (8 * math.pi**2 * distance**6), distance


def header(mass, energy, distance, box_count):
    """The deck's opening comment, its paragraphs wrapped at 116 columns."""
    kinks = ARC_SEGMENTS + 1  # per side: onto the arc, between its segments, onto the ramp
    stiffness_text = f"{CONTACT_STIFFNESS:.0e}".replace("e+0", "e")
    paragraphs = [
        "The perpetual motion simulator: Westhofen et al. 2024, §4.4.1 (Table 1: 401 samples, 4 bodies, 1 ms steps, "
        "790.9 s on 32 cores for about 30 s). Written by make_ball_track.py; change that and run it again.",

        f"A nickel ball (radius {fmt(BALL_RADIUS * 1e3)} mm, {fmt(NICKEL_DENSITY)} kg/m³: {mass * 1e3:.2f} g; "
        f"μ = 1.26e-4 H/m, so χ = μ/μ0 − 1 = {SUSCEPTIBILITY:.2f}, a soft magnet: its one induced dipole, with a "
        f"sphere's demagnetising factor 1/3) rolls in a track of non-magnetic metal: a right-angled V groove "
        f"({box_count} boxes, two faces per segment) along a valley in the x–z plane. Its bottom line is flat for "
        f"{fmt(FLAT_LENGTH * 1e3)} mm over the magnet, turns up by {fmt(math.degrees(SLOPE_STEP))}° at each of "
        f"{kinks} kinks {fmt(ARC_SEGMENT_LENGTH * 1e3)} mm apart on each side (a polygon of a circular arc) into "
        f"two straight {fmt(math.degrees(RAMP_SLOPE))}° ramps. Every kink is concave, so each box runs on under its "
        f"neighbour and the ball meets only faces.",

        f"The cycle: the ball is let go at rest in the groove on the left ramp, {fmt(FUNNEL_HEIGHT * 1e3)} mm above "
        f"the groove's lowest line (the funnel's height), rolls down and across the middle, up the right ramp, turns, "
        f"comes back and climbs the left ramp to the funnel's height again: 2.973 s a cycle, 10 cycles in the 30 s. "
        f"Gravity alone cannot bring it back: each cycle loses {2 * energy * 1e3:.3f} mJ to the contact's dashpot "
        f"at the {4 * kinks} kinks it crosses (their impacts) and to slip there. The electromagnet replaces it: a "
        f"Sphere magnet of radius {fmt(MAGNET_RADIUS * 1e3)} mm (its field outside is exactly a dipole's, an "
        f"electromagnet's far field) with the paper's moment {MAGNET_MOMENT} A·m² pointing up, its centre "
        f"{fmt(MAGNET_DEPTH * 1e3)} mm below the groove's bottom line under the middle. The ball passes "
        f"{distance * 1e3:.1f} mm above it, where its energy in the field is −μ0·α·m²/(8π²·d⁶) = "
        f"−{energy * 1e3:.4f} mJ, α = 4πa³χ/(χ + 3): switched on while the ball comes towards it and off from the "
        f"moment it has passed, it gives the ball that much at each pass, {2 * energy * 1e3:.3f} mJ a cycle "
        f"(m·g·{2 * energy / (mass * GRAVITY) * 1e3:.2f} mm). MAGNET_DEPTH is tuned so that this replaces the "
        f"cycle's losses: the ball turns at the funnel's height within 0.006 mm every cycle of the 30 s. The balance "
        f"is stable: a ball that comes too high loses more at the kinks (their losses grow with its speed), one too "
        f"low less; let go 10 mm higher, it comes down 0.37 mm a cycle at first.",

        f"The switch is the magnet's strength_expression, STEP(−VX·DX, −{fmt(SWITCH_WIDTH)}, 0, 0, 1) of the ball's "
        f"centre: 1 while the ball comes towards the magnet (x·vx < 0), 0 once it has passed, falling to 0 over "
        f"{fmt(SWITCH_WIDTH * 1e3)} mm of travel at 1 m/s (the ball passes at 1.05 m/s). Not deck commands: "
        f"Deactivate/Activate do not switch a Force_Magnet, nor can a Command change it; a Command can set a "
        f"Reference_Variable that the strength reads (VARVAL) between Simulates that a sensor ends (return), but a "
        f"cycle that repeats would need a pair of Simulate commands written out for every pass. Not the position "
        f"alone either: on a track the ball runs both ways, a strength that depends on where the ball is makes a "
        f"conservative force, whose work on the way in the ball gives back on the way out; it is the direction of "
        f"the ball's motion, as the paper's sensor sees it pass, that pumps. Sensor_Event 50 marks each pass "
        f"(DX = 0, located, with an output there) in events.csv and Sensor_Event 51 each turn (VX = 0), where the "
        f"ball's height is the cycle's.",

        f"Contact: IMPACT, stiffness {stiffness_text} N/m^1.5 (the ball sinks 2 µm under its weight), "
        f"damping {fmt(CONTACT_DAMPING)} N·s/m from {fmt(CONTACT_DMAX * 1e6)} µm, with COULOMB_ON friction "
        f"(μs {MU_STATIC}, μd {MU_DYNAMIC}) so that it rolls; it starts at its rest depth in the groove. The paper's "
        f"401 dipole samples are two magnets here: the electromagnet's exact dipole and the ball's one induced "
        f"dipole (exact for a sphere in a uniform field).",

        f"Expected figures (integr_tol 1e-5): passes at 0.743 s and every 1.4867 s after; the magnet's work "
        f"(energy.csv work_field) {energy * 1e3:.4f} mJ at the first pass and 13.18 mJ after 20; lost to the "
        f"dashpot 9.01 mJ and to slip 4.17 mJ; energy balance closed to 0.024 %; the ball in contact with both faces "
        f"throughout, at most 7.5 µm deep (3.8 N at the kinks' impacts).",
    ]
    text = "\n\n".join(textwrap.fill(p, width=116, initial_indent="     ", subsequent_indent="     ",
                                      break_on_hyphens=False)
                        for p in paragraphs)
    return "<!--" + text[4:] + " -->"


def main():
    mass, inertia = ball_properties()
    energy, distance = magnet_energy_at_pass()
    boxes = groove_boxes()
    start_x = left_ramp_x(FUNNEL_HEIGHT)
    ramp_up = (-math.sin(-RAMP_SLOPE), 0.0, math.cos(RAMP_SLOPE))  # the left ramp falls towards +x
    # At rest in the groove, sunk to the depth the law gives each face's share of its weight.
    face_load = mass * GRAVITY * math.cos(RAMP_SLOPE) / math.sqrt(2)
    rest_depth = (face_load / CONTACT_STIFFNESS) ** (1 / CONTACT_EXPONENT)
    centre = combine((1, (start_x, 0.0, FUNNEL_HEIGHT)), ((BALL_RADIUS - rest_depth) * math.sqrt(2), ramp_up))
    lines = []
    add = lines.append
    add('<?xml version="1.0" encoding="UTF-8"?>')
    add(header(mass, energy, distance, len(boxes)))
    add("<MultiBodySystem>")
    add("  <Model>")
    add('    <Param_Unit force_unit="NEWTON" mass_unit="KILOGRAM" length_unit="METER" time_unit="SECOND"/>')
    add('    <Param_Transient integr_tol="1e-5" h_max="0.01"/>')
    add('    <Force_Gravity grav_z="-9.81"/>')
    add('    <Body_Rigid id="1" isground="TRUE"/>')
    add(f'    <Reference_Marker id="{MAGNET_MARKER}" body_id="1" pos_z="{fmt(-MAGNET_DEPTH)}"/>')
    add(f'    <Post_Graphic id="{MAGNET_GRAPHIC}" type="Sphere" center_marker_id="{MAGNET_MARKER}" '
        f'radius="{MAGNET_RADIUS}"/>')
    strength = f"STEP(-VX({BALL_MARKER})*DX({BALL_MARKER}), {fmt(-SWITCH_WIDTH)}, 0, 0, 1)"
    add(f'    <Force_Magnet id="{MAGNET_GRAPHIC}" label="Electromagnet" graphic_id="{MAGNET_GRAPHIC}" '
        f'moment_z="{MAGNET_MOMENT}"\n'
        f'                  strength_expression="{strength}"/>')
    track_ids = []
    for k, (box_centre, along, normal, length) in enumerate(boxes):
        marker = 1000 + k
        track_ids.append(str(marker))
        cx, cy, cz = box_centre
        add(f'    <Reference_Marker id="{marker}" body_id="1" pos_x="{fmt(cx)}" pos_y="{fmt(cy)}" pos_z="{fmt(cz)}"\n'
            f'                      a00="{fmt(along[0])}" a10="{fmt(along[1])}" a20="{fmt(along[2])}"\n'
            f'                      a02="{fmt(normal[0])}" a12="{fmt(normal[1])}" a22="{fmt(normal[2])}"/>')
        add(f'    <Post_Graphic id="{marker}" type="BoxDefinedFromCenter" center_marker_id="{marker}" '
            f'length_x="{fmt(length)}"\n'
            f'                  length_y="{fmt(FACE_WIDTH)}" length_z="{fmt(PLATE_THICKNESS)}"/>')
    add(f'    <Body_Rigid id="{BALL_BODY}" label="Nickel ball" mass="{fmt(mass)}" cg_id="{BALL_MARKER}"\n'
        f'                inertia_xx="{fmt(inertia)}" inertia_yy="{fmt(inertia)}" inertia_zz="{fmt(inertia)}"/>')
    add(f'    <Reference_Marker id="{BALL_MARKER}" body_id="{BALL_BODY}" pos_x="{fmt(centre[0])}" '
        f'pos_z="{fmt(centre[2])}"/>')
    add(f'    <Post_Graphic id="{BALL_GRAPHIC}" type="Sphere" center_marker_id="{BALL_MARKER}" '
        f'radius="{BALL_RADIUS}"/>')
    add(f'    <Force_Magnet id="{BALL_GRAPHIC}" label="Nickel ball" graphic_id="{BALL_GRAPHIC}" '
        f'susceptibility="{fmt(SUSCEPTIBILITY)}"/>')
    ids_per_line = 13
    wrapped_ids = ("\n" + " " * 34).join(" ".join(track_ids[k:k + ids_per_line])
                                         for k in range(0, len(track_ids), ids_per_line))
    add(f'    <Force_Contact id="300" label="Ball on track" i_graphics_id="{BALL_GRAPHIC}"\n'
        f'                   j_graphics_id="{wrapped_ids}"\n'
        f'                   cnf_type="IMPACT" stiffness="{fmt(CONTACT_STIFFNESS)}" exponent="{CONTACT_EXPONENT}" '
        f'damping="{fmt(CONTACT_DAMPING)}" dmax="{fmt(CONTACT_DMAX)}"\n'
        f'                   cff_type="COULOMB_ON" mu_static="{MU_STATIC}" mu_dynamic="{MU_DYNAMIC}" '
        f'stiction_trans_vel="{fmt(STICTION_VELOCITY)}"\n'
        f'                   friction_trans_vel="{fmt(FRICTION_VELOCITY)}"/>')
    add(f'    <Sensor_Event id="50" label="Ball passes the magnet" type="EXPRESSION" expr="DX({BALL_MARKER})" '
        f'compare="EQ" value="0"\n'
        f'                  error_tol="1e-6" print="TRUE"/>')
    add(f'    <Sensor_Event id="51" label="Ball turns on a ramp" type="EXPRESSION" expr="VX({BALL_MARKER})" '
        f'compare="EQ" value="0"\n'
        f'                  error_tol="1e-6" print="TRUE"/>')
    add("  </Model>")
    add("  <Command>")
    add(f'    <Simulate analysis_type="Transient" end_time="{END_TIME}" print_interval="{PRINT_INTERVAL}"/>')
    add("  </Command>")
    add("</MultiBodySystem>")
    path = pathlib.Path(__file__).with_name("ball_track.xml")
    path.write_text("\n".join(lines) + "\n")
    print(f"ball {mass * 1e3:.2f} g, chi {SUSCEPTIBILITY:.2f}, magnet energy at pass {energy * 1e3:.3f} mJ "
          f"(d = {distance * 1e3:.1f} mm), m g H = {mass * GRAVITY * FUNNEL_HEIGHT * 1e3:.2f} mJ, {len(boxes)} boxes")


if __name__ == "__main__":
    main()
