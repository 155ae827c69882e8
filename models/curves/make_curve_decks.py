#!/usr/bin/env python3
"""Writes the 2D curve-contact decks of models/ (MotionSolve's "Using a 2D representation" of Force_Contact): each
curve's points in a Reference_ParamCurve, laid in its graphic's marker plane by a Post_Graphic of type ParamCurve.

    /usr/bin/python3 models/curves/make_curve_decks.py     # rewrites the decks named below

  pin_in_bore_2d.xml   a pin of radius 9 mm thrown about in a bore of 10 mm (a bearing's clearance), under gravity
  cam_follower_2d.xml  a flat-faced follower on a cam whose profile is r(φ) = 30 + 6 cos φ + 1.5 cos 2φ mm

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


def main():
    (MODELS / "pin_in_bore_2d.xml").write_text(
        PIN_IN_BORE.replace("{bore}", curve_text(circle(0.010, 256))).replace("{pin}", curve_text(circle(0.009, 256))))
    (MODELS / "cam_follower_2d.xml").write_text(CAM_FOLLOWER.replace("{cam}", curve_text(cam_profile(360))))


if __name__ == "__main__":
    main()
