// The cuboid's field as the sum of the fields of its six charged faces, each a rectangle with a closed-form field.
#include "magnetics/cuboid_field.h"

#include <cmath>

namespace lodestone {
namespace {

// ∫ dt / R(t) from lo to hi (lo < hi), R(t) = √(ρ² + t²): ln((hi + R(hi)) / (lo + R(lo))), written so that no
// case loses digits. Taken literally, lo + R(lo) cancels for lo < 0 and is 0 on the line of an edge (ρ = 0), yet
// the integral is finite there unless [lo, hi] contains 0 with ρ = 0 (a point on the edge itself).
double inverseDistanceIntegral(double lo, double hi, double rhoSquared) {
  if (hi <= 0) return inverseDistanceIntegral(-hi, -lo, rhoSquared);  // the integrand is even in t
  const double rLo = std::sqrt(rhoSquared + lo * lo), rHi = std::sqrt(rhoSquared + hi * hi);
  if (lo >= 0) {
    // The ratio minus 1, with R(hi) − R(lo) = (hi² − lo²) / (R(hi) + R(lo)): log1p keeps the digits far from the
    // face, where the ratio tends to 1 and the faces' contributions cancel to the dipole field.
    return std::log1p((hi - lo) * (1 + (hi + lo) / (rHi + rLo)) / (lo + rLo));
  }
  return std::log((hi + rHi) * (rLo - lo) / rhoSquared);  // lo < 0 < hi: lo + R(lo) = ρ² / (R(lo) − lo)
}

// atan(uHi·v / (w·R(uHi))) − atan(uLo·v / (w·R(uLo))), R(u) = √(u² + v² + w²), w ≠ 0, as one arctangent:
// atan x − atan y = atan2(x − y, 1 + xy). Far from the face x and y agree to many digits; their difference is
// taken from uHi·R(uLo) − uLo·R(uHi) = (v² + w²)(uHi² − uLo²) / (uHi·R(uLo) + uLo·R(uHi)) when uLo and uHi have
// the same sign, so the field keeps ~1e-10 relative at 1000 sizes away rather than ~1e-7.
double arctangentAcrossU(double uLo, double uHi, double v, double w) {
  const double others = v * v + w * w;
  const double rLo = std::sqrt(uLo * uLo + others), rHi = std::sqrt(uHi * uHi + others);
  const double crossed = uLo * uHi > 0 ? others * (uHi - uLo) * (uHi + uLo) / (uHi * rLo + uLo * rHi)
                                       : uHi * rLo - uLo * rHi;  // terms of one sign: no cancellation
  const double x = uHi * v / (w * rHi), y = uLo * v / (w * rLo);
  return std::atan2(v / w * crossed / (rHi * rLo), 1 + x * y);
}

// 4π/σ times the field of a rectangle carrying the surface charge σ, in the rectangle's axes (u, v in its plane, w
// along its normal): u = x − x', v = y − y' from the rectangle's points (x', y') run over [uLo, uHi] × [vLo, vHi],
// and w is the height above its plane. The primitives of (u, v, w)/R³ over u and v are −ln(v + R), −ln(u + R)
// and atan(uv / (wR)).
Vector3 chargedRectangleField(double uLo, double uHi, double vLo, double vHi, double w) {
  const double w2 = w * w;
  const double alongU =
      inverseDistanceIntegral(vLo, vHi, uLo * uLo + w2) - inverseDistanceIntegral(vLo, vHi, uHi * uHi + w2);
  const double alongV =
      inverseDistanceIntegral(uLo, uHi, vLo * vLo + w2) - inverseDistanceIntegral(uLo, uHi, vHi * vHi + w2);
  // In the rectangle's plane but outside it, each corner's term is ±π/2 and the four cancel: the normal field is
  // continuous there, and 0 is its value.
  const double alongW = w == 0 ? 0 : arctangentAcrossU(uLo, uHi, vHi, w) - arctangentAcrossU(uLo, uHi, vLo, w);
  return {alongU, alongV, alongW};
}

}  // namespace

Vector3 cuboidField(const Cuboid& cuboid, const Vector3& point) {
  const Vector3& h = cuboid.halfExtents;
  Vector3 field = Vector3::Zero();
  for (int normal = 0; normal < 3; ++normal) {
    if (cuboid.magnetisation[normal] == 0) continue;
    const int i = (normal + 1) % 3, j = (normal + 2) % 3;  // the face's own axes, right-handed with the normal
    for (const double side : {1.0, -1.0}) {
      const double charge = side * cuboid.magnetisation[normal];  // σ = M·n
      const Vector3 face = chargedRectangleField(point[i] - h[i], point[i] + h[i], point[j] - h[j],
                                                 point[j] + h[j], point[normal] - side * h[normal]);
      field[i] += charge * face[0];
      field[j] += charge * face[1];
      field[normal] += charge * face[2];
    }
  }
  return field / (4 * std::numbers::pi);
}

}  // namespace lodestone
