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
  double alongW = 0;
  // In the rectangle's plane but outside it, each corner's term is ±π/2 and the four cancel: the normal field is
  // continuous there, and 0 is its value.
  if (w != 0) {
    const double us[2] = {uLo, uHi}, vs[2] = {vLo, vHi};
    for (int a = 0; a < 2; ++a) {
      for (int b = 0; b < 2; ++b) {
        const double sign = a == b ? 1.0 : -1.0;
        const double r = std::sqrt(us[a] * us[a] + vs[b] * vs[b] + w2);
        alongW += sign * std::atan(us[a] * vs[b] / (w * r));
      }
    }
  }
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
