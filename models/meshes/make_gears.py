#!/usr/bin/env python3
"""Writes the spur gear meshes of models/epicyclic_gears.xml and models/spur_gear_pair.xml, and prints the figures
the decks take from them. Needs numpy (/usr/bin/python3 has it).

    python3 models/meshes/make_gears.py                     # writes the OBJ files beside this script
    python3 models/meshes/make_gears.py --teeth GEAR BODY MARKER FIRST_ID
        # prints a deck's marker and TriaMesh lines for the teeth of GEAR (sun, planet or ring) on BODY, in the axes
        # of MARKER (on the gear's axis), ids FIRST_ID, FIRST_ID + 1, …

The gears, in metres: module 2 mm, pressure angle 20°, addendum 1.0 m, dedendum 1.25 m, steel (7850 kg/m³):
  sun     15 teeth, pitch radius 15 mm, 8 mm wide, a 5 mm bore;
  planets 21 teeth, pitch radius 21 mm, 10 mm wide, a 5 mm bore;
  ring    57 = 15 + 2·21 internal teeth, pitch radius 57 mm, 8 mm wide, its rim 65.5 mm out.
Three planets fit equally spaced because (Zs + Zr)/3 = 24 is a whole number. The sun and the ring are narrower
than the planets on purpose: the decks sample their nodes, and a node in the plane of its mate's end face would
measure as touching that face, never as inside it.

Each gear is its 2-D outline extruded along z from −w/2 to +w/2:
  * The flanks are true involutes of the base circle r·cos 20°, sampled at SUN_FLANK, PLANET_FLANK or RING_FLANK
    points spaced so that every chord strays equally from the curve, and joined by those chords (the largest
    distance between chord and involute is printed: the mesh's flank lies within it of the involute, inside the
    tooth). Below the base circle (the sun's and the planets' roots lie there) a flank runs on radially to the root
    circle; a tip is one chord between the tip corners, a root two chords through the middle of the space.
  * Backlash: every tooth is thinned by BACKLASH/2 at the pitch circle and the ring's spaces are widened as much,
    so each mesh has BACKLASH of play along the pitch circle, BACKLASH·cos 20° along the normal.
  * An internal gear's tooth space is an external gear's tooth of the same count (the ring is the mould of a
    57-tooth external gear), so the ring's toothed inside is drawn by the same routine, addendum and dedendum
    swapped.
Files:
  gear_sun_z15.obj, gear_planet_z21.obj, gear_ring_z57.obj: the whole gears, origin on the axis at mid-width (the
    CG); the decks draw them. End faces: each tooth ear-clipped, the rest zipped between two convex polygons
    (the root circle's nodes and the bore's, or the ring's root circle's and its rim's), with the outlines' own
    nodes only (no T-junction); the end-face triangles must all have positive area and cover the face exactly.
  gear_sun_z15_tooth.obj, gear_planet_z21_tooth.obj, gear_ring_z57_tooth.obj: one tooth of each as a closed solid
    of its own, centred on +x, cut off at the chord between its root corners (the ring's: between the bottoms of
    the spaces on either side), in axes whose origin lies on +x at mid-height of the tooth, so that its bounding
    radius is the tooth's; the decks put one per tooth, in contact. The sun's and the planets' are convex (checked).
Every mesh is checked like make_meshes.py's: closed, every edge once each way (consistently wound), positive volume
(outward normals).

The script also turns each mesh (sun–planet and planet–ring, for each planet as the epicyclic deck places it, the
carrier held still) through two tooth pitches at the exact tooth ratio, teeth centred in their backlash, and
measures the smallest distance between the outlines: it must stay near half the normal backlash (no interference
anywhere, the flanks conjugate within the chords' error). It prints the contact ratios (after checking that no tip
runs in below its mate's base circle), the masses and inertias, and where the planets go.
"""
import math
import sys
from pathlib import Path

import numpy as np

import make_meshes

HERE = Path(__file__).resolve().parent

MODULE = 0.002
PRESSURE_ANGLE = math.radians(20.0)
ADDENDUM, DEDENDUM = 1.0 * MODULE, 1.25 * MODULE
BACKLASH = 0.0001          # circumferential play of each mesh at the pitch circle
DENSITY = 7850.0
Z_SUN, Z_PLANET, PLANETS = 15, 21, 3
Z_RING = Z_SUN + 2 * Z_PLANET
BORE = 0.005
RING_RIM = 0.006           # ring material outside its root circle
# Face widths: the sampled gears (sun, ring) are narrower than their master (the planets), so that no node of theirs
# lies in the plane of a planet's end face (it would measure as touching that face, never as inside it).
SUN_WIDTH, PLANET_WIDTH, RING_WIDTH = 0.008, 0.010, 0.008
# Nodes per involute flank (from where it starts to the tip corner), and chords on each tip and root arc.
SUN_FLANK, PLANET_FLANK, RING_FLANK = 7, 7, 5
TIP_CHORDS, ROOT_CHORDS = 1, 1


def involute_function(alpha):
    return math.tan(alpha) - alpha


def tooth_outline(z, addendum, dedendum, thickness_change, flank_points):
    """The outline of an external gear with z teeth, counter-clockwise from the middle of the space before tooth 0
    (centred on +x). thickness_change is added to the nominal tooth thickness πm/2 at the pitch circle; each
    involute flank gets flank_points nodes.
    Returns the points, per tooth the indices of its root corner, tip corner, tip corner and root corner in
    counter-clockwise order, and the largest distance between a flank chord and the involute it stands for."""
    r = MODULE * z / 2
    rb = r * math.cos(PRESSURE_ANGLE)
    ra, rf = r + addendum, r - dedendum
    thickness = math.pi * MODULE / 2 + thickness_change
    # Half the tooth's angular width at radius rho on the involute.
    half_at_pitch = thickness / (2 * r)
    def half_angle(rho):
        return half_at_pitch + involute_function(PRESSURE_ANGLE) - involute_function(math.acos(rb / rho))
    assert half_angle(ra) > 0, "pointed teeth"
    def involute(t):  # the flank on the −angle side of tooth 0, at roll angle t
        rho = rb * math.sqrt(1 + t * t)
        h = half_angle(rho)
        return np.array([rho * math.cos(-h), rho * math.sin(-h)])
    start = max(rb, rf)
    t_start, t_tip = math.sqrt(start ** 2 / rb ** 2 - 1), math.sqrt(ra ** 2 / rb ** 2 - 1)
    # Roll angles spaced so that every chord strays equally far from the involute (the sagitta of a chord is
    # about ρ·Δt²/8 with the radius of curvature ρ = rb·t: even steps in t^(3/2)).
    ts = [(t_start ** 1.5 + (t_tip ** 1.5 - t_start ** 1.5) * k / (flank_points - 1)) ** (2 / 3)
          for k in range(flank_points)]
    chord_error = 0.0
    for t0, t1 in zip(ts, ts[1:]):
        p, q = involute(t0), involute(t1)
        d = (q - p) / np.linalg.norm(q - p)
        for u in np.linspace(t0, t1, 41)[1:-1]:
            w = involute(u) - p
            chord_error = max(chord_error, abs(w[0] * d[1] - w[1] * d[0]))
    # Tooth 0's rising flank (the −angle side), from its root corner to its tip corner.
    rising = [involute(t) for t in ts]
    if rf < rb:  # radial down to the root circle
        rising.insert(0, rising[0] * rf / np.linalg.norm(rising[0]))
    rising = np.array(rising)
    falling = rising[::-1] * np.array([1.0, -1.0])  # its mirror image, from the tip down to the root corner
    half_root = -math.atan2(rising[0][1], rising[0][0])
    h_tip = -math.atan2(rising[-1][1], rising[-1][0])
    pitch = 2 * math.pi / z
    assert half_root < pitch / 2, "teeth overlap at the root"
    points, marks = [], []
    for tooth in range(z):
        c = tooth * pitch
        # the root arc from the middle of the space before this tooth to the tooth's root corner
        a0, a1 = c - pitch / 2, c - half_root
        for k in range(ROOT_CHORDS):
            a = a0 + (a1 - a0) * k / ROOT_CHORDS
            points.append((rf * math.cos(a), rf * math.sin(a)))
        root_left = len(points)
        points.extend(rotate(rising, c))
        tip_left = len(points) - 1
        for k in range(1, TIP_CHORDS):
            a = c - h_tip + 2 * h_tip * k / TIP_CHORDS
            points.append((ra * math.cos(a), ra * math.sin(a)))
        tip_right = len(points)
        points.extend(rotate(falling, c))
        root_right = len(points) - 1
        marks.append((root_left, tip_left, tip_right, root_right))
        a0, a1 = c + half_root, c + pitch / 2
        for k in range(1, ROOT_CHORDS):
            a = a0 + (a1 - a0) * k / ROOT_CHORDS
            points.append((rf * math.cos(a), rf * math.sin(a)))
    return np.array([tuple(p) for p in points]), marks, chord_error


def cross2(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def ear_clip(indices, points):
    """Triangles covering a simple counter-clockwise polygon (indices into points) with its own corners."""
    remaining, triangles = list(indices), []
    scale = max(np.ptp(points[remaining], axis=0)) ** 2
    while len(remaining) > 3:
        for k in range(len(remaining)):
            a, b, c = remaining[k - 1], remaining[k], remaining[(k + 1) % len(remaining)]
            if cross2(points[a], points[b], points[c]) <= 1e-12 * scale:
                continue  # a reflex or straight corner
            if any(cross2(points[a], points[b], points[p]) >= 0 and cross2(points[b], points[c], points[p]) >= 0
                   and cross2(points[c], points[a], points[p]) >= 0 for p in remaining if p not in (a, b, c)):
                continue  # another corner inside or on this ear
            triangles.append((a, b, c))
            del remaining[k]
            break
        else:
            raise AssertionError("ear clipping found no ear")
    triangles.append(tuple(remaining))
    return triangles


def circle(radius, n, phase=0.0):
    a = phase + 2 * math.pi * np.arange(n) / n
    return np.column_stack([radius * np.cos(a), radius * np.sin(a)])


def signed_area(poly):
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)


def polar_moment(poly):
    """∫(x² + y²) dA over a counter-clockwise polygon."""
    x0, y0 = poly[:, 0], poly[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    cross = x0 * y1 - x1 * y0
    return np.sum(cross * (x0 * x0 + x0 * x1 + x1 * x1 + y0 * y0 + y0 * y1 + y1 * y1)) / 12


def zipper(points, outer, inner):
    """Triangles between two convex counter-clockwise polygons around the origin, one inside the other (lists of
    indices into points): advance on whichever polygon's next corner comes first in polar angle."""
    def order(indices):
        angles = np.mod(np.arctan2(points[indices, 1], points[indices, 0]), 2 * math.pi)
        start = int(np.argmin(angles))
        cyclic = [indices[(start + k) % len(indices)] for k in range(len(indices) + 1)]
        return cyclic, angles[start] + np.unwrap(np.arctan2(points[cyclic, 1], points[cyclic, 0])) - \
            np.arctan2(points[cyclic[0], 1], points[cyclic[0], 0])
    io, ao = order(outer)
    ii, ai = order(inner)
    triangles, i, j = [], 0, 0
    while i < len(io) - 1 or j < len(ii) - 1:
        if j == len(ii) - 1 or (i < len(io) - 1 and ao[i + 1] <= ai[j + 1]):
            triangles.append((io[i], io[i + 1], ii[j]))
            i += 1
        else:
            triangles.append((io[i], ii[j + 1], ii[j]))
            j += 1
    return triangles


def external_gear_face(outline, marks, bore):
    """An external gear's end face (points: the outline, then the bore): each tooth, cut off at the chord between
    its root corners, by ear clipping; the rest, a convex polygon on the root circle, zipped to the bore."""
    points = np.vstack([outline, bore])
    triangles, root = [], []
    inside_a_tooth = set()
    for root_left, _, _, root_right in marks:
        triangles += ear_clip(list(range(root_left, root_right + 1)), points)
        inside_a_tooth.update(range(root_left + 1, root_right))
    root = [k for k in range(len(outline)) if k not in inside_a_tooth]
    triangles += zipper(points, root, list(range(len(outline), len(points))))
    return points, triangles


def internal_gear_face(rim, outline, marks):
    """The ring's end face (points: the rim, then the toothed inside, whose outline is that of the spaces): each
    ring tooth, cut off at the chord between the spaces' bottom corners, by ear clipping; the rest, a convex polygon
    on the ring's root circle, zipped to the rim."""
    n = len(rim)
    points = np.vstack([rim, outline])
    triangles, bottoms = [], []
    for k, (_, tip_left, tip_right, _) in enumerate(marks):
        bottoms += [n + i for i in range(tip_left, tip_right + 1)]
        next_tip_left = marks[(k + 1) % len(marks)][1]
        run = list(range(tip_right, next_tip_left + 1)) if next_tip_left > tip_right else \
            list(range(tip_right, len(outline))) + list(range(0, next_tip_left + 1))
        triangles += ear_clip([n + i for i in reversed(run)], points)  # the outline runs clockwise round a tooth
    triangles += zipper(points, list(range(n)), bottoms)
    return points, triangles


def extrude(outer_count, points, face, width):
    """The solid whose end face is `face` (triangles of `points`, counter-clockwise seen from +z), its outside
    boundary the first outer_count points, its hole's the rest (each counter-clockwise), from z = −w/2 to +w/2:
    nodes and outward-wound triangles."""
    # The end face must tile the region: every triangle positive, their areas summing to the region's.
    areas = [signed_area(points[list(t)]) for t in face]
    assert min(areas) > 0, f"end-face triangle with area {min(areas)}"
    region = signed_area(points[:outer_count]) - signed_area(points[outer_count:])
    assert abs(sum(areas) - region) < 1e-9 * region, "end-face triangles overlap"
    m = len(points)
    half = width / 2
    nodes = [(x, y, -half) for x, y in points] + [(x, y, half) for x, y in points]
    triangles = []
    for a, b, c in face:
        triangles.append((m + a, m + b, m + c))   # top, seen from +z: counter-clockwise
        triangles.append((a, c, b))               # bottom, reversed
    def wall(start, count, outward):
        for k in range(count):
            a, b = start + k, start + (k + 1) % count
            if not outward:
                a, b = b, a
            triangles.extend([(a, b, m + b), (a, m + b, m + a)])
    wall(0, outer_count, True)
    wall(outer_count, m - outer_count, False)
    return nodes, triangles


def external_tooth(outline, marks, z):
    """Tooth 0 of an external gear (centred on +x) as a solid of its own: its outline from root corner to root
    corner, closed by the chord between them. Convex: straight radial flanks below the base circle, then the
    involutes bending in to the tip. Returns the section and the radius of its local origin (the middle of its
    height on +x)."""
    root_left, _, _, root_right = marks[0]
    section = outline[root_left:root_right + 1]
    return section, (MODULE * z / 2 - DEDENDUM + MODULE * z / 2 + ADDENDUM) / 2


def ring_tooth(outline, marks, z):
    """The ring's tooth between its spaces 0 and 1 (the spaces centred on 0 and 2π/z) as a solid of its own: the
    material from the bottom corner of one space round the tooth to the bottom corner of the next, closed by the
    chord between them (on the ring's root circle), turned so that it is centred on +x. Its flanks are concave.
    Returns the section and the radius of its local origin (the middle of its height)."""
    _, _, tip_right, _ = marks[0]
    next_tip_left = marks[1][1]
    section = rotate(outline[tip_right:next_tip_left + 1][::-1], -math.pi / z)  # counter-clockwise round the tooth
    return section, (MODULE * z / 2 - ADDENDUM + MODULE * z / 2 + DEDENDUM) / 2


def tooth_solid(section, origin_radius, width):
    """A tooth's section extruded, in its local axes: the origin at origin_radius on +x (so that the solid's
    bounding radius, and with it the contact search's margins, are the tooth's own, not the gear's)."""
    local = section - np.array([origin_radius, 0.0])
    face = ear_clip(list(range(len(local))), local)
    return extrude(len(local), local, face, width)


def check_convex(nodes, triangles):
    """Every node on or behind every triangle's plane."""
    nodes = np.asarray(nodes)
    for a, b, c in triangles:
        normal = np.cross(nodes[b] - nodes[a], nodes[c] - nodes[a])
        normal /= np.linalg.norm(normal)
        assert np.max((nodes - nodes[a]) @ normal) < 1e-12, "the tooth is not convex"


def check_closed(nodes, triangles):
    """Every directed edge once, and its reverse once: closed and consistently wound. Positive volume: outward."""
    edges = set()
    for t in triangles:
        for k in range(3):
            edge = (t[k], t[(k + 1) % 3])
            assert edge not in edges, f"edge {edge} twice in the same direction"
            edges.add(edge)
    for a, b in edges:
        assert (b, a) in edges, f"edge {(a, b)} has no twin"
    volume = 0.0
    for a, b, c in triangles:
        volume += np.dot(nodes[a], np.cross(nodes[b], nodes[c])) / 6
    assert volume > 0, "inward normals"
    return volume


def write_obj(path, title, nodes, triangles):
    make_meshes.write_obj(path, title, nodes, triangles, writer="make_gears.py")


def rotate(poly, angle, centre=(0.0, 0.0)):
    c, s = math.cos(angle), math.sin(angle)
    return poly @ np.array([[c, s], [-s, c]]) + np.asarray(centre)


def inside(points, poly):
    """Even–odd test of each point against a closed polygon."""
    x, y = points[:, 0:1], points[:, 1:2]
    x0, y0 = poly[:, 0], poly[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    crosses = ((y0 > y) != (y1 > y)) & (x < x0 + (y - y0) * (x1 - x0) / (y1 - y0 + 1e-300))
    return np.count_nonzero(crosses, axis=1) % 2 == 1


def distance_to(points, poly):
    """Each point's distance to the polygon's boundary."""
    a, b = poly, np.roll(poly, -1, axis=0)
    d = b - a
    p = points[:, None, :]
    t = np.clip(np.sum((p - a) * d, axis=2) / np.sum(d * d, axis=1), 0, 1)
    return np.min(np.linalg.norm(p - (a + t[..., None] * d), axis=2), axis=1)


def clearance(poly_a, poly_b, solid_b_is_inside=True, near=None):
    """The smallest signed distance from poly_a's nodes to the solid bounded by poly_b (negative: inside it; its
    material inside or outside the outline), and from poly_b's nodes to poly_a's solid (material inside), counting
    the nodes that `near` selects."""
    def one_way(points, poly, material_inside):
        if near is not None:
            points = points[near(points)]
        d = distance_to(points, poly)
        into = inside(points, poly) if material_inside else ~inside(points, poly)
        return np.min(np.where(into, -d, d))
    return one_way(poly_a, poly_b, solid_b_is_inside), one_way(poly_b, poly_a, True)


def sweep(name, driver, driver_teeth, driven, driven_teeth, centre, internal, steps=80):
    """Turns `driver` about the origin through two of its tooth pitches and `driven` about `centre` at the exact
    tooth ratio (opposite ways for an external mesh, the same way for an internal one, whose driver is the ring's
    spaces outline, its material outside); the smallest gap between the outlines' nodes and the other solid over
    the sweep (negative would be interference), counting the nodes within 12 mm of the pitch point."""
    centre = np.asarray(centre)
    r_driver = MODULE * driver_teeth / 2
    pitch_point = centre / np.linalg.norm(centre) * r_driver
    near = lambda p: np.linalg.norm(p - pitch_point, axis=1) < 0.012
    gaps = []
    for k in range(steps + 1):
        angle = 2 * (2 * math.pi / driver_teeth) * k / steps
        ratio = driver_teeth / driven_teeth
        a = rotate(driver, angle)
        b = rotate(driven, angle * ratio if internal else -angle * ratio, centre)
        gaps.append(min(clearance(b, a, solid_b_is_inside=not internal, near=near)))
    print(f"  {name}: smallest gap between the teeth over two tooth pitches {min(gaps) * 1e6:.1f} µm"
          f" (largest {max(gaps) * 1e6:.1f} µm); half the normal backlash is"
          f" {BACKLASH * math.cos(PRESSURE_ANGLE) / 2 * 1e6:.1f} µm")
    assert min(gaps) > 0.25 * BACKLASH * math.cos(PRESSURE_ANGLE) / 2, f"{name}: the teeth interfere"
    return min(gaps)


def contact_ratio_external(z1, z2):
    """Contact ratio of two external gears, after checking that neither tip runs in below the other's base circle
    (the path of contact lies between the two tangent points on the line of action, a·sin α apart)."""
    r1, r2 = MODULE * z1 / 2, MODULE * z2 / 2
    rb1, rb2 = r1 * math.cos(PRESSURE_ANGLE), r2 * math.cos(PRESSURE_ANGLE)
    approach1 = math.sqrt((r1 + ADDENDUM) ** 2 - rb1 ** 2)
    approach2 = math.sqrt((r2 + ADDENDUM) ** 2 - rb2 ** 2)
    between = (r1 + r2) * math.sin(PRESSURE_ANGLE)
    assert approach1 <= between and approach2 <= between, "involute interference"
    return (approach1 + approach2 - between) / (math.pi * MODULE * math.cos(PRESSURE_ANGLE))


def contact_ratio_internal(zp, zr):
    """Contact ratio of a planet in a ring, after checking that the ring's tip circle meets the line of action
    beyond the planet's base circle tangent point (no involute interference)."""
    rp, rr = MODULE * zp / 2, MODULE * zr / 2
    rbp, rbr = rp * math.cos(PRESSURE_ANGLE), rr * math.cos(PRESSURE_ANGLE)
    between = (rr - rp) * math.sin(PRESSURE_ANGLE)
    ring_tip = math.sqrt((rr - ADDENDUM) ** 2 - rbr ** 2)
    assert ring_tip >= between, "involute interference"
    return (math.sqrt((rp + ADDENDUM) ** 2 - rbp ** 2) - ring_tip + between) / (
        math.pi * MODULE * math.cos(PRESSURE_ANGLE))


def mass_properties(outer, inner, width):
    area = signed_area(outer) - signed_area(inner)
    polar = polar_moment(outer) - polar_moment(inner)
    mass = DENSITY * area * width
    izz = DENSITY * width * polar
    ixx = izz / 2 + mass * width ** 2 / 12
    return mass, ixx, izz


def planet_angle(k):
    """Planet k's place (its angle round the sun, from +x) and how far it is turned about its own axis, so that it
    meshes with the sun (tooth 0 on +x) and the ring (a space centred on +x). Planet 0 sits on +x, turned by
    π + π/Zp: a space facing the sun's tooth 0 and, Zp being odd, a tooth facing the ring's space on +x. Planet k
    sits at β = 2πk/PLANETS, where the sun's teeth and the ring's spaces stand β from where they stand for planet 0:
    turned back by β, the sun is turned by −β from planet 0's picture and the planet must turn by β·Zs/Zp the
    other way; the ring too is turned by −β, for which the planet must turn by −β·Zr/Zp, the same modulo a tooth
    pitch exactly when (Zs + Zr)·β is a whole number of turns."""
    beta = 2 * math.pi * k / PLANETS
    return beta, beta + math.pi + math.pi / Z_PLANET + beta * Z_SUN / Z_PLANET


# Each gear's tooth mesh and how it is placed: the OBJ file, the tooth count, the radius of the mesh's local origin
# and the angle of tooth 0 (the ring's teeth stand between its spaces, which are centred on 0, 2π/Zr, …).
def tooth_placing(gear):
    r_sun, r_planet, r_ring = (MODULE * z / 2 for z in (Z_SUN, Z_PLANET, Z_RING))
    return {
        "sun": ("gear_sun_z15_tooth.obj", Z_SUN, r_sun + (ADDENDUM - DEDENDUM) / 2, 0.0),
        "planet": ("gear_planet_z21_tooth.obj", Z_PLANET, r_planet + (ADDENDUM - DEDENDUM) / 2, 0.0),
        "ring": ("gear_ring_z57_tooth.obj", Z_RING, r_ring + (DEDENDUM - ADDENDUM) / 2, math.pi / Z_RING),
    }[gear]


def teeth_text(gear, body, marker, first_id):
    """The deck's lines for one gear's teeth: per tooth k a marker on `body` in the axes of the gear's marker
    `marker` (its origin on the gear's axis), at the tooth mesh's local origin, turned by the tooth's angle, and a
    TriaMesh on it; marker k and graphic k share the id first_id + k."""
    obj, z, radius, phase = tooth_placing(gear)
    lines = []
    for k in range(z):
        angle = phase + 2 * math.pi * k / z
        i = first_id + k
        x, y = radius * math.cos(angle), radius * math.sin(angle)
        lines.append(f'<Reference_Marker id="{i}" body_id="{body}" rm_id="{marker}" pos_x="{x:.9g}" pos_y="{y:.9g}"'
                     f' psi="{angle:.9g}"/>')
        lines.append(f'<Post_Graphic id="{i}" type="TriaMesh" ref_marker_id="{i}" mesh_file="meshes/{obj}"/>')
    return "\n".join(lines)


def main():
    thin = -BACKLASH / 2
    sun, sun_marks, sun_error = tooth_outline(Z_SUN, ADDENDUM, DEDENDUM, thin, SUN_FLANK)
    planet, planet_marks, planet_error = tooth_outline(Z_PLANET, ADDENDUM, DEDENDUM, thin, PLANET_FLANK)
    # The ring's spaces: a 57-tooth external outline reaching out to the ring's root circle (r + 1.25 m) and in to
    # its tip circle (r − m), as thick as the ring's space (πm/2 plus half the backlash).
    ring_inside, ring_marks, ring_error = tooth_outline(Z_RING, DEDENDUM, ADDENDUM, -thin, RING_FLANK)
    r_sun, r_planet, r_ring = (MODULE * z / 2 for z in (Z_SUN, Z_PLANET, Z_RING))
    # the rim: a node every half tooth pitch, midway between the spaces' and the teeth's centres
    rim = circle(r_ring + DEDENDUM + RING_RIM, 2 * Z_RING, math.pi / (2 * Z_RING))
    print(f"module {MODULE * 1e3:g} mm, pressure angle 20°, backlash {BACKLASH * 1e6:g} µm at the pitch circle per"
          f" mesh ({BACKLASH * math.cos(PRESSURE_ANGLE) * 1e6:.1f} µm along the normal), steel {DENSITY:g} kg/m³")

    # The whole gears, drawn only; their mass and inertia are the bodies'.
    wholes = [
        ("gear_sun_z15.obj", f"sun: {Z_SUN} teeth", SUN_WIDTH, len(sun),
         external_gear_face(sun, sun_marks, circle(BORE, 2 * Z_SUN))),
        ("gear_planet_z21.obj", f"planet: {Z_PLANET} teeth", PLANET_WIDTH, len(planet),
         external_gear_face(planet, planet_marks, circle(BORE, 2 * Z_PLANET))),
        ("gear_ring_z57.obj", f"ring: {Z_RING} internal teeth", RING_WIDTH, len(rim),
         internal_gear_face(rim, ring_inside, ring_marks)),
    ]
    for file_name, title, width, outer_count, (points, face) in wholes:
        nodes, triangles = extrude(outer_count, points, face, width)
        volume = check_closed(np.array(nodes), triangles)
        mass, ixx, izz = mass_properties(points[:outer_count], points[outer_count:], width)
        assert abs(volume * DENSITY - mass) < 1e-9 * mass
        write_obj(HERE / file_name, f"{title}, module {MODULE} m, 20 deg involute flanks as chords, face width"
                  f" {width} m; origin at its CG, axis z", nodes, triangles)
        print(f"{file_name}: face width {width * 1e3:g} mm, {len(nodes)} nodes, {len(triangles)} triangles;"
              f" mass {mass:.6g} kg, inertia xx = yy {ixx:.6g}, zz {izz:.6g} kg·m²")
    # The contact geometry: every tooth a solid of its own, in its own axes (one mesh per gear, placed once per tooth
    # by a marker turned by a tooth pitch from the last).
    teeth = [
        ("gear_sun_z15_tooth.obj", "sun", SUN_WIDTH, external_tooth(sun, sun_marks, Z_SUN), sun_error, True),
        ("gear_planet_z21_tooth.obj", "planet", PLANET_WIDTH, external_tooth(planet, planet_marks, Z_PLANET),
         planet_error, True),
        ("gear_ring_z57_tooth.obj", "ring", RING_WIDTH, ring_tooth(ring_inside, ring_marks, Z_RING), ring_error,
         False),
    ]
    for file_name, name, width, (section, origin), error, convex in teeth:
        assert tooth_placing(name)[0] == file_name and abs(tooth_placing(name)[2] - origin) < 1e-15
        nodes, triangles = tooth_solid(section, origin, width)
        check_closed(np.array(nodes), triangles)
        if convex:
            check_convex(nodes, triangles)
        write_obj(HERE / file_name, f"one tooth of the {name}, centred on +x, in axes whose origin lies {origin} m out"
                  f" from the gear's axis; module {MODULE} m, 20 deg involute flanks as chords, face width {width} m",
                  nodes, triangles)
        print(f"{file_name}: {len(nodes)} nodes, {len(triangles)} triangles{', convex' if convex else ''};"
              f" local origin {origin * 1e3:.6g} mm from the axis; flank chords within {error * 1e6:.1f} µm"
              f" of the involute")

    centre_distance = r_sun + r_planet
    print(f"pitch radii: sun {r_sun * 1e3:g} mm, planet {r_planet * 1e3:g} mm, ring {r_ring * 1e3:g} mm;"
          f" planet centres {centre_distance * 1e3:g} mm from the axis")
    print(f"contact ratios: sun–planet {contact_ratio_external(Z_SUN, Z_PLANET):.3f},"
          f" planet–ring {contact_ratio_internal(Z_PLANET, Z_RING):.3f}")
    assert Z_PLANET % 2 == 1 and (Z_SUN + Z_RING) % PLANETS == 0
    for k in range(PLANETS):
        beta, psi = planet_angle(k)
        # The mesh seen turned back by β: planet k on +x.
        placed_planet = rotate(planet, psi - beta)
        sun_k, ring_k = rotate(sun, -beta), rotate(ring_inside, -beta)
        x, y = centre_distance * math.cos(beta), centre_distance * math.sin(beta)
        print(f"planet {k + 1}: centre ({x:.9g}, {y:.9g}), turned by psi = {psi:.12g} rad about z")
        sweep("sun–planet", sun_k, Z_SUN, placed_planet, Z_PLANET, (centre_distance, 0.0), internal=False)
        sweep("planet–ring", ring_k, Z_RING, placed_planet, Z_PLANET, (centre_distance, 0.0), internal=True)
    ratio = Z_SUN / (Z_SUN + Z_RING)
    planet_spin = ratio - (1 - ratio) * Z_SUN / Z_PLANET
    print(f"carrier / sun = Zs/(Zs + Zr) = {Z_SUN}/{Z_SUN + Z_RING} = {ratio:.6f};"
          f" planet spin / sun = {planet_spin:.6f} (= ratio − (1 − ratio)·Zs/Zp)")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--teeth":
        print(teeth_text(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])))
    else:
        main()
