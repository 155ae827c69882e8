#!/usr/bin/env python3
"""Writes models/ball_on_wavy_grid.xml: a ball sliding over a grid surface (Simscape's Grid Surface, Post_Graphic
type GridSurface in Lodestone) that samples z = a·sin(kx).

    /usr/bin/python3 models/grids/make_grid_decks.py
"""
import math
from pathlib import Path

MODELS = Path(__file__).resolve().parent.parent
A, K = 0.01, 4 * math.pi          # 10 mm waves, 0.5 m long
XS = [1.5 * i / 48 for i in range(49)]
YS = [-0.2 + 0.1 * j for j in range(5)]
RADIUS = 0.05
X0 = 0.2

DECK = """<?xml version="1.0" encoding="UTF-8"?>
<!-- A ball sliding over a wavy grid surface (written by models/grids/make_grid_decks.py). The surface, Simscape's
     Grid Surface (Post_Graphic type GridSurface), samples z = a·sin(kx), a = 10 mm, k = 4π/m (waves 0.5 m long), at
     49 × 5 points 31.25 mm apart over 1.5 m × 0.4 m of ground; between them it is the tensor-product cubic spline
     through the samples, whose heights stray from the sine by at most (5/384)·h⁴·a·k⁴ = 3.1 µm. A frictionless
     ball, 50 mm in radius and 1 kg, starts on it at x = 0.2 m sliding along x at 0.5 m/s under gravity (−z).
     IMPACT, 1e7 N/m^1.5, damped. SI units.

     The figure to expect: the ball stays on the surface (its centre's path bends at most 1.5 /m, below g/v²), and
     its centre's distance from the analytic surface z = a·sin(kx), less the radius, is the contact's penetration in
     contacts.csv within that 3.1 µm bound (tests/physics/grid_surface_test.cpp; measured 0.6 µm). -->
<MultiBodySystem>
  <Model>
    <Param_Transient integr_tol="1e-6" h_max="0.005"/>
    <Force_Gravity grav_z="-9.81"/>
    <Body_Rigid id="1" label="Ground" isground="TRUE"/>
    <Reference_Marker id="10" label="Surface frame" body_id="1"/>
    <Post_Graphic id="100" label="Waves" type="GridSurface" ref_marker_id="10" num_x="{nx}" num_y="{ny}">
      <!-- x values -->
{xs}      <!-- y values -->
{ys}      <!-- heights, x varying fastest -->
{zs}    </Post_Graphic>

    <Body_Rigid id="2" label="Ball" cg_id="20" mass="1" inertia_xx="1e-3" inertia_yy="1e-3" inertia_zz="1e-3"
                v_ic_x="0.5"/>
    <Reference_Marker id="20" label="Ball centre" body_id="2" pos_x="{x0}" pos_z="{z0}"/>
    <Post_Graphic id="200" label="Ball" type="Sphere" center_marker_id="20" radius="{radius}"/>

    <Force_Contact id="1" label="Ball on waves" i_graphics_id="200" j_graphics_id="100" cnf_type="IMPACT"
                   stiffness="1e7" exponent="1.5" damping="100" dmax="1e-5" cff_type="COULOMB_OFF"/>
  </Model>
  <Command>
    <Simulate analysis_type="Transient" end_time="2" print_interval="0.01"/>
  </Command>
</MultiBodySystem>
"""


def main():
    def line(values):  # six numbers to a line
        rows = (values[k:k + 6] for k in range(0, len(values), 6))
        return "".join("      " + " ".join(f"{v:.12g}" for v in row) + "\n" for row in rows)
    heights = "".join(line([A * math.sin(K * x) for x in XS]) for _ in YS)
    # Resting on the wave where it starts: the centre R along the surface's normal from (x0, z(x0)), less the law's
    # compression under the weight, so the run starts without a drop.
    slope = A * K * math.cos(K * X0)
    norm = math.hypot(1, slope)
    compression = (9.81 / 1e7) ** (1 / 1.5)
    x0 = X0 - (RADIUS - compression) * slope / norm
    z0 = A * math.sin(K * X0) + (RADIUS - compression) / norm
    text = (DECK.replace("{nx}", str(len(XS))).replace("{ny}", str(len(YS))).replace("{xs}", line(XS))
            .replace("{ys}", line(YS)).replace("{zs}", heights).replace("{x0}", f"{x0:.12g}")
            .replace("{z0}", f"{z0:.12g}").replace("{radius}", str(RADIUS)))
    (MODELS / "ball_on_wavy_grid.xml").write_text(text)


if __name__ == "__main__":
    main()
