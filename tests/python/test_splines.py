"""AKISPL, CUBSPL and INTERP as `lodestone run` evaluates them (Post_Request expressions, requests.csv) against
scipy's Akima1DInterpolator and CubicSpline(bc_type="natural") of the same points, and against an implementation of
Akima's 1970 method written here from the paper: values, first and second derivatives at every output of a run
that starts before the first knot and ends after the last, both extrapolations, and a family of curves (linear in
z). Every number within 1e-12 of the largest magnitude that quantity takes over the run."""
import math
import os
import tempfile
import unittest

import numpy as np
from scipy.interpolate import Akima1DInterpolator, CubicSpline

from results_run import column, number, read_csv, run_deck

X = [0.2, 0.35, 0.6, 0.8, 1.1, 1.25, 1.6, 1.9, 2.0]
Y = [0.0, 0.8, 0.3, -0.4, 0.9, 1.7, 1.2, 2.5, 2.2]
Z = [0.0, 5.0, 10.0]
FAMILY = [Y, [0.5 * y + 1 for y in Y], [y * y for y in Y]]
TOLERANCE = 1e-12


def akima_1970(x, y):
    """The slopes of Akima's method at the knots (H. Akima, J. ACM 17(4), 1970): each a weighted mean of the two
    segment slopes beside it, weighted by how much the slopes change beyond them; two slopes added at each end
    continue the end slopes linearly (the points Akima adds lie on the parabola through the last three)."""
    m = [(y[k + 1] - y[k]) / (x[k + 1] - x[k]) for k in range(len(x) - 1)]
    m = [0.0, 0.0] + m + [0.0, 0.0]
    m[1] = 2 * m[2] - m[3]
    m[0] = 2 * m[1] - m[2]
    m[-2] = 2 * m[-3] - m[-4]
    m[-1] = 2 * m[-2] - m[-3]
    slopes = []
    for i in range(len(x)):
        w_after, w_before = abs(m[i + 3] - m[i + 2]), abs(m[i + 1] - m[i])
        if w_after + w_before == 0:
            slopes.append((m[i + 1] + m[i + 2]) / 2)
        else:
            slopes.append((w_after * m[i + 1] + w_before * m[i + 2]) / (w_after + w_before))
    return slopes


def hermite(x, y, slopes, at, order):
    """The cubic Hermite interpolant through (x, y) with these slopes; beyond the ends its end cubics go on."""
    i = min(max(int(np.searchsorted(x, at, side="right")) - 1, 0), len(x) - 2)
    h = x[i + 1] - x[i]
    t = (at - x[i]) / h
    y0, y1, d0, d1 = y[i], y[i + 1], slopes[i] * h, slopes[i + 1] * h
    if order == 0:
        return ((2 * t**3 - 3 * t**2 + 1) * y0 + (t**3 - 2 * t**2 + t) * d0 + (-2 * t**3 + 3 * t**2) * y1
                + (t**3 - t**2) * d1)
    if order == 1:
        return ((6 * t**2 - 6 * t) * y0 + (3 * t**2 - 4 * t + 1) * d0 + (-6 * t**2 + 6 * t) * y1
                + (3 * t**2 - 2 * t) * d1) / h
    return ((12 * t - 6) * y0 + (6 * t - 4) * d0 + (-12 * t + 6) * y1 + (6 * t - 2) * d1) / h**2


def linear(x, y, at, order):
    i = min(max(int(np.searchsorted(x, at, side="right")) - 1, 0), len(x) - 2)
    slope = (y[i + 1] - y[i]) / (x[i + 1] - x[i])
    return [y[i] + slope * (at - x[i]), slope, 0.0][order]


def tangent_extrapolated(function, at, order):
    """function(at, order) inside [x0, xn]; beyond, the tangent line at the end knot (linear_extrap="TRUE")."""
    if X[0] <= at <= X[-1]:
        return function(at, order)
    end = X[0] if at < X[0] else X[-1]
    slope = function(end, 1)
    return [function(end, 0) + slope * (at - end), slope, 0.0][order]


def spline_text(rows):
    return "\n".join("  ".join(repr(v) for v in row) for row in rows)


DECK = """<?xml version="1.0"?>
<MultiBodySystem><Model>
<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="20" body_id="2"/>
<Body_Rigid id="2" cg_id="20" mass="2" inertia_xx="1" inertia_yy="1" inertia_zz="1"/>
<Reference_Spline id="1" num_xy_pair="{n}">{curve}</Reference_Spline>
<Reference_Spline id="2" num_xy_pair="{n}" linear_extrap="TRUE">{curve}</Reference_Spline>
<Reference_Spline id="3" num_x="{n}" num_z="3">{family}</Reference_Spline>
<Post_Request id="1" type="EXPRESSION" expr1="AKISPL(TIME,0,1)" expr2="AKISPL(TIME,0,1,1)" expr3="AKISPL(TIME,0,1,2)"
  expr4="CUBSPL(TIME,0,1)" expr5="CUBSPL(TIME,0,1,1)" expr6="CUBSPL(TIME,0,1,2)" expr7="INTERP(TIME,1,1)"
  expr8="INTERP(TIME,3,1,1)"/>
<Post_Request id="2" type="EXPRESSION" expr1="AKISPL(TIME,0,2)" expr2="AKISPL(TIME,0,2,1)" expr3="CUBSPL(TIME,0,2)"
  expr4="CUBSPL(TIME,0,2,2)" expr5="INTERP(TIME,1,2)" expr6="AKISPL(TIME,2.5,3)" expr7="CUBSPL(TIME,7.5,3)"
  expr8="AKISPL(TIME,12,3)"/>
</Model><Command>
<Simulate analysis_type="Transient" end_time="2.4" print_interval="0.01"/>
</Command></MultiBodySystem>
"""


class SplinesAgainstScipy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory(prefix="lodestone_splines_")
        deck = os.path.join(cls.folder.name, "splines.xml")
        with open(deck, "w") as file:
            file.write(DECK.format(n=len(X), curve=spline_text(zip(X, Y)),
                                   family=spline_text([Z] + [[x] + [curve[k] for curve in FAMILY]
                                                             for k, x in enumerate(X)])))
        cls.results, output = run_deck(deck)
        header, rows = read_csv(os.path.join(output, "requests.csv"))
        cls.requests = {}
        for request in (1, 2):
            mine = [row for row in rows if int(row[header.index("id")]) == request]
            cls.requests[request] = {name: [number(v) for v in column(mine, header, name)]
                                     for name in ["time"] + ["f%d" % k for k in range(1, 9)]}

    @classmethod
    def tearDownClass(cls):
        cls.results.cleanup()

    def assert_matches(self, request, channel, reference):
        times = self.requests[request]["time"]
        values = self.requests[request][channel]
        expected = [reference(t) for t in times]
        scale = max(abs(v) for v in expected)
        worst = max(abs(v - e) for v, e in zip(values, expected))
        self.assertLessEqual(worst, TOLERANCE * scale, f"request {request} {channel}: {worst} of {scale}")
        return worst / scale

    def test_run_covers_both_extrapolations(self):
        times = self.requests[1]["time"]
        self.assertEqual(len(times), 241)
        self.assertLess(times[0], X[0])
        self.assertGreater(times[-1], X[-1])

    def test_scipy_akima_is_akima_1970_on_these_points(self):
        scipy_akima = Akima1DInterpolator(X, Y)
        ours = akima_1970(X, Y)
        for k, x in enumerate(X):
            self.assertAlmostEqual(scipy_akima(x, nu=1), ours[k], delta=1e-14)

    def test_akima_against_scipy_and_the_paper(self):
        akima = Akima1DInterpolator(X, Y)
        slopes = akima_1970(X, Y)
        for order, channel in enumerate(["f1", "f2", "f3"]):
            self.assert_matches(1, channel, lambda t, nu=order: float(akima(t, nu=nu, extrapolate=True)))
            self.assert_matches(1, channel, lambda t, nu=order: hermite(X, Y, slopes, t, nu))

    def test_cubic_against_scipy_natural_spline(self):
        cubic = CubicSpline(X, Y, bc_type="natural")
        for order, channel in enumerate(["f4", "f5", "f6"]):
            self.assert_matches(1, channel, lambda t, nu=order: float(cubic(t, nu=nu)))
        self.assert_matches(1, "f8", lambda t: float(cubic(t, nu=1)))  # INTERP method 3 is the same spline

    def test_interp_linear(self):
        self.assert_matches(1, "f7", lambda t: linear(X, Y, t, 0))
        self.assert_matches(2, "f5", lambda t: linear(X, Y, t, 0))  # a line extrapolates as itself

    def test_linear_extrapolation_is_the_tangent_at_the_end_knot(self):
        akima = Akima1DInterpolator(X, Y)
        cubic = CubicSpline(X, Y, bc_type="natural")
        at_akima = lambda t, nu: float(akima(t, nu=nu))
        at_cubic = lambda t, nu: float(cubic(t, nu=nu))
        self.assert_matches(2, "f1", lambda t: tangent_extrapolated(at_akima, t, 0))
        self.assert_matches(2, "f2", lambda t: tangent_extrapolated(at_akima, t, 1))
        self.assert_matches(2, "f3", lambda t: tangent_extrapolated(at_cubic, t, 0))
        self.assert_matches(2, "f4", lambda t: tangent_extrapolated(at_cubic, t, 2))

    def test_family_is_linear_in_z_between_and_beyond_its_curves(self):
        akimas = [Akima1DInterpolator(X, curve) for curve in FAMILY]
        cubics = [CubicSpline(X, curve, bc_type="natural") for curve in FAMILY]
        blend = lambda a, b, w: a + w * (b - a)
        self.assert_matches(2, "f6", lambda t: blend(float(akimas[0](t, extrapolate=True)),
                                                      float(akimas[1](t, extrapolate=True)), 0.5))
        self.assert_matches(2, "f7", lambda t: blend(float(cubics[1](t)), float(cubics[2](t)), 0.5))
        self.assert_matches(2, "f8", lambda t: blend(float(akimas[1](t, extrapolate=True)),
                                                      float(akimas[2](t, extrapolate=True)), 1.4))


if __name__ == "__main__":
    unittest.main()
