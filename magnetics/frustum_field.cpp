// H = (1/4π)∮ σ (x − x')/|x − x'|³ dS', σ = M·n, over the two end discs and the conical mantle.
//
// The end discs carry σ = ∓M_z, and a uniformly charged disc's field is one of Derby & Olbert's two end terms of the
// cylinder (cylinder_field.cpp) less the ±σ/2 its semi-infinite solenoid adds inside its radius: closed form.
//
// The mantle is ruled by straight generators, and the field of a straight segment whose line charge varies linearly
// along it (here r(s)·σ(φ'), the area element being r ds dφ') is elementary; so the mantle's field is one integral
// over the azimuth φ' of closed-form segment fields, rather than one along the slant of rings' fields in complete
// elliptic integrals. Why this way round: (a) the integrand costs one sincos, two square roots and a logarithm, not
// two arithmetic–geometric means; (b) it has no axis limit to take (the rings' cos φ' moments cancel as ρ → 0, the
// generators' fields do not); (c) the cone's apex is only a generator's end; (d) the one place the integrand is sharp
// is known in advance: with the point at azimuth 0 it is φ' = 0, where the generator passes nearest, and there it is a
// Lorentzian in φ' of width δ = d/√(ρa) (d the distance to the nearest point of the generator, at radius a). The
// substitution φ' = δ·sinh τ turns that peak into a bump of width 1 in τ and the rest of the range into a smooth tail
// of length ln(2π/δ), so the adaptive Gauss–Kronrod rule needs a few panels at any distance from the mantle. Put the
// point at azimuth 0 and split the charge into its even part in φ' (the axial and radial M) and odd part (the
// azimuthal M): each gives its components from [0, π] alone.
//
// Near the mantle the segment's distance to the point is small while its coordinates are not; the generator's
// perpendicular offset is therefore computed in its own meridian plane from the point's signed distance to the
// generator at φ' = 0, d0, taken once, so that every φ' sees the same point (see mantleIntegrand).
#include "magnetics/frustum_field.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "magnetics/elliptic_integral.h"
#include "solver/core/quadrature.h"

namespace lodestone {
namespace {

// (H_ρ, H_z) of a disc of radius R at height z0 carrying the charge σ, at (ρ, z), h = z − z0. A solenoid (an axially
// magnetised cylinder, M = −σ) from z0 to +∞ has the disc as its only charge, so its H is the disc's field, and B/μ0 =
// H + M inside it. Its B/μ0 is Derby & Olbert's end term T for the end at z0 plus the far end's share, which tends to
// M/2 inside the radius (β·P₂ → π(R + ρ)/(2R) there) and to 0 outside. Hence H_disc = T + (σ/2)·sign(h) inside the
// radius, T alone outside: on the axis, (σ/2)·sign(h)·(1 − |h|/√(h² + R²)). At ρ = R exactly (off the disc's plane)
// cel takes p = γ² = 0, the mean of its two sides' limits, and so does the step, with weight ½.
std::array<double, 2> discField(double radius, double z0, double charge, double rho, double z) {
  const double height = z - z0;
  const double gamma = (radius - rho) / (radius + rho);
  const double farDistance = std::hypot(height, radius + rho), nearDistance = std::hypot(height, radius - rho);
  const double kc = nearDistance / farDistance;
  const double scale = -charge / std::numbers::pi;
  const double radial = scale * radius / farDistance * generalisedCompleteEllipticIntegral(kc, 1, 1, -1);
  double axial = scale * radius / (radius + rho) * height / farDistance *
                 generalisedCompleteEllipticIntegral(kc, gamma * gamma, 1, gamma);
  const double inside = rho < radius ? 1 : rho == radius ? 0.5 : 0;
  if (height != 0) axial += 0.5 * charge * inside * (height > 0 ? 1 : -1);
  return {radial, axial};
}

// The mantle seen from a point at azimuth 0, (ρ, 0, z): the generator at azimuth φ' runs from (R₁, z₁) to (R₂, z₂) in
// its meridian plane, along u = (−sin α, cos α) (radial, axial) over the slant ℓ, its outward normal n = (cos α,
// sin α); the point's offset from the bottom rim at φ' has the components t along u, d_m along n and −ρ·sin φ' across
// the plane, with ρ·cos φ' − R₁ = (ρ − R₁) − 2ρ·sin²(φ'/2) so that no difference of nearly equal numbers is taken
// beyond the one in d0.
struct Mantle {
  double bottomRadius, slant;
  double cosAlpha, sinAlpha;  // of the normal's tilt: tan α = (R₁ − R₂)/(z₂ − z₁)
  double rho;
  double distance0, along0;           // d_m and t at φ' = 0
  double evenRadial, evenAxial, odd;  // σ(φ') = evenRadial·cos φ' + evenAxial + odd·sin φ'
};

// The integrand of (H_ρ, H_φ, H_z)·2π at φ', given sin(φ'/2) and cos(φ'/2): σ times the field G of the generator's
// charge r(s) = R₁ + s·(R₂ − R₁)/ℓ per unit length (times dφ'). With σ = s − t the coordinate along the generator from
// the point's foot, p the perpendicular distance, R = √(σ² + p²), λ_t = r(t), c₁ = dr/ds and q the perpendicular
// offset (d_m·n − ρ sin φ'·e_φ'): G = q·A + u·B, A = ∫(λ_t + c₁σ)/R³ = λ_t·[σ/(p²R)] − c₁·[1/R], B = −∫(λ_t +
// c₁σ)σ/R³ = λ_t·[1/R] + c₁·[σ/R − asinh(σ/p)], each bracket the difference between the generator's ends. The
// differences are rewritten where their terms nearly cancel (the ends on one side of the foot; the point far away).
Vector3 mantleIntegrand(const Mantle& m, double halfSine, double halfCosine) {
  const double sine = 2 * halfSine * halfCosine, cosine = 1 - 2 * halfSine * halfSine;
  const double shift = 2 * m.rho * halfSine * halfSine;  // ρ − ρ·cos φ'
  const double normal = m.distance0 - shift * m.cosAlpha;
  const double along = m.along0 + shift * m.sinAlpha;
  const double across = m.rho * sine;
  const double perpendicular2 = normal * normal + across * across;
  const double from = -along, to = m.slant - along;  // σ at the two ends
  const double rFrom = std::sqrt(from * from + perpendicular2), rTo = std::sqrt(to * to + perpendicular2);
  const double slope = -m.sinAlpha;  // c₁ = (R₂ − R₁)/ℓ
  const double chargeAtFoot = m.bottomRadius + slope * along;
  // [σ/R] and [σ/(p²R)]: on one side of the foot σ₁R₀ − σ₀R₁ = p²(σ₁² − σ₀²)/(σ₁R₀ + σ₀R₁) has no cancellation;
  // across it the two terms add.
  double ratioDifference, overP2;
  if (from >= 0 || to <= 0) {
    overP2 = m.slant * (to + from) / (rFrom * rTo * (to * rFrom + from * rTo));
    ratioDifference = perpendicular2 * overP2;
  } else {
    ratioDifference = to / rTo - from / rFrom;
    overP2 = ratioDifference / perpendicular2;
  }
  const double inverseDifference = -m.slant * (to + from) / (rFrom * rTo * (rFrom + rTo));  // [1/R]
  // [asinh(σ/p)] = ln((σ₁ + R₁)/(σ₀ + R₀)), with σ + R = p²/(R − σ) for σ < 0.
  double logarithm;
  if (from >= 0) {
    logarithm = std::log((to + rTo) / (from + rFrom));
  } else if (to <= 0) {
    logarithm = std::log((rFrom - from) / (rTo - to));
  } else {
    logarithm = std::log((to + rTo) * (rFrom - from) / perpendicular2);
  }
  const double a = chargeAtFoot * overP2 - slope * inverseDifference;
  const double b = chargeAtFoot * inverseDifference + slope * (ratioDifference - logarithm);
  const double inPlane = a * normal * m.cosAlpha - b * m.sinAlpha;  // G's radial part in the generator's plane
  const double even = m.evenRadial * cosine + m.evenAxial, odd = m.odd * sine;
  return Vector3(even * (inPlane * cosine + a * across * sine), odd * (inPlane * sine - a * across * cosine),
                 even * (a * normal * m.sinAlpha + b * m.cosAlpha));
}

// The mantle's integral: solver/core/quadrature.h's adaptive Gauss–Kronrod with an absolute tolerance on the norm of
// the summed error estimates: the mantle's part is one term of the field, which may be much smaller than it, so its
// error is bounded against the field's scale, not its own size. `pieces` panels to start with.
template <class F>
Vector3 integrateVector(const F& f, double from, double to, int pieces, double tolerance) {
  return integrateAdaptive(f, from, to, {.absoluteTolerance = tolerance, .pieces = pieces, .maxPanels = 200});
}

}  // namespace

Vector3 frustumField(const Frustum& frustum, const Vector3& point, double relativeAccuracy) {
  const Vector3& magnetisation = frustum.magnetisation;
  const double strength = magnetisation.norm();
  if (strength == 0) return Vector3::Zero();
  const double r1 = frustum.bottomRadius, r2 = frustum.topRadius, z1 = frustum.bottomZ, z2 = frustum.topZ;
  const double rho = std::hypot(point.x(), point.y()), z = point.z();
  // The point's radial and azimuthal directions; on the axis any pair (the field is then the same for all).
  const Vector3 radialDirection = rho > 0 ? Vector3(point.x() / rho, point.y() / rho, 0) : Vector3::UnitX();
  const Vector3 azimuthalDirection(-radialDirection.y(), radialDirection.x(), 0);

  Vector3 field = Vector3::Zero();
  const double axialM = magnetisation.z();
  if (axialM != 0) {
    for (const auto& [radius, height, charge] : {std::array{r1, z1, -axialM}, std::array{r2, z2, axialM}}) {
      if (radius <= 0) continue;  // a cone's apex
      const auto [radial, axial] = discField(radius, height, charge, rho, z);
      field += radial * radialDirection + Vector3(0, 0, axial);
    }
  }

  const double slant = std::hypot(r2 - r1, z2 - z1);
  const double cosAlpha = (z2 - z1) / slant, sinAlpha = (r1 - r2) / slant;
  const double radialM = magnetisation.dot(radialDirection), azimuthalM = magnetisation.dot(azimuthalDirection);
  const Mantle mantle{r1,
                      slant,
                      cosAlpha,
                      sinAlpha,
                      rho,
                      (rho - r1) * cosAlpha + (z - z1) * sinAlpha,
                      -(rho - r1) * sinAlpha + (z - z1) * cosAlpha,
                      cosAlpha * radialM,
                      sinAlpha * axialM,
                      cosAlpha * azimuthalM};
  // The generator's point nearest to the point at φ' = 0 (its foot, or the rim beyond which the foot falls): its
  // distance d and radius a set the width δ = d/√(ρa) of the integrand's peak, D(φ') ≈ d² + ρa·φ'².
  double nearest, nearestRadius;
  if (mantle.along0 < 0) {
    nearest = std::hypot(rho - r1, z - z1);
    nearestRadius = r1;
  } else if (mantle.along0 > slant) {
    nearest = std::hypot(rho - r2, z - z2);
    nearestRadius = r2;
  } else {
    nearest = std::fabs(mantle.distance0);
    nearestRadius = r1 + (r2 - r1) * mantle.along0 / slant;
  }
  // The field's scale: |M| near the frustum, its dipole's |M|·(size/distance)³ far away.
  const double size = std::max({r1, r2, z2 - z1});
  const double distance = (point - Vector3(0, 0, 0.5 * (z1 + z2))).norm();
  const double scale = distance > size ? std::pow(size / distance, 3) : 1.0;
  const double tolerance = 2 * std::numbers::pi * relativeAccuracy * strength * scale;
  const double width = rho * nearestRadius > 0 ? nearest / std::sqrt(rho * nearestRadius) : 1.0;
  Vector3 local;
  if (width < 0.5) {
    // φ' = δ·sinh τ: dφ' = δ·cosh τ dτ; the tail beyond τ ≈ 3 is of length ln(2π/δ), a panel per ~3 units of it.
    const double end = std::asinh(std::numbers::pi / width);
    local = integrateVector(
        [&](double tau) -> Vector3 {
          const double e = std::exp(tau), sinhTau = 0.5 * (e - 1 / e), coshTau = 0.5 * (e + 1 / e);
          const double half = 0.5 * std::min(width * sinhTau, std::numbers::pi);
          return (width * coshTau) * mantleIntegrand(mantle, std::sin(half), std::cos(half));
        },
        0, end, std::max(1, static_cast<int>(end / 3)), tolerance);
  } else {
    local =
        integrateVector([&](double phi) { return mantleIntegrand(mantle, std::sin(0.5 * phi), std::cos(0.5 * phi)); },
                        0, std::numbers::pi, 1, tolerance);
  }
  local /= 2 * std::numbers::pi;
  return field + local.x() * radialDirection + local.y() * azimuthalDirection + Vector3(0, 0, local.z());
}

}  // namespace lodestone
