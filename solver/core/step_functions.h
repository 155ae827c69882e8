// The Adams/MotionSolve smoothing functions STEP and STEP5 (REFERENCE.md §2), shared by contact laws and, later,
// the expression language. Δ = (x − x0)/(x1 − x0), clamped: h0 at and below x0, h1 at and above x1.
#pragma once

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

}  // namespace lodestone
