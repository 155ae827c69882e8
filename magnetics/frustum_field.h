// The H field of a uniformly magnetised frustum of a cone (or a cone): the field of its magnetic surface charge
// σ = M·n, the end discs' part in closed form (Derby & Olbert's end terms, as in cylinder_field.h) and the conical
// mantle's part as one integral over the azimuth of the charge along each of its straight generators, that charge's
// field in closed form (frustum_field.cpp says why that way round).
#pragma once

#include "magnetics/cuboid_field.h"

namespace lodestone {

// A frustum of a cone in its own axes: axis z, radius bottomRadius at z = bottomZ and topRadius at z = topZ
// (bottomZ < topZ; one of the radii may be 0: a cone), uniformly magnetised with M (A/m, any direction).
struct Frustum {
  double bottomRadius = 0, topRadius = 0;   // m
  double bottomZ = 0, topZ = 0;             // m
  Vector3 magnetisation = Vector3::Zero();  // A/m
};

// H (A/m) at `point` (m, in the frustum's axes), anywhere off its surface: outside B = μ0·H; inside H is the
// demagnetising field (B = μ0·(H + M)). `relativeAccuracy` bounds the error of the numerical part (the mantle's
// azimuthal integral) relative to |M|, and far away relative to |M|·(size/distance)³, the field's own scale, so that
// the far field keeps its relative digits. The field is finite and continuous up to the surfaces from either side; on
// the rims (the mantle's edges) it diverges logarithmically and the result is not finite or not meaningful. Measured
// (tests/unit/magnetics_frustum_field_test.cpp): with equal radii, cylinderField's within 3.8e-16 of |M|; against the
// charged surface integrated by a graded 2-D Gauss–Legendre rule, frusta and cones, inside and out, down to 1e-6 of the
// size from the mantle and 1e-3 from a rim, within 7e-13 of |M|, the reference's own convergence (and, in a run outside
// the tests at 600 random points and shapes, gaps down to 1e-7 of the size, within 8e-11, again the reference's); the
// normal field jumps by M·n across the mantle within 6e-11 of |M|. The error estimate is pessimistic: asked for 1e-4,
// the error was below 6e-11. Time per call at 1e-10 (2 cores shared, -O3): 1.3–1.5 µs on the axis and from one to 100
// sizes away, 2.3 µs inside and beside an end disc, 5–7.5 µs from 1e-2 down to 1e-9 of the size from the mantle or 1e-3
// from a rim; at 1e-6, 0.5–4 µs.
Vector3 frustumField(const Frustum& frustum, const Vector3& point, double relativeAccuracy = 1e-10);

}  // namespace lodestone
