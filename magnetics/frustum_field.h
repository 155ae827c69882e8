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
// the rims (the mantle's edges) it diverges logarithmically and the result is not finite or not meaningful. With equal
// radii it is cylinderField's (tests/unit/magnetics_frustum_field_test.cpp states what each test measured).
Vector3 frustumField(const Frustum& frustum, const Vector3& point, double relativeAccuracy = 1e-10);

}  // namespace lodestone
