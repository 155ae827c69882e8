#!/usr/bin/env python3
"""Writes the 2D curve-contact decks of models/ (MotionSolve's "Using a 2D representation" of Force_Contact): each
curve's points in a Reference_ParamCurve, laid in its graphic's marker plane by a Post_Graphic of type ParamCurve.

    /usr/bin/python3 models/curves/make_curve_decks.py     # rewrites the decks named below

  pin_in_bore_2d.xml   a pin of radius 9 mm thrown about in a bore of 10 mm (a bearing's clearance), under gravity
  cam_follower_2d.xml  a flat-faced follower on a cam whose profile is r(φ) = 30 + 6 cos φ + 1.5 cos 2φ mm
  spur_gear_pair_2d.xml the 15- and 21-tooth gears of spur_gear_pair.xml as two closed involute outlines

The points are exact points of the analytic curves; the solver fits its own smooth spline through them (whatever
nseg says, which only viewers read), so a deck's figures are those of the analytic curves within the spline's error
(fourth order in the spacing: below a nanometre here).
"""
import math
from pathlib import Path

MODELS = Path(__file__).resolve().parent.parent


def curve_text(points):
    return "".join(f"      {x:.12g} {y:.12g} 0\n" for x, y in points)


def circle(radius, count):
    return [(radius * math.cos(2 * math.pi * k / count), radius * math.sin(2 * math.pi * k / count))
            for k in range(count)]


# The gears of models/meshes/make_gears.py (module 2 mm, 20° pressure angle, addendum 1 m, dedendum 1.25 m, 0.1 mm of
# backlash at the pitch circle), each as one closed outline. The spline through the points would ring at a sharp
# corner, so the corners are rounded, as cut gears' are: the tips' corners and the roots' (where the root circle
# meets the radial flank below the base circle) by fillets of FILLET radius tangent to both sides. The involute
# meets the radial line at the base circle tangentially (an involute leaves its base circle along the radius).
MODULE, PRESSURE_ANGLE, BACKLASH, FILLET = 0.002, math.radians(20.0), 0.0001, 0.0002
FLANK_POINTS, FILLET_POINTS, ARC_STEP = 48, 7, 0.0002


def involute_gear(z):
    """Counter-clockwise outline points of an external gear with z teeth, tooth 0 centred on +x."""
    r = MODULE * z / 2
    rb, ra, rf = r * math.cos(PRESSURE_ANGLE), r + MODULE, r - 1.25 * MODULE
    inv = lambda a: math.tan(a) - a
    half_at_pitch = (math.pi * MODULE / 2 - BACKLASH) / (2 * r)
    half = lambda rho: half_at_pitch + inv(PRESSURE_ANGLE) - inv(math.acos(min(1.0, rb / rho)))
    pitch = 2 * math.pi / z

    def polar(rho, angle):
        return (rho * math.cos(angle), rho * math.sin(angle))

    # Tooth 0's side at negative angles, from the root circle up to the tip: the radial line at the base circle's
    # half angle, then the involute (roll angles spaced evenly in t^1.5, which spreads the chord error evenly).
    base_half = half(rb)
    t_tip = math.sqrt(ra * ra / (rb * rb) - 1)
    side = [polar(rf + (rb - rf) * k / 8, -base_half) for k in range(8)]
    for k in range(FLANK_POINTS):
        t = (t_tip ** 1.5 * k / (FLANK_POINTS - 1)) ** (2 / 3)
        rho = rb * math.sqrt(1 + t * t)
        side.append(polar(rho, -half(rho)))
    tip_half = half(ra)
    # One tooth, counter-clockwise: root arc from the middle of the space before it, the rising side, the tip arc,
    # the falling side (the mirror image), then on to the middle of the next space.
    def arc(rho, start, end):
        count = max(2, int(abs(end - start) * rho / ARC_STEP) + 1)
        return [polar(rho, start + (end - start) * k / count) for k in range(count)]

    tooth = arc(rf, -pitch / 2, -base_half) + side + arc(ra, -tip_half, tip_half)[1:] + \
        [(x, -y) for x, y in reversed(side)] + arc(rf, base_half, pitch / 2)[1:]
    tooth = round_corners(tooth, [len(arc(rf, -pitch / 2, -base_half)),  # root corner, rising side
                                  len(arc(rf, -pitch / 2, -base_half)) + len(side) - 1,  # tip corner
                                  len(arc(rf, -pitch / 2, -base_half)) + len(side) - 1 +
                                  len(arc(ra, -tip_half, tip_half)),  # tip corner, falling side
                                  len(tooth) - len(arc(rf, base_half, pitch / 2)[1:]) - 1])  # root corner
    points = []
    for k in range(z):
        c, s = math.cos(k * pitch), math.sin(k * pitch)
        points.extend((c * x - s * y, s * x + c * y) for x, y in tooth)
    return points


def round_corners(points, corners):
    """The polyline with each corner (an index into it) replaced by a circular fillet of FILLET radius tangent to the
    lines of the points on either side, the points it passes over dropped."""
    out, skip_to = [], -1
    for i, p in enumerate(points):
        if i <= skip_to:
            continue
        if i not in corners:
            out.append(p)
            continue
        c = points[i]
        back = (points[i - 1][0] - c[0], points[i - 1][1] - c[1])
        ahead = (points[i + 1][0] - c[0], points[i + 1][1] - c[1])
        nb, na = math.hypot(*back), math.hypot(*ahead)
        ub, ua = (back[0] / nb, back[1] / nb), (ahead[0] / na, ahead[1] / na)
        angle = math.acos(max(-1.0, min(1.0, ub[0] * ua[0] + ub[1] * ua[1])))
        reach = FILLET / math.tan(angle / 2)  # from the corner to where the fillet touches each side
        # Points just beyond the fillet's ends go too: one a micrometre past an end would crowd the spline.
        while out and math.dist(out[-1], c) < 1.25 * reach:
            out.pop()
        j = i + 1
        while math.dist(points[j], c) < 1.25 * reach:
            j += 1
        skip_to = j - 1
        start = (c[0] + reach * ub[0], c[1] + reach * ub[1])
        end = (c[0] + reach * ua[0], c[1] + reach * ua[1])
        bisector = (ub[0] + ua[0], ub[1] + ua[1])
        nbis = math.hypot(*bisector)
        centre_distance = FILLET / math.sin(angle / 2)
        centre = (c[0] + centre_distance * bisector[0] / nbis, c[1] + centre_distance * bisector[1] / nbis)
        a0 = math.atan2(start[1] - centre[1], start[0] - centre[0])
        a1 = math.atan2(end[1] - centre[1], end[0] - centre[0])
        a1 += 2 * math.pi * round((a0 - a1) / (2 * math.pi))
        if abs(a1 - a0) > math.pi:
            a1 += 2 * math.pi if a1 < a0 else -2 * math.pi
        for k in range(FILLET_POINTS):
            a = a0 + (a1 - a0) * k / (FILLET_POINTS - 1)
            out.append((centre[0] + FILLET * math.cos(a), centre[1] + FILLET * math.sin(a)))
    return out


def cam_profile(count):
    """r(φ) = R0 + a cos φ + b cos 2φ, convex (r² + 2r'² − r r'' > 0 everywhere)."""
    points = []
    for k in range(count):
        phi = 2 * math.pi * k / count
        r = 0.030 + 0.006 * math.cos(phi) + 0.0015 * math.cos(2 * phi)
        points.append((r * math.cos(phi), r * math.sin(phi)))
    return points


PIN_IN_BORE = """<?xml version="1.0" encoding="UTF-8"?>
<!-- A pin in a bore with clearance, as 2D curves (MotionSolve's 2D curve contact; written by
     models/curves/make_curve_decks.py). The bore, radius 10 mm, is a closed curve on ground whose material lies
     outside it (is_material_inside="FALSE"); the pin, radius 9 mm and 50 g, a closed curve on a free body, starts
     in the middle of the bore moving at (0.2, 0.05) m/s and falls under gravity (−y) against the bore's wall, where
     it bounces along the wall. 256 points each. IMPACT, 1e8 N/m^1.5 with 10 N·s/m ramped in over 10 µm; no
     friction, so the contact force, along the line of the centres, never turns the pin.

     The figure to expect: the pin's centre follows a 2-D integration of m·c'' = m·g + F(δ)·n, with
     δ = |c| − 1 mm past the clearance and n = −c/|c|, within 20 nm over the first 0.1 s (measured 9 nm; eight
     impacts, the first at t = 4.96 ms; the hardest pushes with 47.7 N). The tight integr_tol keeps the integrator's
     own error below the curves': with 1e-7 the orbit drifts by 0.2 mm over the 0.1 s.
     tests/physics/curve_contact_2d_test.cpp integrates it by RK4 and checks the orbit and the peak contact force.
     SI units. -->
<MultiBodySystem>
  <Model>
    <Param_Transient integr_tol="1e-10" h_max="1e-4"/>
    <Force_Gravity grav_y="-9.81"/>
    <Body_Rigid id="1" label="Ground" isground="TRUE"/>
    <Reference_Marker id="10" label="Bore axis" body_id="1"/>
    <Reference_ParamCurve id="1" label="Bore, r = 10 mm" is_u_closed="TRUE">
{bore}    </Reference_ParamCurve>
    <Post_Graphic id="100" label="Bore" type="ParamCurve" ref_marker_id="10" curve_id="1" nseg="256"
                  is_material_inside="FALSE"/>

    <Body_Rigid id="2" label="Pin" cg_id="20" mass="0.05" inertia_xx="1.0125e-6" inertia_yy="1.0125e-6"
                inertia_zz="2.025e-6" v_ic_x="0.2" v_ic_y="0.05"/>
    <Reference_Marker id="20" label="Pin axis" body_id="2"/>
    <Reference_ParamCurve id="2" label="Pin, r = 9 mm" is_u_closed="TRUE">
{pin}    </Reference_ParamCurve>
    <Post_Graphic id="200" label="Pin" type="ParamCurve" ref_marker_id="20" curve_id="2" nseg="256"/>

    <Force_Contact id="1" label="Pin on bore" i_graphics_id="200" j_graphics_id="100" cnf_type="IMPACT"
                   stiffness="1e8" exponent="1.5" damping="10" dmax="1e-5" cff_type="COULOMB_OFF"/>
  </Model>
  <Command>
    <Simulate analysis_type="Transient" end_time="0.1" print_interval="0.001"/>
  </Command>
</MultiBodySystem>
"""

CAM_FOLLOWER = """<?xml version="1.0" encoding="UTF-8"?>
<!-- A cam and a flat-faced follower as 2D curves (MotionSolve's 2D curve contact; written by
     models/curves/make_curve_decks.py). The cam's profile, r(φ) = 30 + 6 cos φ + 1.5 cos 2φ mm in its own axes
     (360 points on it, a closed curve), turns about ground's z at one revolution per second (a Motion_Joint on a
     revolute joint); the follower, 0.2 kg on a vertical translational joint, starts resting on it (29.2 mm up) and is
     held down on it by its weight. Its face is a straight open curve, 100 mm long, its material above (the points
     run along +x with the material on their left). IMPACT, 1e7 N/m^1.5, lightly damped.

     The figure to expect: the face rides at the cam's support height, the highest point of the turned profile,
         h(θ) = max over φ of r(φ)·sin(φ + θ),  between 25.5 and 37.5 mm (29.23 mm at θ = 0),
     less the contact's compression under the force that carries the follower, (m·(g + ḧ)/k)^(1/1.5), 34 µm at rest:
     from 0.2 s on within 0.1 % of the 12 mm stroke, measured within 0.1 µm; and the face's height plus the
     penetration in contacts.csv is h within 1e-9 m (tests/physics/curve_contact_2d_test.cpp). SI units. -->
<MultiBodySystem>
  <Model>
    <Param_Transient integr_tol="1e-6" h_max="0.005"/>
    <Force_Gravity grav_y="-9.81"/>
    <Body_Rigid id="1" label="Ground" isground="TRUE"/>
    <Reference_Marker id="10" label="Cam shaft" body_id="1"/>
    <Reference_Marker id="11" label="Follower guide" body_id="1" pos_y="0.0292" a00="1" a10="0" a20="0" a02="0"
                      a12="1" a22="0"/>

    <Body_Rigid id="2" label="Cam" cg_id="20" mass="1" inertia_xx="4e-4" inertia_yy="4e-4" inertia_zz="8e-4"/>
    <Reference_Marker id="20" label="Cam axis" body_id="2"/>
    <Reference_ParamCurve id="2" label="Cam profile" is_u_closed="TRUE">
{cam}    </Reference_ParamCurve>
    <Post_Graphic id="200" label="Cam" type="ParamCurve" ref_marker_id="20" curve_id="2" nseg="360"/>
    <Constraint_Joint id="1" label="Cam bearing" type="REVOLUTE" i_marker_id="20" j_marker_id="10"/>
    <Motion_Joint id="1" label="Cam drive" joint_id="1" motion_type="R" val_type="D" expr="2*PI*TIME"/>

    <Body_Rigid id="3" label="Follower" cg_id="30" mass="0.2" inertia_xx="1e-4" inertia_yy="1e-5" inertia_zz="1e-4"/>
    <Reference_Marker id="30" label="Follower face" body_id="3" pos_y="0.0292"/>
    <Reference_Marker id="31" label="Follower slide" body_id="3" pos_y="0.0292" a00="1" a10="0" a20="0" a02="0"
                      a12="1" a22="0"/>
    <Reference_ParamCurve id="3" label="Follower face" is_u_closed="FALSE">
      -0.05 0 0
      0.05 0 0
    </Reference_ParamCurve>
    <Post_Graphic id="300" label="Face" type="ParamCurve" ref_marker_id="30" curve_id="3" nseg="1"/>
    <Constraint_Joint id="2" label="Follower guide" type="TRANSLATIONAL" i_marker_id="31" j_marker_id="11"/>

    <Force_Contact id="1" label="Cam on face" i_graphics_id="200" j_graphics_id="300" cnf_type="IMPACT"
                   stiffness="1e7" exponent="1.5" damping="20" dmax="1e-5" cff_type="COULOMB_OFF"/>
  </Model>
  <Command>
    <Simulate analysis_type="Transient" end_time="2" print_interval="0.01"/>
  </Command>
</MultiBodySystem>
"""

SPUR_GEAR_PAIR = """<?xml version="1.0" encoding="UTF-8"?>
<!-- The spur gear pair of models/spur_gear_pair.xml as 2D curves (MotionSolve's 2D curve contact; written by
     models/curves/make_curve_decks.py): a pinion of 15 teeth driven by a Motion_Joint meshes with a gear of 21 teeth
     on a revolute joint 36 mm away, which the same friction brake loads; module 2 mm, 20° involute flanks, 0.1 mm of
     backlash, the teeth's tips and roots rounded by 0.2 mm fillets. Each gear's whole outline is one closed curve
     ({pinion_points} and {gear_points} points, 48 on each involute flank) in the plane of its axis marker; every
     region where the outlines overlap is one contact. The same law as the mesh deck's: IMPACT, linear 1e5 N/m,
     50 N·s/m reached 10 µm in, no friction. SI units.

     The figure to expect: the gear turns the other way at gear / pinion = −15/21 = −0.714286: from 20 ms on its
     turn over the pinion's is that within 0.1 % (measured 5e-5 off; the mesh deck's 1e-4). Its contact force ripples
     less than the mesh deck's (tests/physics/curve_contact_2d_test.cpp measures both from 20 ms on): the summed
     normal force (1.93 N on average) deviates from its mean by 18 % rms, the mesh deck's by 29 %. The gear's speed
     over the pinion's spreads alike in both, over 5.4 % and 5.5 % of the tooth ratio: that ripple is the mesh's own
     stiffness, one tooth pair in contact, then two (contact ratio 1.4), which the outlines model as the meshes do.
     integr_tol is 1e-4 (the mesh deck's 1e-3 lets the joints drift past dae_constr_tol at the teeth's impacts).
     Run time: about 3 s (Release build). -->
<MultiBodySystem>
  <Model>
    <Param_Transient integr_tol="1e-4" h_max="1e-3"/>
    <Force_Gravity grav_z="-9.81"/>
    <Body_Rigid id="1" label="Ground" isground="TRUE"/>
    <Reference_Marker id="10" label="Pinion axis" body_id="1"/>
    <Reference_Marker id="11" label="Gear axis" body_id="1" pos_x="0.036"/>

    <!-- The pinion, on a revolute joint, driven: its speed rises smoothly from 0 to 8π rad/s (4 rev/s) over the
         first 12.5 ms, then stays there. -->
    <Body_Rigid id="2" label="Pinion" cg_id="20" mass="0.0376938" inertia_xx="2.62612e-06" inertia_yy="2.62612e-06"
                inertia_zz="4.85017e-06"/>
    <Reference_Marker id="20" label="Pinion axis" body_id="2"/>
    <Reference_ParamCurve id="2" label="Pinion outline, 15 teeth" is_u_closed="TRUE">
{pinion}    </Reference_ParamCurve>
    <Post_Graphic id="200" label="Pinion" type="ParamCurve" ref_marker_id="20" curve_id="2"/>
    <Constraint_Joint id="1" label="Pinion bearing" type="REVOLUTE" i_marker_id="20" j_marker_id="10"/>
    <Motion_Joint id="1" label="Pinion drive" joint_id="1" motion_type="R" val_type="V"
                  expr="STEP(TIME, 0, 0, 0.0125, 8*PI)"/>

    <!-- The gear, on a revolute joint 36 mm away, turned by π + π/21 so that a space faces the pinion's tooth 0.
         Two brake pads on its top face (spheres of 4 mm radius, 12 mm out) are pressed 10 µm into the underside of
         a fixed disc: 0.0379 N·m of drag once they slide. -->
    <Body_Rigid id="3" label="Gear" cg_id="30" mass="0.0996874" inertia_xx="1.25307e-05" inertia_yy="1.25307e-05"
                inertia_zz="2.34e-05"/>
    <Reference_Marker id="30" label="Gear axis" body_id="3" pos_x="0.036" psi="3.29119230376"/>
    <Reference_ParamCurve id="3" label="Gear outline, 21 teeth" is_u_closed="TRUE">
{gear}    </Reference_ParamCurve>
    <Post_Graphic id="300" label="Gear" type="ParamCurve" ref_marker_id="30" curve_id="3"/>
    <Constraint_Joint id="2" label="Gear bearing" type="REVOLUTE" i_marker_id="30" j_marker_id="11"/>
    <Reference_Marker id="31" label="Brake pad 1" body_id="3" pos_x="0.048" pos_z="0.01"/>
    <Reference_Marker id="32" label="Brake pad 2" body_id="3" pos_x="0.024" pos_z="0.01"/>
    <Post_Graphic id="310" label="Brake pad 1" type="Sphere" center_marker_id="31" radius="0.004"/>
    <Post_Graphic id="320" label="Brake pad 2" type="Sphere" center_marker_id="32" radius="0.004"/>
    <Reference_Marker id="12" label="Brake disc" body_id="1" pos_x="0.036" pos_z="0.01399"/>
    <Post_Graphic id="120" label="Brake disc" type="Cylinder" center_marker_id="12" radius="0.02" length="0.005"/>

    <Force_Contact id="1" label="Pinion on gear" i_graphics_id="200" j_graphics_id="300" cnf_type="IMPACT"
                   stiffness="1e5" exponent="1" damping="50" dmax="1e-5" cff_type="COULOMB_OFF"/>
    <Force_Contact id="2" label="Brake" i_graphics_id="310 320" j_graphics_id="120" cnf_type="IMPACT" stiffness="1e8"
                   exponent="1.5" damping="100" dmax="1e-5" cff_type="COULOMB_DYNAMICONLY" mu_dynamic="0.5"
                   friction_trans_vel="0.01"/>
  </Model>
  <Command>
    <Simulate analysis_type="Transient" end_time="0.2" print_interval="1e-3"/>
  </Command>
</MultiBodySystem>
"""


def main():
    (MODELS / "pin_in_bore_2d.xml").write_text(
        PIN_IN_BORE.replace("{bore}", curve_text(circle(0.010, 256))).replace("{pin}", curve_text(circle(0.009, 256))))
    (MODELS / "cam_follower_2d.xml").write_text(CAM_FOLLOWER.replace("{cam}", curve_text(cam_profile(360))))
    pinion, gear = involute_gear(15), involute_gear(21)
    (MODELS / "spur_gear_pair_2d.xml").write_text(
        SPUR_GEAR_PAIR.replace("{pinion_points}", str(len(pinion))).replace("{gear_points}", str(len(gear)))
        .replace("{pinion}", curve_text(pinion)).replace("{gear}", curve_text(gear)))


if __name__ == "__main__":
    main()
