// The axially magnetised cylinder's B outside equals that of the ideal solenoid carrying the surface current K = M on
// its mantle; Derby & Olbert write it in cylindrical coordinates (ρ, z) as a difference of two terms, one per end, each
// a generalised complete elliptic integral. H = B/μ0 outside and B/μ0 − M inside.
//
// For any uniform M the field is H = ∇(M·∇ψ), ψ = (1/4π)∫ dV'/|x − x'| the cylinder's Newtonian potential: H is ψ's
// Hessian times M. Axisymmetric, the Hessian has four functions of (ρ, z): ψ_zz and ψ_ρz, which are Derby & Olbert's
// axial and radial terms over M; ψ_ρ/ρ, the one new integral; and ψ_ρρ = −χ − ψ_zz − ψ_ρ/ρ from ∇²ψ = −χ (χ = 1
// inside, 0 outside). The diametral field is then H_ρ = ψ_ρρ·M_ρ, H_φ = (ψ_ρ/ρ)·M_φ, H_z = ψ_ρz·M_ρ, M_ρ and M_φ the
// diametral magnetisation's components along the point's radial and azimuthal directions.
#include "magnetics/cylinder_field.h"

#include <cmath>
#include <numbers>

#include "magnetics/elliptic_integral.h"

namespace lodestone {
namespace {

// ψ_ρ/ρ. The mantle's part of ∇ψ = −(1/4π)∮ n'/|x − x'| dS', integrated along z' and then by parts in the azimuth α
// between the point and the charge, is ψ_ρ/ρ = −(R²/4π)·Σ_± ±h±·∫₀^{2π} sin²α dα / (A·√(A + h±²)), h± = z ± L,
// A = ρ² + R² − 2ρR·cos α. With α = π − 2θ, A = (R + ρ)²·(cos²θ + γ²·sin²θ) and A + h² = F²·(cos²θ + kc²·sin²θ), as
// in Derby & Olbert's terms, and the integral is 16/((R + ρ)²·F) times ∫₀^{π/2} cos²θ sin²θ / (D·√(cos²θ + kc² sin²θ))
// dθ, D = cos²θ + γ² sin²θ. Since cos²θ·sin²θ/D = (sin²θ − γ² sin²θ/D)/δ, δ = 1 − γ², that is
// [cel(kc, 1, 0, 1) − cel(kc, γ², 0, γ²)]/δ. δ = 4ρR/(R + ρ)² vanishes on the axis, where the two cel cancel: their
// difference loses digits as R/ρ, so within 1e-5·R of the axis its value there is taken instead, ψ_ρ/ρ = ψ_ρρ =
// (−χ − ψ_zz)/2, a smooth function of ρ² off by O((ρ/R)²). Measured at the switch: 7e-12 of |M| just inside it, 8e-12
// just outside (tests/unit/magnetics_cylinder_field_test.cpp).
double radialOverRho(double radius, double halfLength, const Vector3& point, double rho, double axialAxial,
                     double chi) {
  if (rho < 1e-5 * radius) return 0.5 * (-chi - axialAxial);
  const double gamma = (radius - rho) / (radius + rho);
  const double delta = 4 * rho * radius / ((radius + rho) * (radius + rho));
  double sum = 0;
  for (const double end : {1.0, -1.0}) {
    const double height = point.z() + end * halfLength;
    const double farDistance = std::hypot(height, radius + rho), nearDistance = std::hypot(height, radius - rho);
    const double kc = nearDistance / farDistance;
    const double integral = (generalisedCompleteEllipticIntegral(kc, 1, 0, 1) -
                             generalisedCompleteEllipticIntegral(kc, gamma * gamma, 0, gamma * gamma)) /
                            delta;
    sum += end * height / farDistance * integral;
  }
  return -4 * radius * radius / (std::numbers::pi * (radius + rho) * (radius + rho)) * sum;
}

}  // namespace

Vector3 cylinderField(const Cylinder& cylinder, const Vector3& point) {
  const double radius = cylinder.radius;
  const double rho = std::hypot(point.x(), point.y());
  // γ = (R − ρ)/(R + ρ) changes sign across the mantle's extension; the elliptic integrals stay continuous there.
  const double gamma = (radius - rho) / (radius + rho);
  double radialSum = 0, axialSum = 0;
  for (const double end : {1.0, -1.0}) {  // z± = z ± L: the term of the end disc at z = ∓L, with sign ±
    const double height = point.z() + end * cylinder.halfLength;
    const double farDistance = std::hypot(height, radius + rho), nearDistance = std::hypot(height, radius - rho);
    const double kc = nearDistance / farDistance;
    radialSum += end * radius / farDistance * generalisedCompleteEllipticIntegral(kc, 1, 1, -1);
    axialSum += end * height / farDistance * generalisedCompleteEllipticIntegral(kc, gamma * gamma, 1, gamma);
  }
  const bool inside = rho < radius && std::fabs(point.z()) < cylinder.halfLength;
  // Derby & Olbert's B0 = μ0·K/π with K = M; H = B/μ0.
  const double scale = cylinder.magnetisation / std::numbers::pi;
  const double radial = scale * radialSum;
  double axial = scale * radius / (radius + rho) * axialSum;
  if (inside) axial -= cylinder.magnetisation;
  // On the axis the radial field vanishes by symmetry (and radialSum is 0 there: cel(1, 1, 1, −1) = 0).
  const Vector3 outward = rho > 0 ? Vector3(point.x() / rho, point.y() / rho, 0) : Vector3::Zero();
  Vector3 field = radial * outward + Vector3(0, 0, axial);
  if (cylinder.diametralMagnetisation.isZero()) return field;

  const double chi = inside ? 1 : 0;                                                       // ∇²ψ = −χ
  const double radialAxial = radialSum / std::numbers::pi;                                 // ψ_ρz
  const double axialAxial = radius / (radius + rho) * axialSum / std::numbers::pi - chi;  // ψ_zz
  const double overRho = radialOverRho(radius, cylinder.halfLength, point, rho, axialAxial, chi);
  const double radialRadial = -chi - axialAxial - overRho;  // ψ_ρρ
  const Eigen::Vector2d& across = cylinder.diametralMagnetisation;
  const Eigen::Vector2d direction = outward.head<2>();  // zero on the axis, where ψ_ρρ = ψ_ρ/ρ
  const double alongRadius = direction.dot(across);
  const Eigen::Vector2d inPlane = radialRadial * alongRadius * direction + overRho * (across - alongRadius * direction);
  return field + Vector3(inPlane.x(), inPlane.y(), radialAxial * alongRadius);
}

}  // namespace lodestone
