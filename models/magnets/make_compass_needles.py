#!/usr/bin/python3
"""Writes compass_needles.xml beside this script: Westhofen et al. 2024, §4.1 ("Magnetic Fields"), built from the
paper's description. Run it again after changing a figure below; the deck it writes is committed."""
import math
import pathlib

# The paper: a strong permanent magnet (25 J/T = 25 A·m²) surrounded by 118 compass needles (0.05 J/T each), all
# initially aligned in one direction, turning to show the magnet's field. The paper samples the magnet by 988 dipoles
# and each needle by 4; here each is one uniformly magnetised box, its exact (surface-charge) field near and its
# dipole far, as Force_Magnet chooses per pair.
MAGNET = (0.1, 0.04, 0.04)  # m, a bar magnetised along its length (x)
MAGNET_MOMENT = 25.0        # A·m²
NEEDLE = (0.02, 0.003, 0.002)  # m, magnetised along its length
NEEDLE_MOMENT = 0.05        # A·m²
STEEL_DENSITY = 7800.0      # kg/m³
RINGS = [(0.10, 20), (0.14, 26), (0.18, 33), (0.22, 39)]  # radius (m), needles: 118 in all
START_ANGLE = math.radians(90)  # every needle starts pointing along +y
# A pivot's viscous friction, about a quarter of critical for an inner needle (stiffness m·B ≈ 1.3e-4 N·m/rad):
# without it the needles would swing for ever; the paper's implicit Euler damps them numerically instead.
PIVOT_DAMPING = 1e-6        # N·m·s/rad
END_TIME = 15             # s: the paper's 1501 steps of 10 ms


def fmt(x):
    return f"{0.0 if abs(x) < 1e-12 else x:.6g}"


def needle_properties():
    lx, ly, lz = NEEDLE
    mass = STEEL_DENSITY * lx * ly * lz
    return mass, mass * (ly**2 + lz**2) / 12, mass * (lx**2 + lz**2) / 12, mass * (lx**2 + ly**2) / 12


def main():
    assert sum(n for _, n in RINGS) == 118
    mass, ixx, iyy, izz = needle_properties()
    magnetisation = MAGNET_MOMENT / (MAGNET[0] * MAGNET[1] * MAGNET[2])
    lines = []
    add = lines.append
    add('<?xml version="1.0" encoding="UTF-8"?>')
    add(f"""<!-- Compass needles around a bar magnet: Westhofen et al. 2024, §4.1 ("Magnetic Fields", Table 1: 1460
     samples, 119 bodies, 3206 s on 32 cores for about 15 s). Written by make_compass_needles.py; change that and
     run it again.

     A {MAGNET[0]} × {MAGNET[1]} × {MAGNET[2]} m bar magnet fixed at the origin, magnetised along x with the paper's
     moment {fmt(MAGNET_MOMENT)} A·m² (M = {fmt(magnetisation)} A/m). Around it, in its mid-plane, 118 steel needles
     ({NEEDLE[0]} × {NEEDLE[1]} × {NEEDLE[2]} m, {fmt(mass * 1e3)} g, moment {NEEDLE_MOMENT} A·m² along their
     length) on rings of radius {", ".join(fmt(r) for r, _ in RINGS)} m, each on a vertical pivot (a REVOLUTE
     joint) with viscous friction {PIVOT_DAMPING} N·m·s/rad. They start pointing along +y, all alike; the magnet's field turns them,
     and each other's: every pair of the 119 magnets interacts (7021 pairs). They settle where the field of the bar
     and of the other needles holds them, the inner ring along the bar's field lines.

     What it shows: many magnets, each pair exact where near and a dipole pair where that is as accurate (the
     Force_Magnet default accuracy 1e-4), all in the residual and the Jacobian, so IDAS's Newton sees them. -->""")
    add("<MultiBodySystem>")
    add("  <Model>")
    add('    <Param_Unit force_unit="NEWTON" mass_unit="KILOGRAM" length_unit="METER" time_unit="SECOND"/>')
    add('    <Param_Transient integr_tol="1e-4" h_max="0.01"/>')
    add('    <Body_Rigid id="1" isground="TRUE"/>')
    add('    <Reference_Marker id="10" body_id="1"/>')
    add(f'    <Post_Graphic id="10" type="BoxDefinedFromCenter" center_marker_id="10" length_x="{MAGNET[0]}"\n'
        f'                  length_y="{MAGNET[1]}" length_z="{MAGNET[2]}"/>')
    add(f'    <Force_Magnet id="10" label="Bar magnet" graphic_id="10" magnetization_x="{fmt(magnetisation)}"/>')
    needle = 0
    c, s = math.cos(START_ANGLE), math.sin(START_ANGLE)
    for radius, count in RINGS:
        for k in range(count):
            needle += 1
            body = 100 + needle
            phi = 2 * math.pi * (k + 0.5 * (radius > 0.1)) / count
            x, y = radius * math.cos(phi), radius * math.sin(phi)
            cg, pivot = 1000 * body, 1000 * body + 1
            add(f'    <Body_Rigid id="{body}" label="Needle {needle}" mass="{fmt(mass)}" cg_id="{cg}"\n'
                f'                inertia_xx="{fmt(ixx)}" inertia_yy="{fmt(iyy)}" inertia_zz="{fmt(izz)}"/>')
            # The needle's axes: x along its length, turned START_ANGLE about z.
            axes = f'a00="{fmt(c)}" a10="{fmt(s)}" a20="0" a02="0" a12="0" a22="1"'
            add(f'    <Reference_Marker id="{cg}" body_id="{body}" pos_x="{fmt(x)}" pos_y="{fmt(y)}"\n'
                f'                      {axes}/>')
            add(f'    <Reference_Marker id="{pivot}" body_id="1" pos_x="{fmt(x)}" pos_y="{fmt(y)}"/>')
            add(f'    <Post_Graphic id="{body}" type="BoxDefinedFromCenter" center_marker_id="{cg}"\n'
                f'                  length_x="{NEEDLE[0]}" length_y="{NEEDLE[1]}" length_z="{NEEDLE[2]}"/>')
            add(f'    <Force_Magnet id="{body}" graphic_id="{body}" moment_x="{NEEDLE_MOMENT}"/>')
            add(f'    <Constraint_Joint id="{body}" type="REVOLUTE" i_marker_id="{cg}" j_marker_id="{pivot}"/>')
            add(f'    <Force_Bushing id="{body}" i_marker_id="{cg}" j_marker_id="{pivot}" ctz="{PIVOT_DAMPING}"/>')
    add("  </Model>")
    add("  <Command>")
    add(f'    <Simulate analysis_type="Transient" end_time="{END_TIME}" print_interval="0.05"/>')
    add("  </Command>")
    add("</MultiBodySystem>")
    path = pathlib.Path(__file__).with_name("compass_needles.xml")
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
