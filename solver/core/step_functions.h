// The Adams/MotionSolve functions STEP, STEP5, IMPACT and BISTOP (REFERENCE.md §2, MOTIONSOLVE_NOTES.md §3), shared
// by contact laws, the subroutine utilities (c_step, c_impact) and the expression language (solver/expr).
// Δ = (x − x0)/(x1 − x0), clamped: h0 at and below x0, h1 at and above x1.
#pragma once

#include <cmath>

namespace lodestone {

// Cubic: h0 + (h1 − h0)·Δ²·(3 − 2Δ). Continuous with a continuous first derivative.
inline double step(double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return h0;
  if (x >= x1) return h1;
  const double d = (x - x0) / (x1 - x0);
  return h0 + (h1 - h0) * d * d * (3 - 2 * d);
}

// Quintic: h0 + (h1 − h0)·Δ³·(10 − 15Δ + 6Δ²). Continuous up to the second derivative.
inline double step5(double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return h0;
  if (x >= x1) return h1;
  const double d = (x - x0) / (x1 - x0);
  return h0 + (h1 - h0) * d * d * d * (10 + d * (-15 + 6 * d));
}

// dSTEP/dx (order 1) or d²STEP/dx² (order 2); 0 outside (x0, x1).
inline double stepDerivative(double x, double x0, double h0, double x1, double h1, int order) {
  if (x <= x0 || x >= x1) return 0;
  const double width = x1 - x0;
  const double d = (x - x0) / width;
  if (order == 1) return (h1 - h0) * 6 * d * (1 - d) / width;
  return (h1 - h0) * 6 * (1 - 2 * d) / (width * width);
}

// IMPACT(x, xdot, x1, k, e, cmax, d) = max(0, k·(x1 − x)^e − STEP(x, x1 − d, cmax, x1, 0)·xdot) for x < x1, else 0:
// a one-sided spring with damping ramped in over the first d of penetration; it never pulls.
struct ImpactValue {
  double force = 0;
  double byPosition = 0;  // ∂force/∂x
  double byVelocity = 0;  // ∂force/∂xdot
};
inline ImpactValue impactFunction(double x, double xdot, double x1, double k, double e, double cmax, double d) {
  if (x >= x1) return {};
  const double penetration = x1 - x;
  const double elastic = k * std::pow(penetration, e);
  const double damping = step(x, x1 - d, cmax, x1, 0);
  const double force = elastic - damping * xdot;
  if (force <= 0) return {};
  return {force, -k * e * std::pow(penetration, e - 1) - stepDerivative(x, x1 - d, cmax, x1, 0, 1) * xdot, -damping};
}

// BISTOP(x, xdot, x1, x2, k, e, cmax, d): a gap x1 <= x <= x2 with a stop at each end. Below x1 it is IMPACT at x1
// (pushes towards positive x); above x2 the mirror image of IMPACT at x2 (pushes towards negative x),
// min(0, −k·(x − x2)^e − STEP(x, x2, 0, x2 + d, cmax)·xdot); 0 in between.
inline double bistopFunction(double x, double xdot, double x1, double x2, double k, double e, double cmax, double d) {
  if (x < x1) return impactFunction(x, xdot, x1, k, e, cmax, d).force;
  if (x > x2) return -impactFunction(-x, -xdot, -x2, k, e, cmax, d).force;
  return 0;
}

}  // namespace lodestone
