#!/usr/bin/python3
"""Writes magnetic_crane.xml beside this script: Westhofen et al. 2024, §4.4.2 ("Magnetic Crane", Fig. 1), built from
the paper's description. Run it again after changing a figure below; the deck it writes is committed.

    make_magnetic_crane.py        writes magnetic_crane.xml, the paper's scene (125 cubes, 22.03 s), and
                                  magnetic_crane_one_cube.xml, the same crane carrying one cube (the test's:
                                  tests/physics/magnet_scenes_test.cpp)
    make_magnetic_crane.py --cubes-per-side 2 --end-time 6 --output small.xml
                                  a smaller pile (2×2×2 cubes) through the same sequence, for trying out contact and
                                  integrator settings
"""
import argparse
import math
import pathlib
import textwrap

MU0 = 4e-7 * math.pi          # H/m
GRAVITY = 9.81                # m/s²

# The paper: an electromagnet of 250 J/T (= A·m²) pointing up, sampled by 42 dipoles, hangs from a crane by a rope and
# moves 125 nickel cubes (μ = 1.26e-4 H/m), each sampled by one sphere, from one box to another: 167 magnetic samples,
# 132 bodies, 11 475 steps of 1.92 ms on average (22.03 s) in 22 307 s on 32 cores (Table 1).
NICKEL_PERMEABILITY = 1.26e-4  # H/m
SUSCEPTIBILITY = NICKEL_PERMEABILITY / MU0 - 1  # χ ≈ 99.3
NICKEL_DENSITY = 8900.0       # kg/m³
CUBE = 0.015                  # m, edge
CUBES_PER_SIDE = 5            # 5 × 5 × 5 = 125 cubes
CUBE_GAP = 0.001              # m, between neighbouring cubes of a layer at the start (the layers rest on each other)

STEEL_DENSITY = 7800.0        # kg/m³
MAGNET = (0.12, 0.12, 0.04)   # m: the electromagnet, a box magnetised along its height (up, +z)
MAGNET_MOMENT = 250.0         # A·m²
ROPE_LINKS = 4                # rigid links on SPHERICAL joints
LINK_LENGTH = 0.06            # m
LINK_RADIUS = 0.004           # m, steel rods
# The rope's internal friction: a Force_Bushing at each joint below the top one damps the links' turns against each
# other (not the swing of the rope as a whole). Without it the light links ring against the heavy magnet after every
# jerk (the cubes leaping up, dropping off), undamped at a few hundred rad/s, and the integrator follows them: the
# 8-cube pile's first 6 s took 4270 steps without, 2270 with.
ROPE_JOINT_DAMPING = 0.01     # N·m·s/rad, about a third of critical for a link turning about its end
TROLLEY_MASS, HOOK_MASS = 20.0, 2.0  # kg; both driven, so their masses only load the motions
RAIL_HEIGHT = 0.75            # m: the trolley's rail, and the hook's zero (its motion measures down from there)

# The two boxes: ground box graphics, four walls each, standing on one floor whose top is z = 0 (a cube flung over a
# wall lands on it rather than falling for ever).
WALL = 0.01                   # m, thickness of the floor and the walls
FLOOR_MARGIN = 0.25           # m, the floor's reach beyond the boxes' walls
FIRST_BOX_INNER = 0.086       # m, across: the 5 × 5 layer with its gaps and 2.5 mm each side
FIRST_BOX_WALL_HEIGHT = 0.05  # m, above the floor
SECOND_BOX_X = 0.5            # m: its centre; the first box's is at the origin
SECOND_BOX_INNER = 0.2        # m, across: wider than the magnet, so the magnet can be lowered between its walls
SECOND_BOX_WALL_HEIGHT = 0.06  # m

# The sequence (times in s; every move a STEP, smooth in velocity, of the hook's or the trolley's displacement).
HANG_GAP = 0.1                # m, the magnet's face above the pile's top at the start
PICK_GAP = 0.0005             # m, ... when it has been lowered over the first box. The paper does not give it, but has
                              # the switched-on magnet attract all cubes. With 8 mm only the top layers leapt (by
                              # 5.32 s 81 cubes had risen, 44 of the two bottom layers not: a layer magnetised across
                              # its plane weakens its own magnetisation, as a plate does), and the lift that followed
                              # left teetering cubes behind that held IDAS to 17-200 µs steps; with 0.5 mm the pile
                              # clings to the magnet as one (121 cubes by 5 s, the bottom layer's four corners not).
LOWER = (0.5, 3.0)            # the hook lowers the magnet over the first box
SWITCH_ON = (3.5, 3.7)        # the magnet's strength rises from 0 to 1
LIFT = (5.0, 7.5)             # the hook raises the magnet with the cubes
LIFT_HEIGHT = 0.25            # m, by this much
TRAVEL = (7.5, 12.5)          # the trolley carries it over the second box
SET_DOWN = (12.5, 15.0)       # the hook lowers it into the second box ...
DROP_GAP = 0.02               # m: ... until the magnet's face is the first pile's height and this much above the
                              # second box's floor: the cubes drop from about this height
SWITCH_OFF = (15.5, 15.7)     # the magnet's strength falls from 1 to 0: the cubes drop
RAISE = (17.0, 19.0)          # the hook raises the empty magnet again
END_TIME = 22.03              # s: Table 1's 11 475 steps of 1.92 ms
PRINT_INTERVAL = 0.05         # s

# Contact: IMPACT on every pair (cube–cube, cube–box, cube–magnet) with Coulomb friction.
CONTACT_STIFFNESS = 1e7       # N/m^1.5
CONTACT_EXPONENT = 1.5
CONTACT_DAMPING = 100.0       # N·s/m: a cube landing at 1 m/s does not bounce
CONTACT_DMAX = 1e-5           # m
MU_STATIC, MU_DYNAMIC = 0.4, 0.3
STICTION_VELOCITY, FRICTION_VELOCITY = 0.01, 0.02  # m/s
# Contacts change where the integrator notices them, not located one by one: the 125 cubes leaping onto the magnet
# part from each other in hundreds of pairs within microseconds, and each located separation cost a restart and an
# iteration matrix (1.2 s each here): the full deck spent 5 minutes on 3 µs at 3.6396 s.

INTEGR_TOL = 1e-3
H_MAX = 0.01                  # s

GROUND = 1
TROLLEY_BODY, HOOK_BODY, FIRST_LINK_BODY = 2, 3, 4
MAGNET_BODY = FIRST_LINK_BODY + ROPE_LINKS
FIRST_CUBE_BODY = 101
MAGNET_GRAPHIC = 800
FLOOR_GRAPHIC = 900


def fmt(x):
    return f"{0.0 if abs(x) < 1e-13 else x:.10g}"


def step(window, height):
    """A STEP of TIME from 0 to `height` over `window`."""
    return f"STEP(TIME, {fmt(window[0])}, 0, {fmt(window[1])}, {fmt(height)})"


def cube_properties():
    mass = NICKEL_DENSITY * CUBE**3
    return mass, mass * CUBE**2 / 6


def magnet_properties():
    lx, ly, lz = MAGNET
    mass = STEEL_DENSITY * lx * ly * lz
    return mass, mass * (ly**2 + lz**2) / 12, mass * (lx**2 + lz**2) / 12, mass * (lx**2 + ly**2) / 12


def link_properties():
    mass = STEEL_DENSITY * math.pi * LINK_RADIUS**2 * LINK_LENGTH
    across = mass * (3 * LINK_RADIUS**2 + LINK_LENGTH**2) / 12
    return mass, across, across, mass * LINK_RADIUS**2 / 2


def cube_positions(per_side):
    """The cubes' centres at the start: layers resting on each other on the first box's floor, each layer a square grid
    with CUBE_GAP between neighbours."""
    pitch = CUBE + CUBE_GAP
    offsets = [(k - (per_side - 1) / 2) * pitch for k in range(per_side)]
    return [(x, y, CUBE / 2 + layer * CUBE) for layer in range(per_side) for y in offsets for x in offsets]


def floor_graphic():
    """(centre, size) of the floor both boxes stand on, a ground graphic; its top at z = 0."""
    low_x = -FIRST_BOX_INNER / 2 - WALL - FLOOR_MARGIN
    high_x = SECOND_BOX_X + SECOND_BOX_INNER / 2 + WALL + FLOOR_MARGIN
    across = max(FIRST_BOX_INNER, SECOND_BOX_INNER) + 2 * WALL + 2 * FLOOR_MARGIN
    return ((low_x + high_x) / 2, 0.0, -WALL / 2), (high_x - low_x, across, WALL)


def box_graphics(centre_x, inner, wall_height):
    """(centre, size) of a box's four walls, ground graphics standing on the floor."""
    outer = inner + 2 * WALL
    half = (inner + WALL) / 2
    z = wall_height / 2
    walls = [((centre_x + half, 0.0, z), (WALL, outer, wall_height)),
             ((centre_x - half, 0.0, z), (WALL, outer, wall_height)),
             ((centre_x, half, z), (inner, WALL, wall_height)),
             ((centre_x, -half, z), (inner, WALL, wall_height))]
    return walls


def magnet_face_heights(per_side):
    """The magnet's face above the first box's floor: at the start, and when lowered to pick the cubes up."""
    top = per_side * CUBE
    return top + HANG_GAP, top + PICK_GAP


def rope_length():
    return ROPE_LINKS * LINK_LENGTH


def header(args, cube_count, cube_mass, magnet_mass, drop_face):
    magnetisation = MAGNET_MOMENT / (MAGNET[0] * MAGNET[1] * MAGNET[2])
    bodies = cube_count + 3 + ROPE_LINKS
    stiffness_text = f"{CONTACT_STIFFNESS:.0e}".replace("e+0", "e")
    cubes_text = "one nickel cube" if cube_count == 1 else f"{cube_count} nickel cubes"
    rest_depth = (cube_mass * GRAVITY / CONTACT_STIFFNESS) ** (1 / CONTACT_EXPONENT)
    paragraphs = [
        "The magnetic crane: Westhofen et al. 2024, §4.4.2 and Fig. 1 (Table 1: 167 magnetic samples, 132 bodies, "
        "11 475 steps of 1.92 ms on average, 22 307 s on 32 cores for about 22 s). Written by make_magnetic_crane.py; "
        "change that and run it again." +
        ("" if args.cubes_per_side == CUBES_PER_SIDE else
         f" This is a smaller variant with {args.cubes_per_side ** 3} cube(s) instead of {CUBES_PER_SIDE ** 3}, "
         f"for tests/physics/magnet_scenes_test.cpp (the generator's cubes-per-side option)."),

        f"An electromagnet hangs from a crane by a rope and carries {cubes_text} from one box into "
        f"another. The crane is a trolley on a rail along x, {fmt(RAIL_HEIGHT)} m up (a TRANSLATIONAL joint to "
        f"ground), and a hook on it that moves up and down (a TRANSLATIONAL joint to the trolley); each is driven by "
        f"a Motion_Joint whose displacement is a sum of STEPs of TIME. From the hook the rope, {ROPE_LINKS} steel "
        f"links of {fmt(LINK_LENGTH * 1e3)} mm (rods of radius {fmt(LINK_RADIUS * 1e3)} mm) on SPHERICAL joints, "
        f"holds the magnet at its top face's centre (a Force_Bushing at each joint below the hook's, rotational damping "
        f"{fmt(ROPE_JOINT_DAMPING)} N·m·s/rad, is the rope's internal friction: it damps the links' ringing against "
        f"each other, not the rope's swing): a {fmt(MAGNET[0] * 1e3)} × {fmt(MAGNET[1] * 1e3)} × "
        f"{fmt(MAGNET[2] * 1e3)} mm steel box, {magnet_mass:.2f} kg, that is a Force_Magnet with the paper's moment "
        f"{fmt(MAGNET_MOMENT)} A·m² pointing up (M = {magnetisation:.4g} A/m) and a strength_expression of TIME, "
        f"the switch. {bodies} bodies" + (", as the paper's." if cube_count == CUBES_PER_SIDE**3 else
                                          " (the paper's 132 with its 125 cubes)."),

        f"The magnet is exact (its surface-charge closed form, Akoun & Yonnet's cuboid), not the paper's 42 dipole "
        f"samples: the cubes cling to its face, where a clump of dipoles is 20-40 % off whatever their number "
        f"(docs/contact.md, DIPOLE), and its field and gradient at a cube cost 7 closed-form evaluations, less than "
        f"42 dipoles' sums. The cubes ({fmt(CUBE * 1e3)} mm, {fmt(NICKEL_DENSITY)} kg/m³: {cube_mass * 1e3:.2f} g; "
        f"μ = 1.26e-4 H/m, so χ = μ/μ0 − 1 = {SUSCEPTIBILITY:.2f}) are soft magnets sampled as the paper does, by "
        f"one sphere each: a Sphere graphic inscribed in the cube, on its body and in no contact, is the soft "
        f"Force_Magnet (one dipole, χ_eff = χ/(1 + χ/3) = {SUSCEPTIBILITY / (1 + SUSCEPTIBILITY / 3):.3f}). Not the "
        f"cube's own Box: one dipole with the whole cube's volume makes a stack of touching cubes a lattice of point "
        f"dipoles at its Clausius-Mossotti limit (the dipoles of a chain of touching cubes would induce each other "
        f"without bound: 0.38·χ_eff > 1), and the 125 cubes leaping onto the magnet drove the induction singular "
        f"(the integrator's step fell to 1e-18 s at 3.571 s); the inscribed sphere's π/6 of the volume keeps every "
        f"stack well inside it: "
        f"{cube_count + 1} magnets, {cube_count} soft samples solved together with the magnet at every evaluation "
        f"(the paper: {cube_count} + 42 = {cube_count + 42} samples).",

        "What it costs: while the magnet is off (its strength 0) the soft magnets are skipped, and the pile in its "
        "box is an ordinary one; switched on, every Jacobian solves the induction of all the cubes once per "
        "differenced state of each of their bodies (7 per body, each a dense LU of 3 unknowns per cube): with 125 "
        "cubes that dominates (README, magnet_scenes_benchmark).",

        f"The boxes are ground box graphics, four walls each standing on one floor (its top at z = 0, reaching "
        f"{fmt(FLOOR_MARGIN * 1e3)} mm beyond their walls): the first "
        f"centred at the origin, {fmt(FIRST_BOX_INNER * 1e3)} mm inside and {fmt(FIRST_BOX_WALL_HEIGHT * 1e3)} mm "
        f"deep, holding the cubes in {args.cubes_per_side} layers of {args.cubes_per_side} × {args.cubes_per_side} "
        f"({fmt(CUBE_GAP * 1e3)} mm apart in a layer, the layers resting on each other); the second at x = "
        f"{fmt(SECOND_BOX_X)} m, {fmt(SECOND_BOX_INNER * 1e3)} mm inside and {fmt(SECOND_BOX_WALL_HEIGHT * 1e3)} mm "
        f"deep, wider than the magnet.",

        f"The sequence (s): the magnet hangs with its face {fmt(HANG_GAP * 1e3)} mm above the pile; "
        f"{fmt(LOWER[0])}-{fmt(LOWER[1])} the hook lowers it to {fmt(PICK_GAP * 1e3)} mm above the pile; "
        f"{fmt(SWITCH_ON[0])}-{fmt(SWITCH_ON[1])} it is switched on (its strength a STEP from 0 to 1): the cubes "
        f"leap up and cling to it, and to each other; {fmt(LIFT[0])}-{fmt(LIFT[1])} the hook lifts it "
        f"{fmt(LIFT_HEIGHT * 1e3)} mm; {fmt(TRAVEL[0])}-{fmt(TRAVEL[1])} the trolley carries it "
        f"{fmt(SECOND_BOX_X)} m over the second box; {fmt(SET_DOWN[0])}-{fmt(SET_DOWN[1])} the hook lowers it "
        f"until its face is {fmt(drop_face * 1e3)} mm above that box's floor (the first pile's height and "
        f"{fmt(DROP_GAP * 1e3)} mm); "
        f"{fmt(SWITCH_OFF[0])}-{fmt(SWITCH_OFF[1])} it is switched off and the cubes drop into the box; "
        f"{fmt(RAISE[0])}-{fmt(RAISE[1])} the hook raises the empty magnet; the cubes settle until "
        f"{fmt(args.end_time)} s.",

        f"Contact: one Force_Contact for the pile, every cube as I and as J, the boxes' floors and walls and the "
        f"magnet as J: IMPACT, stiffness {stiffness_text} N/m^{CONTACT_EXPONENT} (a cube sinks "
        f"{rest_depth * 1e6:.1f} µm under its own weight), damping {fmt(CONTACT_DAMPING)} N·s/m from "
        f"{fmt(CONTACT_DMAX * 1e6)} µm, COULOMB_ON friction (μs {MU_STATIC}, μd {MU_DYNAMIC}, stiction "
        f"{fmt(STICTION_VELOCITY * 1e3)} mm/s: a larger stiction velocity, as docs/contact.md advises for piles), "
        f"zero_crossing FALSE (hundreds of pairs part at once as the cubes leap: each located one cost an iteration "
        f"matrix). "
        f"integr_tol {INTEGR_TOL}, h_max {fmt(H_MAX)} s.",
    ]
    text = "\n\n".join(textwrap.fill(p, width=116, initial_indent="     ", subsequent_indent="     ",
                                      break_on_hyphens=False)
                        for p in paragraphs)
    return "<!--" + text[4:] + " -->"


def marker(add, marker_id, body, position, axes=None, label=None):
    """A Reference_Marker; `axes` = (x axis, z axis) in its body's axes, the body's own when None."""
    text = f'    <Reference_Marker id="{marker_id}"' + (f' label="{label}"' if label else "") + f' body_id="{body}"'
    for name, value in zip(("pos_x", "pos_y", "pos_z"), position):
        if abs(value) > 1e-13:
            text += f' {name}="{fmt(value)}"'
    if axes:
        (x0, x1, x2), (z0, z1, z2) = axes
        text += (f'\n                      a00="{fmt(x0)}" a10="{fmt(x1)}" a20="{fmt(x2)}" a02="{fmt(z0)}" '
                 f'a12="{fmt(z1)}" a22="{fmt(z2)}"')
    add(text + "/>")


def body(add, body_id, label, mass, inertia, cg):
    ixx, iyy, izz = inertia
    add(f'    <Body_Rigid id="{body_id}" label="{label}" mass="{fmt(mass)}" cg_id="{cg}"\n'
        f'                inertia_xx="{fmt(ixx)}" inertia_yy="{fmt(iyy)}" inertia_zz="{fmt(izz)}"/>')


def box_graphic(add, graphic_id, centre_marker, size, label=None):
    lx, ly, lz = size
    add(f'    <Post_Graphic id="{graphic_id}"' + (f' label="{label}"' if label else "") +
        f' type="BoxDefinedFromCenter" center_marker_id="{centre_marker}"\n'
        f'                  length_x="{fmt(lx)}" length_y="{fmt(ly)}" length_z="{fmt(lz)}"/>')


def rope_damping(add, bushing_id, i_marker, j_marker):
    """The rope's internal friction at one of its joints: rotational damping only."""
    c = fmt(ROPE_JOINT_DAMPING)
    add(f'    <Force_Bushing id="{bushing_id}" label="Rope friction" i_marker_id="{i_marker}" j_marker_id="{j_marker}" '
        f'ctx="{c}" cty="{c}"\n                   ctz="{c}"/>')


def wrapped(ids, indent):
    per_line = 14
    return ("\n" + " " * indent).join(" ".join(str(i) for i in ids[k:k + per_line])
                                      for k in range(0, len(ids), per_line))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cubes-per-side", type=int)
    parser.add_argument("--end-time", type=float, default=END_TIME)
    parser.add_argument("--output", type=pathlib.Path)
    args = parser.parse_args()
    if args.cubes_per_side is None and args.output is None:
        here = pathlib.Path(__file__)
        for per_side, name in ((CUBES_PER_SIDE, "magnetic_crane.xml"), (1, "magnetic_crane_one_cube.xml")):
            write_deck(argparse.Namespace(cubes_per_side=per_side, end_time=args.end_time,
                                          output=here.with_name(name)))
        return
    args.cubes_per_side = args.cubes_per_side or CUBES_PER_SIDE
    args.output = args.output or pathlib.Path("magnetic_crane_variant.xml")
    write_deck(args)


def write_deck(args):

    cube_mass, cube_inertia = cube_properties()
    magnet_mass, *magnet_inertia = magnet_properties()
    link_mass, *link_inertia = link_properties()
    cubes = cube_positions(args.cubes_per_side)
    start_face, pick_face = magnet_face_heights(args.cubes_per_side)
    drop_face = args.cubes_per_side * CUBE + DROP_GAP
    # The hook's height: the magnet's face + its height + the rope; its motion measures down from the rail.
    hook_start = start_face + MAGNET[2] + rope_length()

    lines = []
    add = lines.append
    add('<?xml version="1.0" encoding="UTF-8"?>')
    add(header(args, len(cubes), cube_mass, magnet_mass, drop_face))
    add("<MultiBodySystem>")
    add("  <Model>")
    add('    <Param_Unit force_unit="NEWTON" mass_unit="KILOGRAM" length_unit="METER" time_unit="SECOND"/>')
    add(f'    <Param_Transient integr_tol="{INTEGR_TOL}" h_max="{fmt(H_MAX)}"/>')
    add('    <Force_Gravity grav_z="-9.81"/>')
    add(f'    <Body_Rigid id="{GROUND}" isground="TRUE"/>')

    # The crane: the trolley runs along ground x (the joint's z), the hook along the trolley's z.
    along_x = ((0, 1, 0), (1, 0, 0))
    marker(add, 10, GROUND, (0, 0, RAIL_HEIGHT), along_x, "Rail")
    body(add, TROLLEY_BODY, "Trolley", TROLLEY_MASS, (1, 1, 1), 20)
    marker(add, 20, TROLLEY_BODY, (0, 0, RAIL_HEIGHT))
    marker(add, 21, TROLLEY_BODY, (0, 0, RAIL_HEIGHT), along_x, "On the rail")
    marker(add, 22, TROLLEY_BODY, (0, 0, RAIL_HEIGHT), label="Hoist")
    add('    <Constraint_Joint id="1" label="Rail" type="TRANSLATIONAL" i_marker_id="21" j_marker_id="10"/>')
    travel = step(TRAVEL, SECOND_BOX_X)
    add(f'    <Motion_Joint id="1" label="Trolley drive" joint_id="1" motion_type="T" val_type="D"\n'
        f'                  expr="{travel}"/>')
    body(add, HOOK_BODY, "Hook", HOOK_MASS, (0.01, 0.01, 0.01), 30)
    marker(add, 30, HOOK_BODY, (0, 0, hook_start))
    marker(add, 31, HOOK_BODY, (0, 0, hook_start), label="On the hoist")
    add('    <Constraint_Joint id="2" label="Hoist" type="TRANSLATIONAL" i_marker_id="31" j_marker_id="22"/>')
    # The hook's displacement along the trolley's z from the rail: negative, down.
    start_drop = hook_start - RAIL_HEIGHT
    hoist = (f"{fmt(start_drop)} - {step(LOWER, start_face - pick_face)} + {step(LIFT, LIFT_HEIGHT)}"
             f"\n                        - {step(SET_DOWN, pick_face + LIFT_HEIGHT - drop_face)}"
             f" + {step(RAISE, LIFT_HEIGHT)}")
    add(f'    <Motion_Joint id="2" label="Hoist drive" joint_id="2" motion_type="T" val_type="D"\n'
        f'                  expr="{hoist}"/>')

    # The rope: links hanging straight down from the hook, each with its top end on a SPHERICAL joint.
    previous_end = 32
    marker(add, previous_end, HOOK_BODY, (0, 0, hook_start), label="Rope's top end")
    for k in range(ROPE_LINKS):
        link = FIRST_LINK_BODY + k
        top = hook_start - k * LINK_LENGTH
        base = 100 * link
        body(add, link, f"Rope link {k + 1}", link_mass, link_inertia, base)
        marker(add, base, link, (0, 0, top - LINK_LENGTH / 2))
        marker(add, base + 1, link, (0, 0, top), label="Top end")
        marker(add, base + 2, link, (0, 0, top - LINK_LENGTH), label="Bottom end")
        add(f'    <Post_Graphic id="{base}" type="Cylinder" center_marker_id="{base + 2}" radius="{fmt(LINK_RADIUS)}" '
            f'length="{fmt(LINK_LENGTH)}"/>')
        add(f'    <Constraint_Joint id="{10 + k}" label="Rope joint {k + 1}" type="SPHERICAL" '
            f'i_marker_id="{base + 1}" j_marker_id="{previous_end}"/>')
        if k > 0:
            rope_damping(add, 50 + k, base + 1, previous_end)
        previous_end = base + 2

    # The electromagnet, its top face's centre on the rope's lower end.
    magnet_centre = start_face + MAGNET[2] / 2
    base = 100 * MAGNET_BODY
    body(add, MAGNET_BODY, "Electromagnet", magnet_mass, magnet_inertia, base)
    marker(add, base, MAGNET_BODY, (0, 0, magnet_centre))
    marker(add, base + 1, MAGNET_BODY, (0, 0, start_face + MAGNET[2]), label="Eye")
    box_graphic(add, MAGNET_GRAPHIC, base, MAGNET)
    add(f'    <Constraint_Joint id="{10 + ROPE_LINKS}" label="Rope to magnet" type="SPHERICAL" '
        f'i_marker_id="{base + 1}" j_marker_id="{previous_end}"/>')
    rope_damping(add, 50 + ROPE_LINKS, base + 1, previous_end)
    switch = f"{step(SWITCH_ON, 1)} - {step(SWITCH_OFF, 1)}"
    add(f'    <Force_Magnet id="{MAGNET_GRAPHIC}" label="Electromagnet" graphic_id="{MAGNET_GRAPHIC}" '
        f'moment_z="{fmt(MAGNET_MOMENT)}"\n'
        f'                  strength_expression="{switch}"/>')

    # The floor and the boxes' walls.
    floor_centre, floor_size = floor_graphic()
    marker(add, FLOOR_GRAPHIC, GROUND, floor_centre)
    box_graphic(add, FLOOR_GRAPHIC, FLOOR_GRAPHIC, floor_size, "Floor")
    walls = [FLOOR_GRAPHIC]
    for number, (centre_x, inner, height) in enumerate([(0.0, FIRST_BOX_INNER, FIRST_BOX_WALL_HEIGHT),
                                                        (SECOND_BOX_X, SECOND_BOX_INNER, SECOND_BOX_WALL_HEIGHT)]):
        for k, (centre, size) in enumerate(box_graphics(centre_x, inner, height)):
            graphic = 901 + 10 * number + k
            marker(add, graphic, GROUND, centre)
            box_graphic(add, graphic, graphic, size, f"Wall {k + 1} of box {number + 1}")
            walls.append(graphic)

    # The cubes.
    cube_graphics = []
    for k, (x, y, z) in enumerate(cubes):
        cube = FIRST_CUBE_BODY + k
        cg = 10 * cube
        body(add, cube, f"Cube {k + 1}", cube_mass, (cube_inertia,) * 3, cg)
        marker(add, cg, cube, (x, y, z))
        box_graphic(add, cg, cg, (CUBE,) * 3)
        # Its magnet: the sphere inscribed in it, on the same body, in no contact.
        add(f'    <Post_Graphic id="{cg + 5}" type="Sphere" center_marker_id="{cg}" radius="{fmt(CUBE / 2)}"/>')
        add(f'    <Force_Magnet id="{cg + 5}" graphic_id="{cg + 5}" susceptibility="{fmt(SUSCEPTIBILITY)}"/>')
        cube_graphics.append(cg)

    add(f'    <Force_Contact id="300" label="Pile" i_graphics_id="{wrapped(cube_graphics, 34)}"\n'
        f'                   j_graphics_id="{wrapped(cube_graphics + walls + [MAGNET_GRAPHIC], 34)}"\n'
        f'                   cnf_type="IMPACT" stiffness="{fmt(CONTACT_STIFFNESS)}" exponent="{CONTACT_EXPONENT}" '
        f'damping="{fmt(CONTACT_DAMPING)}" dmax="{fmt(CONTACT_DMAX)}"\n'
        f'                   cff_type="COULOMB_ON" mu_static="{MU_STATIC}" mu_dynamic="{MU_DYNAMIC}" '
        f'stiction_trans_vel="{fmt(STICTION_VELOCITY)}"\n'
        f'                   friction_trans_vel="{fmt(FRICTION_VELOCITY)}" zero_crossing="FALSE"/>')
    add("  </Model>")
    add("  <Command>")
    add(f'    <Simulate analysis_type="Transient" end_time="{fmt(args.end_time)}" '
        f'print_interval="{fmt(PRINT_INTERVAL)}"/>')
    add("  </Command>")
    add("</MultiBodySystem>")
    args.output.write_text("\n".join(lines) + "\n")
    print(f"{len(cubes)} cubes of {cube_mass * 1e3:.2f} g, magnet {magnet_mass:.2f} kg, "
          f"{len(cubes) + 3 + ROPE_LINKS} bodies, {len(cubes) + 1} magnets, written to {args.output}")


if __name__ == "__main__":
    main()
