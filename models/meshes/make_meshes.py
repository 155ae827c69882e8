#!/usr/bin/env python3
"""Writes the mesh files of the example decks, and prints the figures the decks take from them.

    python3 models/meshes/make_meshes.py            # writes sphere_r50mm.obj and bracket_l80.obj beside this script
    python3 models/meshes/make_meshes.py --stairs   # prints the stairs' inline TriaMesh text of bracket_down_stairs.xml

Every mesh is closed and wound counter-clockwise seen from outside (outward normals), with no T-junctions: the
decks' Force_Contact elements refuse anything else (`lodestone check` names the first bad triangle or edge).
Coordinates are in metres.
"""
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def write_obj(path, title, nodes, triangles, writer="make_meshes.py"):
    """An OBJ file: a comment with `title` and the script that wrote it, the nodes, the 1-based triangles."""
    with open(path, "w") as out:
        out.write(f"# {title}\n# written by {writer}: {len(nodes)} nodes, {len(triangles)} triangles\n")
        for x, y, z in nodes:
            out.write(f"v {x:.9g} {y:.9g} {z:.9g}\n")
        for a, b, c in triangles:
            out.write(f"f {a + 1} {b + 1} {c + 1}\n")


def check_closed(nodes, triangles):
    """Every directed edge once, and its reverse once: closed and consistently wound. Positive volume: outward."""
    edges = {}
    for t in triangles:
        for k in range(3):
            edge = (t[k], t[(k + 1) % 3])
            assert edge not in edges, f"edge {edge} twice in the same direction"
            edges[edge] = True
    for a, b in edges:
        assert (b, a) in edges, f"edge {(a, b)} has no twin"
    volume = 0.0
    for a, b, c in triangles:
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = nodes[a], nodes[b], nodes[c]
        volume += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6
    assert volume > 0, "inward normals"
    return volume


# ---- the ball: an icosphere ------------------------------------------------------------------------------------

def icosphere(radius, subdivisions):
    """The icosahedron, each triangle split in four `subdivisions` times, nodes pushed out onto the sphere."""
    phi = (1 + math.sqrt(5)) / 2
    nodes = [(-1, phi, 0), (1, phi, 0), (-1, -phi, 0), (1, -phi, 0), (0, -1, phi), (0, 1, phi), (0, -1, -phi),
             (0, 1, -phi), (phi, 0, -1), (phi, 0, 1), (-phi, 0, -1), (-phi, 0, 1)]
    triangles = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
                 (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5),
                 (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    unit = lambda p: tuple(c / math.sqrt(sum(q * q for q in p)) for c in p)
    nodes = [unit(p) for p in nodes]
    for _ in range(subdivisions):
        middle = {}

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in middle:
                middle[key] = len(nodes)
                nodes.append(unit(tuple((p + q) / 2 for p, q in zip(nodes[a], nodes[b]))))
            return middle[key]

        finer = []
        for a, b, c in triangles:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            finer += [(ab, bc, ca), (a, ab, ca), (b, bc, ab), (c, ca, bc)]
        triangles = finer
    return [tuple(radius * c for c in p) for p in nodes], triangles


def face_down(nodes, triangles):
    """Turns the mesh so that the centre of its first triangle lies straight below the origin: the ball rests on a
    face, so its lowest point is a triangle centre, where the contact samples it."""
    a, b, c = (nodes[v] for v in triangles[0])
    u = [(p + q + r) / 3 for p, q, r in zip(a, b, c)]
    u = [x / math.sqrt(sum(y * y for y in u)) for x in u]
    down = (0.0, 0.0, -1.0)
    # Rodrigues: the rotation about u × down by the angle between them.
    axis = (u[1] * down[2] - u[2] * down[1], u[2] * down[0] - u[0] * down[2], u[0] * down[1] - u[1] * down[0])
    s, cos = math.sqrt(sum(x * x for x in axis)), sum(x * y for x, y in zip(u, down))
    k = [x / s for x in axis]

    def turn(p):
        kxp = (k[1] * p[2] - k[2] * p[1], k[2] * p[0] - k[0] * p[2], k[0] * p[1] - k[1] * p[0])
        kp = sum(x * y for x, y in zip(k, p))
        return tuple(p[i] * cos + kxp[i] * s + k[i] * kp * (1 - cos) for i in range(3))

    return [turn(p) for p in nodes]


# ---- the bracket: an extruded L -------------------------------------------------------------------------------

# The L in the x-z plane, extruded along y: a foot along x (FOOT long, THICK thick) and an upright leg along z
# (LEG tall overall), joined at the corner x, z ∈ [0, THICK]. Meshed on a grid of STEP: every cap node on the
# outline is a node of the side walls too, so there is no T-junction.
FOOT, LEG, THICK, WIDTH, STEP = 0.08, 0.08, 0.02, 0.04, 0.01
DENSITY = 2700.0  # aluminium


def bracket_section():
    """The L section as two rectangles (x0, x1, z0, z1), its area and its centroid."""
    rects = [(0.0, FOOT, 0.0, THICK), (0.0, THICK, THICK, LEG)]  # x0, x1, z0, z1
    area = sum((x1 - x0) * (z1 - z0) for x0, x1, z0, z1 in rects)
    cx = sum((x1 - x0) * (z1 - z0) * (x0 + x1) / 2 for x0, x1, z0, z1 in rects) / area
    cz = sum((x1 - x0) * (z1 - z0) * (z0 + z1) / 2 for x0, x1, z0, z1 in rects) / area
    return rects, area, cx, cz


def bracket_mass_properties():
    """Mass, and the inertia tensor about the CG in the mesh's axes (∫(y²+z²) dm … and the product ∫xz dm)."""
    rects, area, cx, cz = bracket_section()
    mass = DENSITY * area * WIDTH
    ixx = iyy = izz = ixz = 0.0
    for x0, x1, z0, z1 in rects:
        m = DENSITY * (x1 - x0) * (z1 - z0) * WIDTH
        dx, dz = (x0 + x1) / 2 - cx, (z0 + z1) / 2 - cz
        sx, sz, sy = (x1 - x0) ** 2 / 12, (z1 - z0) ** 2 / 12, WIDTH ** 2 / 12  # per unit mass, about own centre
        ixx += m * (sy + sz + dz * dz)
        iyy += m * (sx + sz + dx * dx + dz * dz)
        izz += m * (sx + sy + dx * dx)
        ixz += m * dx * dz
    return mass, (cx, cz), (ixx, iyy, izz, ixz)


def bracket():
    """The L meshed on its grid, with the CG at the origin (the deck's marker sits at the CG)."""
    _, _, cx, cz = bracket_section()
    n = lambda length: round(length / STEP)
    nf, nl, nt, nw = n(FOOT), n(LEG), n(THICK), n(WIDTH)
    # Grid cells (i, k) of the section: i along x, k along z, each STEP square.
    cells = {(i, k) for i in range(nf) for k in range(nt)} | {(i, k) for i in range(nt) for k in range(nt, nl)}
    index, nodes, triangles = {}, [], []

    def node(i, j, k):  # grid node: x = i·STEP, y = j·WIDTH/nw, z = k·STEP
        if (i, j, k) not in index:
            index[(i, j, k)] = len(nodes)
            nodes.append((i * STEP - cx, j * WIDTH / nw - WIDTH / 2, k * STEP - cz))
        return index[(i, j, k)]

    def quad(a, b, c, d):  # corners counter-clockwise seen from outside
        triangles.extend([(a, b, c), (a, c, d)])

    # The caps, y = -WIDTH/2 (outside is -y) and y = +WIDTH/2: two triangles per cell.
    for i, k in sorted(cells):
        quad(node(i, 0, k), node(i + 1, 0, k), node(i + 1, 0, k + 1), node(i, 0, k + 1))
        quad(node(i, nw, k), node(i, nw, k + 1), node(i + 1, nw, k + 1), node(i + 1, nw, k))
    # The walls: each cell side on the outline (no cell beyond it), split along y.
    for i, k in sorted(cells):
        for di, dk in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (i + di, k + dk) in cells:
                continue
            # The side's two section corners, ordered so that the wall faces outward.
            if (di, dk) == (1, 0):
                p, q = (i + 1, k + 1), (i + 1, k)
            elif (di, dk) == (-1, 0):
                p, q = (i, k), (i, k + 1)
            elif (di, dk) == (0, 1):
                p, q = (i, k + 1), (i + 1, k + 1)
            else:
                p, q = (i + 1, k), (i, k)
            for j in range(nw):
                quad(node(p[0], j, p[1]), node(q[0], j, q[1]), node(q[0], j + 1, q[1]), node(p[0], j + 1, p[1]))
    return nodes, triangles


# ---- the stairs: an extruded step profile ---------------------------------------------------------------------

# Steps descending along +x: a landing of LANDING at the top, then STEPS − 1 treads of TREAD, each RISE lower;
# extruded along y over STAIR_WIDTH. The bottom face lies on z = 0 and the back wall on x = 0.
STEPS, RISE, TREAD, LANDING, STAIR_WIDTH = 4, 0.08, 0.1, 0.1, 0.3


def stairs():
    # The profile, counter-clockwise seen from -y (x to the right, z up): from the bottom-back corner along the
    # bottom, then up over each step's nose and inner corner, over the landing and down the back wall.
    x_end = LANDING + (STEPS - 1) * TREAD
    profile = [(0.0, 0.0), (x_end, 0.0)]
    for s in range(1, STEPS):  # step s (1 = bottom) spans x from x_end − s·TREAD to x_end − (s−1)·TREAD
        x = x_end - (s - 1) * TREAD
        profile += [(x, s * RISE), (x - TREAD, s * RISE)]
    profile += [(LANDING, STEPS * RISE), (0.0, STEPS * RISE)]
    # The side faces are this non-convex polygon. A fan from its bottom-back corner (0, 0) triangulates it with its
    # own corners only (no extra node, so no T-junction on the walls): the polygon is star-shaped from there, the
    # corners following each other counter-clockwise around it (fan_is_inside checks it).
    m = len(profile)
    nodes = [(x, -STAIR_WIDTH / 2, z) for x, z in profile] + [(x, STAIR_WIDTH / 2, z) for x, z in profile]
    triangles = []
    for a in range(1, m - 1):
        triangles.append((0, a, a + 1))                  # y = -W/2, seen from -y: the profile's own order
        triangles.append((m, m + a + 1, m + a))          # y = +W/2, reversed
    for a in range(m):  # the walls around the outline: edge a -> a+1 seen from outside
        b = (a + 1) % m
        triangles += [(a, m + a, m + b), (a, m + b, b)]
    return nodes, triangles, profile


def fan_is_inside(profile):
    """Every fan triangle from corner 0 has positive area (counter-clockwise) and no profile corner inside it."""
    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    for a in range(1, len(profile) - 1):
        tri = (profile[0], profile[a], profile[a + 1])
        assert cross(*tri) > 0, f"fan triangle {a} is not counter-clockwise"
        for p in profile:
            if p in tri:
                continue
            inside = all(cross(tri[k], tri[(k + 1) % 3], p) > 0 for k in range(3))
            assert not inside, f"corner {p} inside fan triangle {a}"


def stairs_text():
    """The Post_Graphic attributes and element text of the stairs, commented: the deck holds it inline."""
    nodes, triangles, profile = stairs()
    fan_is_inside(profile)
    check_closed(nodes, triangles)
    m, sides = len(profile), 2 * (len(profile) - 2)
    row = lambda tris: "  ".join(f"{a} {b} {c}" for a, b, c in tris)
    lines = [f'num_point="{len(nodes)}" num_triangle="{len(triangles)}"',
             f"<!-- Node Position: the profile's {m} corners at y = {-STAIR_WIDTH / 2:g}, "
             f"then at y = {STAIR_WIDTH / 2:g} -->"]
    for k in range(0, len(nodes), m // 2):
        lines.append("   ".join(f"{x:g} {y:g} {z:g}" for x, y, z in nodes[k:k + m // 2]))
    lines.append(f"<!-- Tria Connectivity: the sides (fans from nodes 0 and {m}), then the walls, two triangles each,")
    lines.append("     from the bottom face up the steps to the back -->")
    lines.append(row(triangles[0:sides:2]))
    lines.append(row(triangles[1:sides:2]))
    for k in range(sides, len(triangles), 10):
        lines.append(row(triangles[k:k + 10]))
    return "\n".join(lines)


def main():
    if "--stairs" in sys.argv:
        print(stairs_text())
        return
    radius = 0.05
    nodes, triangles = icosphere(radius, 2)
    # The first triangle (the middle one of the middle one of the icosahedron's first face) faces down: its plane,
    # 0.9822 R below the ball's centre, is the ball's bottom.
    nodes = face_down(nodes, triangles)
    volume = check_closed(nodes, triangles)
    write_obj(HERE / "sphere_r50mm.obj", f"icosphere of radius {radius} m, 2 subdivisions", nodes, triangles)
    centres = [math.dist((0, 0, 0), tuple(sum(nodes[v][c] for v in t) / 3 for c in range(3))) for t in triangles]
    share = volume / (4 / 3 * math.pi * radius ** 3)
    print(f"sphere_r50mm.obj: {len(nodes)} nodes, {len(triangles)} triangles, volume {share:.4f}"
          f" of the sphere's, triangle centres {min(centres) / radius:.4f}–{max(centres) / radius:.4f} R from the"
          f" centre; lowest node z = {min(p[2] for p in nodes):.7f}")
    nodes, triangles = bracket()
    volume = check_closed(nodes, triangles)
    write_obj(HERE / "bracket_l80.obj",
              f"L bracket: foot {FOOT} m, leg {LEG} m, {THICK} m thick, {WIDTH} m wide; origin at its CG", nodes,
              triangles)
    mass, (cx, cz), (ixx, iyy, izz, ixz) = bracket_mass_properties()
    print(f"bracket_l80.obj: {len(nodes)} nodes, {len(triangles)} triangles, volume {volume:.6e} m³"
          f" (section × width {bracket_section()[1] * WIDTH:.6e})")
    print(f"  mass {mass:.6g} kg, CG at x = {cx:.6g}, z = {cz:.6g} from the outer corner of the L")
    print(f"  inertia about the CG: xx {ixx:.6g}  yy {iyy:.6g}  zz {izz:.6g}  xz (∫xz dm) {ixz:.6g}")
    nodes, triangles, profile = stairs()
    fan_is_inside(profile)
    check_closed(nodes, triangles)
    print(f"stairs: {len(nodes)} nodes, {len(triangles)} triangles (inline in bracket_down_stairs.xml: --stairs)")


if __name__ == "__main__":
    main()
