#!/usr/bin/python3
"""Writes sphere_of_objects.xml and its two meshes (meshes/nickel_*.obj) beside this script: Westhofen et al. 2024,
§4.5 ("Sphere of Magnetic Objects"), built from the paper's description. Run it again after changing a figure
below; the deck and the meshes it writes are committed."""
import math
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "meshes"))
from make_meshes import check_closed, icosphere, write_obj  # noqa: E402  (the example meshes' generator)

# The paper: 27 magnetisable nickel armadillos and bunnies in a closed glass sphere drop into a pile; a magnet placed
# below the pile is switched on, dragged across the sphere's surface until every object sticks to the top, and
# switched off, so they pile up at the bottom again. The paper's meshes are not ours to ship; two shapes of our own
# stand in for them, a round one with a head and ears ("bunny") and a long one with four limbs ("armadillo"), each a
# closed, star-shaped mesh of 320 triangles.
CAVITY_RADIUS = 0.12         # m, the glass sphere's inside
GLASS = 0.004                # m, its wall, between the magnet and the objects
OBJECT_SIZE = 0.011          # m, an object's base radius before its bumps
NICKEL_DENSITY = 8900.0      # kg/m³
NICKEL_SUSCEPTIBILITY = 1.26e-4 / (4e-7 * math.pi) - 1  # the paper's μ = 1.26e-4 H/m: χ = μ/μ0 − 1 ≈ 99.3
GRID_SPACING = 0.038         # m, the 3 × 3 × 3 objects' starting grid (no two objects' reaches, ≤ 18.5 mm, meet)
GRID_CENTRE = -0.035         # m, its middle's height: low in the sphere, so the drop into a pile is short
MAGNET = (0.08, 0.08, 0.04)  # m, a block magnetised through its thin side, towards the sphere's centre
# A·m²: M = 7.8e5 A/m, a remanence of 0.98 T (an N30 block). A 40 × 40 × 20 mm block of 20 A·m² took only 7 of the
# objects to the top; tried with balls in their place, one of that size at 100 A·m² took 16 of 27 above z = 5 cm, this
# one 25 (and all 27 above the equator): the pile is wider than the small block's reach.
MAGNET_MOMENT = 200.0
# N·s/m, the contact's damping: under the magnet's pull an object pressed into the glass on a few of its nodes can
# rock by itself with less (docs/contact.md, Containers); at 100 the run gained energy steadily where they rocked.
CONTACT_DAMPING = 1000
# The sequence (s): the objects pile up; the magnet comes on below them; it is dragged over the sphere to its top;
# it goes off; the objects fall back.
MAGNET_ON, DRAG_FROM, DRAG_TO, MAGNET_OFF, END_TIME = 2.0, 4.0, 14.0, 20.0, 25.0  # the paper's 25 006 steps of 1 ms
SEED = 7
MESH_LEVELS = 1             # icosphere subdivisions: 80 triangles


def fmt(x):
    return f"{0.0 if abs(x) < 1e-14 else x:.8g}"


# ---- meshes ----------------------------------------------------------------------------------------------------

def bump(direction, towards, height, width):
    """A smooth radial bump of `height` centred on the unit vector `towards`, `width` its angular spread (rad)."""
    cosine = sum(d * t for d, t in zip(direction, towards))
    angle = math.acos(max(-1.0, min(1.0, cosine)))
    return height * math.exp(-(angle / width) ** 2)


def unit(*v):
    norm = math.sqrt(sum(c * c for c in v))
    return tuple(c / norm for c in v)


def round_shape(d):
    """The "bunny": a body, a head to the front and up, two ears on the head."""
    r = 1 + bump(d, unit(1, 0, 0.6), 0.35, 0.45) + bump(d, unit(0.5, 0.35, 1), 0.55, 0.18)
    return r + bump(d, unit(0.5, -0.35, 1), 0.55, 0.18)


def long_shape(d):
    """The "armadillo": an elongated body, a head, four limbs and a tail."""
    scale = math.sqrt((d[0] / 1.35) ** 2 + (d[1] / 0.8) ** 2 + (d[2] / 0.8) ** 2)
    r = 1 / scale + bump(d, unit(1, 0, 0.2), 0.3, 0.25) + bump(d, unit(-1, 0, 0), 0.35, 0.12)
    for sx in (1, -1):
        for sy in (1, -1):
            r += bump(d, unit(0.5 * sx, 0.6 * sy, -0.8), 0.45, 0.16)
    return r


def shaped_mesh(radius_of):
    """The icosphere with each vertex moved out to radius_of(direction)·OBJECT_SIZE, then shifted so that its centroid
    is the origin. Returns vertices, faces, volume and the inertia tensor about the centroid per unit density."""
    directions, faces = icosphere(1.0, MESH_LEVELS)
    vertices = [tuple(OBJECT_SIZE * radius_of(d) * c for c in d) for d in directions]
    check_closed(vertices, faces)
    volume, moment = 0.0, [0.0, 0.0, 0.0]
    for a, b, c in faces:  # signed tetrahedra from the origin (star-shaped, so all positive)
        pa, pb, pc = vertices[a], vertices[b], vertices[c]
        v = (pa[0] * (pb[1] * pc[2] - pb[2] * pc[1]) - pa[1] * (pb[0] * pc[2] - pb[2] * pc[0]) +
             pa[2] * (pb[0] * pc[1] - pb[1] * pc[0])) / 6
        volume += v
        for i in range(3):
            moment[i] += v * (pa[i] + pb[i] + pc[i]) / 4
    centroid = [m / volume for m in moment]
    vertices = [tuple(p[i] - centroid[i] for i in range(3)) for p in vertices]
    # Second moments ∫x_i x_j dV over each tetrahedron (origin, a, b, c): v/20·(Σ_k p_ki p_kj + Σ_k p_ki Σ_k p_kj).
    second = [[0.0] * 3 for _ in range(3)]
    for a, b, c in faces:
        pts = [vertices[a], vertices[b], vertices[c]]
        v = (pts[0][0] * (pts[1][1] * pts[2][2] - pts[1][2] * pts[2][1]) -
             pts[0][1] * (pts[1][0] * pts[2][2] - pts[1][2] * pts[2][0]) +
             pts[0][2] * (pts[1][0] * pts[2][1] - pts[1][1] * pts[2][0])) / 6
        for i in range(3):
            for j in range(3):
                sums = sum(p[i] for p in pts) * sum(p[j] for p in pts)
                second[i][j] += v / 20 * (sum(p[i] * p[j] for p in pts) + sums)
    trace = second[0][0] + second[1][1] + second[2][2]
    inertia = [[(trace if i == j else 0) - second[i][j] for j in range(3)] for i in range(3)]
    return vertices, faces, volume, inertia


# ---- the deck --------------------------------------------------------------------------------------------------

def random_rotation(rng):
    """A uniformly random rotation matrix (rows), from a random unit quaternion."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    w = math.sqrt(1 - u1) * math.sin(2 * math.pi * u2)
    x = math.sqrt(1 - u1) * math.cos(2 * math.pi * u2)
    y = math.sqrt(u1) * math.sin(2 * math.pi * u3)
    z = math.sqrt(u1) * math.cos(2 * math.pi * u3)
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def axes(rotation):
    """A marker's x and z axes (columns of `rotation`) as the deck's direction cosines."""
    return (f'a00="{fmt(rotation[0][0])}" a10="{fmt(rotation[1][0])}" a20="{fmt(rotation[2][0])}" '
            f'a02="{fmt(rotation[0][2])}" a12="{fmt(rotation[1][2])}" a22="{fmt(rotation[2][2])}"')


def main():
    here = pathlib.Path(__file__).parent
    (here / "meshes").mkdir(exist_ok=True)
    shapes = []
    for name, radius_of in (("nickel_round", round_shape), ("nickel_long", long_shape)):
        vertices, faces, volume, inertia = shaped_mesh(radius_of)
        write_obj(here / "meshes" / f"{name}.obj", f"{name}: a stand-in for the paper's objects", vertices, faces,
                  writer="make_sphere_of_objects.py")
        reach = max(math.sqrt(sum(c * c for c in v)) for v in vertices)
        shapes.append((name, volume, inertia, reach))
    rng = random.Random(SEED)
    magnet_distance = CAVITY_RADIUS + GLASS + MAGNET[2] / 2
    masses = [NICKEL_DENSITY * s[1] for s in shapes]
    lines = []
    add = lines.append
    add('<?xml version="1.0" encoding="UTF-8"?>')
    add(f"""<!-- A sphere of magnetic objects: Westhofen et al. 2024, §4.5 (Table 1: 31 samples, 28 bodies, 4351 s on 32
     cores for about 25 s). Written by make_sphere_of_objects.py with meshes/nickel_round.obj and nickel_long.obj;
     change that script and run it again.

     A closed glass sphere ({fmt(2 * CAVITY_RADIUS)} m inside; a Sphere graphic with is_material_inside="FALSE", the
     cavity the objects are held in) holds 27 soft nickel objects (χ = {NICKEL_SUSCEPTIBILITY:.1f}, the paper's
     μ = 1.26e-4 H/m), alternately a round shape with a head and ears ({fmt(masses[0] * 1e3)} g) and a long one with
     four limbs ({fmt(masses[1] * 1e3)} g): our own closed meshes of 320 triangles in place of the paper's bunnies and
     armadillos. Each is sampled by one dipole (dipoles_per_axis 1), as the paper samples them. They start on a
     3 × 3 × 3 grid, turned at random, and drop into a pile. A block magnet of
     {MAGNET[0] * 1e3:g} × {MAGNET[1] * 1e3:g} × {MAGNET[2] * 1e3:g} mm ({fmt(MAGNET_MOMENT)} A·m², pointing at the
     sphere's centre) outside the glass
     below them comes on at {MAGNET_ON:g} s, is swung over the sphere to its top from {DRAG_FROM:g} s to {DRAG_TO:g} s
     by a REVOLUTE joint at the sphere's centre driven by a motion (the glass is {GLASS * 1e3:g} mm thick: the magnet
     does not touch the objects), and goes off at {MAGNET_OFF:g} s; the objects then fall back into a pile.

     What it shows: induced magnetisation of all the objects solved together at every force evaluation (each one
     magnetised by the magnet and by the others: they chain), in the residual and the Jacobian, with mesh contact
     among the objects and against the cavity's exact wall, without interpenetration. -->""")
    add("<MultiBodySystem>")
    add("  <Model>")
    add('    <Param_Unit force_unit="NEWTON" mass_unit="KILOGRAM" length_unit="METER" time_unit="SECOND"/>')
    add('    <Param_Transient integr_tol="1e-3" h_max="0.01"/>')
    add('    <Force_Gravity grav_z="-9.81"/>')
    add('    <Body_Rigid id="1" isground="TRUE"/>')
    add('    <Reference_Marker id="10" body_id="1"/>')
    add(f'    <Post_Graphic id="10" label="Glass sphere" type="Sphere" center_marker_id="10"'
        f' radius="{fmt(CAVITY_RADIUS)}" is_material_inside="FALSE"/>')
    # The magnet's arm turns about the ground's y axis through the sphere's centre: the joint markers' z along y.
    about_y = 'a00="1" a10="0" a20="0" a02="0" a12="1" a22="0"'
    add(f'    <Reference_Marker id="11" body_id="1" {about_y}/>')
    add('    <Body_Rigid id="2" label="Magnet arm" mass="0.6" cg_id="20" inertia_xx="1e-3" inertia_yy="1e-3"'
        ' inertia_zz="1e-3"/>')
    add('    <Reference_Marker id="20" body_id="2"/>')
    add(f'    <Reference_Marker id="21" body_id="2" {about_y}/>')
    add(f'    <Reference_Marker id="22" body_id="2" pos_z="{fmt(-magnet_distance)}"/>')
    add(f'    <Post_Graphic id="20" label="Magnet" type="BoxDefinedFromCenter" center_marker_id="22"'
        f' length_x="{MAGNET[0]}" length_y="{MAGNET[1]}" length_z="{MAGNET[2]}"/>')
    add(f'    <Force_Magnet id="20" label="Magnet" graphic_id="20" moment_z="{fmt(MAGNET_MOMENT)}"\n'
        f'                  strength_expression="STEP(TIME, {MAGNET_ON:g}, 0, {MAGNET_ON + 0.2:g}, 1)'
        f' * STEP(TIME, {MAGNET_OFF:g}, 1, {MAGNET_OFF + 0.2:g}, 0)"/>')
    add('    <Constraint_Joint id="20" label="Magnet arm pivot" type="REVOLUTE" i_marker_id="21" j_marker_id="11"/>')
    # Positive about y takes the magnet from below (−z) over −x to the top.
    add(f'    <Motion_Joint id="20" joint_id="20" motion_type="R"'
        f' expr="STEP(TIME, {DRAG_FROM:g}, 0, {DRAG_TO:g}, PI)"/>')
    # The objects are sampled at their nodes (enable_node_mode): the tips of their ears and limbs are nodes, so no
    # tip can reach into the glass or another object between two samples. The pile's onsets and separations are not
    # located in time (zero_crossing FALSE; the step limit still keeps any contact from being crossed unseen): 27
    # objects settling make about 2000 of them a second, each a restart of the integrator, which took 2.4 times the
    # CPU time over the first 0.5 s (59.5 s against 25.0 s) for the same energy balance (0.7 % against 1.0 %).
    objects = []
    for k in range(27):
        shape = k % 2
        name, volume, inertia, _ = shapes[shape]
        mass = NICKEL_DENSITY * volume
        i, j, l = k % 3 - 1, (k // 3) % 3 - 1, k // 9 - 1
        body, cg = 100 + k, 1000 + k
        rotation = random_rotation(rng)
        inertia_attributes = (f'inertia_xx="{fmt(NICKEL_DENSITY * inertia[0][0])}" '
                              f'inertia_yy="{fmt(NICKEL_DENSITY * inertia[1][1])}" '
                              f'inertia_zz="{fmt(NICKEL_DENSITY * inertia[2][2])}"\n'
                              f'                inertia_xy="{fmt(NICKEL_DENSITY * inertia[0][1])}" '
                              f'inertia_yz="{fmt(NICKEL_DENSITY * inertia[1][2])}" '
                              f'inertia_xz="{fmt(NICKEL_DENSITY * inertia[0][2])}"')
        add(f'    <Body_Rigid id="{body}" label="Object {k + 1}" mass="{fmt(mass)}" cg_id="{cg}"\n'
            f'                {inertia_attributes}/>')
        add(f'    <Reference_Marker id="{cg}" body_id="{body}" pos_x="{fmt(GRID_SPACING * i)}"'
            f' pos_y="{fmt(GRID_SPACING * j)}" pos_z="{fmt(GRID_CENTRE + GRID_SPACING * l)}"\n'
            f'                      {axes(rotation)}/>')
        add(f'    <Post_Graphic id="{body}" type="TriaMesh" ref_marker_id="{cg}" mesh_file="meshes/{name}.obj"/>')
        add(f'    <Force_Magnet id="{body}" graphic_id="{body}" susceptibility="{NICKEL_SUSCEPTIBILITY:.4g}"'
            f' dipoles_per_axis="1"/>')
        objects.append(str(body))
    ids = " ".join(objects)
    add(f'    <Force_Contact id="1" label="Objects and glass" i_graphics_id="{ids}"\n'
        f'                   j_graphics_id="{ids} 10"\n'
        f'                   cnf_type="IMPACT" stiffness="1e7" exponent="1.5" damping="{CONTACT_DAMPING}" dmax="1e-4"\n'
        '                   cff_type="COULOMB_ON" mu_static="0.3" mu_dynamic="0.25" stiction_trans_vel="0.01"\n'
        '                   friction_trans_vel="0.02" enable_node_mode="TRUE" zero_crossing="FALSE"/>')
    add("  </Model>")
    add("  <Command>")
    add(f'    <Simulate analysis_type="Transient" end_time="{END_TIME:g}" print_interval="0.05"/>')
    add("  </Command>")
    add("</MultiBodySystem>")
    (here / "sphere_of_objects.xml").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
