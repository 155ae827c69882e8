// Adaptive Gauss–Kronrod quadrature (solver/core/quadrature.h) against integrals known in closed form.
#include "solver/core/quadrature.h"

#include <cmath>

#include <gtest/gtest.h>

#include "solver/core/rotation.h"
#include "solver/core/step_functions.h"

namespace lodestone {
namespace {

// A polynomial of degree 13 is exact on one panel of 15 points (to round-off).
TEST(Quadrature, IntegratesPolynomialsUpToDegree13Exactly) {
  int evaluations = 0;
  const double value = integrate(
      [&](double x) {
        ++evaluations;
        return 14 * std::pow(x, 13) + 3 * x * x;
      },
      0.0, 2.0);
  EXPECT_NEAR(value, std::pow(2.0, 14) + 8, 1e-10);
  EXPECT_EQ(evaluations, 15);
}

// Functions whose derivatives misbehave: √x at 0 (an unbounded derivative), and a cubic STEP whose second derivative
// jumps inside the interval. Panels are halved where the error estimate is large, down to 1e-12 of the integral.
TEST(Quadrature, RefinesWhereTheFunctionIsNotSmooth) {
  EXPECT_NEAR(integrate([](double x) { return std::sqrt(x); }, 0.0, 1.0), 2.0 / 3.0, 1e-11);
  // STEP(x, 0, 0, 0.3, 1) on [0, 1]: ∫₀^0.3 (3Δ² − 2Δ³)·dx with Δ = x/0.3 is 0.3·(1 − 1/2) = 0.15, then 0.7.
  const double ramp = integrate([](double x) { return step(x, 0, 0, 0.3, 1); }, 0.0, 1.0);
  EXPECT_NEAR(ramp, 0.85, 1e-11);
}

// A function that is zero everywhere ends at once, and a non-finite one returns what it got.
TEST(Quadrature, StopsOnZeroAndOnNonFiniteValues) {
  EXPECT_EQ(integrate([](double) { return 0.0; }, 0.0, 1.0), 0.0);
  EXPECT_TRUE(std::isnan(integrate([](double) { return NAN; }, 0.0, 1.0)));
}

// The same rule for a vector-valued function (the frustum magnet's mantle), to an absolute tolerance on the norm of
// the error estimates, and starting from several panels: each component as its own integral would give it.
TEST(Quadrature, IntegratesVectorsComponentByComponent) {
  const auto f = [](double x) { return Vector3(std::cos(x), std::sqrt(x), 14 * std::pow(x, 13)); };
  const Vector3 value = integrateAdaptive(f, 0.0, 2.0, {.absoluteTolerance = 1e-12, .pieces = 3, .maxPanels = 200});
  EXPECT_NEAR(value.x(), std::sin(2.0), 1e-12);
  EXPECT_NEAR(value.y(), 2.0 / 3.0 * std::pow(2.0, 1.5), 1e-11);
  EXPECT_NEAR(value.z(), std::pow(2.0, 14), 1e-9);
  // A number-valued f through the general form is integrate() itself, bit for bit.
  const auto g = [](double x) { return std::sqrt(x) * std::exp(-x); };
  EXPECT_EQ(integrateAdaptive(g, 0.0, 3.0, {.relativeTolerance = 1e-12}), integrate(g, 0.0, 3.0));
}

}  // namespace
}  // namespace lodestone
