// Control_Diff integrated by the solver against closed forms: a driven first-order lag, the integral of a marker's
// displacement and of its acceleration (with a Control_SISO filtering it), and an implicit equation whose DIF1 a
// Reference_Variable reads (the full-vehicle deck's differentiator).
#include <array>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "support/sampled_runs.h"

namespace lodestone::testing {
namespace {

constexpr double kDiffIntegrTol = 1e-8;

// `model` (deck statements) from 0 to 2 s at `integrTol`: the state and requests at every output.
std::vector<Sample> runDiff(const std::string& model, double integrTol = kDiffIntegrTol) {
  return runSampled(model, integrTol);
}

// ẏ = −y/τ + sin(ωt), y(0) = 1: y = C e^(−t/τ) + (a sin ωt − ω cos ωt)/(a² + ω²), a = 1/τ, C = 1 + ω/(a² + ω²).
double largestLagError(double integrTol) {
  const std::vector<Sample> samples = runDiff(groundAndBody() +
                                          "\n<Control_Diff id=\"7\" type=\"EXPRESSION\" ic=\"1\" "
                                          "expr=\"-DIF(7)/0.5 + SIN(3*TIME)\"/>",
                                          integrTol);
  EXPECT_EQ(samples.size(), 41u);
  const double a = 2, w = 3, c = 1 + w / (a * a + w * w);
  double largest = 0;
  for (const Sample& sample : samples) {
    const double t = sample.time;
    const double exact = c * std::exp(-a * t) + (a * std::sin(w * t) - w * std::cos(w * t)) / (a * a + w * w);
    largest = std::max(largest, std::fabs(sample.state.back() - exact));
  }
  return largest;
}

TEST(ControlDiff, DrivenFirstOrderLagFollowsItsClosedForm) {
  // IDAS bounds each step's local error by integr_tol (relative and absolute, on a value of order 1); over the 2 s
  // the global error is the local errors carried along, about 40-60 integr_tol (measured 3.8e-7 at 1e-8, 6.0e-9 at
  // 1e-10). It must shrink with integr_tol, as an integration error does (a wrong equation's would stay).
  const double coarse = largestLagError(kDiffIntegrTol);
  const double fine = largestLagError(kDiffIntegrTol / 100);
  EXPECT_LT(coarse, 100 * kDiffIntegrTol) << coarse;
  EXPECT_LT(fine, 100 * kDiffIntegrTol / 100) << fine;
  EXPECT_LT(fine, coarse / 10) << coarse << " " << fine;
}

// A body moving at 0.3 m/s in x from x = 0.2: ẏ = DX(20) integrates to 0.2 t + 0.15 t².
TEST(ControlDiff, IntegratesAMarkersDisplacement) {
  const std::vector<Sample> samples = runDiff(
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"0.2\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"2\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\" "
      "v_ic_x=\"0.3\"/>\n"
      "<Control_Diff id=\"8\" ic=\"0\" expr=\"DX(20)\"/>");
  ASSERT_EQ(samples.size(), 41u);
  double largest = 0;
  for (const Sample& sample : samples) {
    const double t = sample.time;
    largest = std::max(largest, std::fabs(sample.state.back() - (0.2 * t + 0.15 * t * t)));
  }
  EXPECT_LT(largest, 10 * kDiffIntegrTol) << largest;
}

// A body on a spring in x (ω = 3 rad/s, from x = 0.2 m at 0.5 m/s): a Control_Diff ẏ = ACCX(20) from y = 0.5 is the
// body's velocity, −0.2ω sin ωt + 0.5 cos ωt, and a Control_SISO 1/(s + 1) fed ACCX(20) (no feed-through) is
// z = −P e^−t + P cos ωt + Q sin ωt, P = (A − Bω)/(1 + ω²), Q = (B + Aω)/(1 + ω²) for the acceleration A cos ωt +
// B sin ωt (A = −0.2ω², B = −0.5ω). Both rows read the rates being evaluated, with their columns in Newton's matrix.
TEST(ControlDiff, IntegratesAMarkersAccelerationAsAControlSystemFilters) {
  const double w = 3, a = -0.2 * w * w, b = -0.5 * w;
  const std::vector<Sample> samples = runDiff(
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"0.2\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"2\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\" "
      "v_ic_x=\"0.5\"/>\n"
      "<Force_Vector_OneBody id=\"4\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"-18*DX(20)\" "
      "fy_expression=\"0\" fz_expression=\"0\"/>\n"
      "<Control_Diff id=\"8\" ic=\"0.5\" expr=\"ACCX(20)\"/>\n"
      "<Reference_Variable id=\"5\" expr=\"ACCX(20)\"/>\n"
      "<Reference_Array id=\"21\" type=\"U\" num_element=\"1\"> 5 </Reference_Array>\n"
      "<Reference_Array id=\"22\" type=\"X\" num_element=\"1\"/>\n"
      "<Reference_Array id=\"23\" type=\"Y\" num_element=\"1\"/>\n"
      "<Control_SISO id=\"2\" x_array_id=\"22\" y_array_id=\"23\" u_array_id=\"21\" numerator_coef=\"1\" "
      "denominator_coef=\"1 1\"/>");
  ASSERT_EQ(samples.size(), 41u);
  const double p = (a - b * w) / (1 + w * w), q = (b + a * w) / (1 + w * w);
  double velocityError = 0, filterError = 0;
  for (const Sample& sample : samples) {
    const double t = sample.time;
    const size_t n = sample.state.size();
    velocityError = std::max(velocityError, std::fabs(sample.state[n - 2] - (-0.2 * w * std::sin(w * t) +
                                                                                0.5 * std::cos(w * t))));
    const double filtered = -p * std::exp(-t) + p * std::cos(w * t) + q * std::sin(w * t);
    filterError = std::max(filterError, std::fabs(sample.state[n - 1] - filtered));
  }
  EXPECT_LT(velocityError, 100 * kDiffIntegrTol) << velocityError;
  EXPECT_LT(filterError, 100 * kDiffIntegrTol) << filterError;
}

// The full-vehicle deck's pattern: an implicit equation 0 = u − DIF(11) makes state 11 the signal u = sin 2t, a
// Reference_Variable reads its DIF1 (2 cos 2t), and an explicit equation integrates that variable back: sin 2t.
TEST(ControlDiff, ImplicitStateAndItsRateReadThroughAVariable) {
  const std::vector<Sample> samples = runDiff(groundAndBody() +
                                          "\n<Reference_Variable id=\"1\" expr=\"SIN(2*TIME)\"/>\n"
                                          "<Reference_Variable id=\"2\" expr=\"DIF1(11)\"/>\n"
                                          "<Control_Diff id=\"11\" is_implicit=\"TRUE\" ic=\"0\" ic_dot=\"2\" "
                                          "expr=\"VARVAL(1) - DIF(11)\"/>\n"
                                          "<Control_Diff id=\"12\" ic=\"0\" expr=\"VARVAL(2)\"/>\n"
                                          "<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"DIF(12)\" "
                                          "expr2=\"DIF1(12)\"/>");
  ASSERT_EQ(samples.size(), 41u);
  double largestSignal = 0, largestIntegral = 0, largestRequestGap = 0, largestRate = 0;
  for (const Sample& sample : samples) {
    const double exact = std::sin(2 * sample.time);
    const size_t n = sample.state.size();
    largestSignal = std::max(largestSignal, std::fabs(sample.state[n - 2] - exact));
    largestIntegral = std::max(largestIntegral, std::fabs(sample.state[n - 1] - exact));
    ASSERT_EQ(sample.requests.size(), 1u);
    // A request reads the output state itself, and the rate IDAS gives there: 2 cos 2t to its error.
    largestRequestGap = std::max(largestRequestGap, std::fabs(sample.requests[0][0] - sample.state[n - 1]));
    if (sample.time > 0) {
      largestRate = std::max(largestRate, std::fabs(sample.requests[0][1] - 2 * std::cos(2 * sample.time)));
    }
  }
  EXPECT_EQ(largestRequestGap, 0.0);
  // DIF1 of an algebraic state is the BDF formula's derivative of its values, an order less accurate than the values
  // (measured 1.0e-6 at integr_tol 1e-8).
  EXPECT_LT(largestRate, 1e-5) << largestRate;
  // An algebraic equation: Newton stops when its update is within the error weights,
  // integr_tol·(1 + |y|) ≤ 2·integr_tol.
  EXPECT_LT(largestSignal, 2 * kDiffIntegrTol) << largestSignal;
  EXPECT_LT(largestIntegral, 100 * kDiffIntegrTol) << largestIntegral;
}

}  // namespace
}  // namespace lodestone::testing
