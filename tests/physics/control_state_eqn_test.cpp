// Control_StateEqn and Control_SISO integrated by the solver against closed forms: a free damped oscillator and a
// driven first-order lag given by their A, B, C, D matrices (states, and outputs read with ARYVAL), and the step
// responses of transfer functions 1/(τs + 1), ωn²/(s² + 2ζωn s + ωn²) and (s + 2)/(s + 1).
#include <array>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "support/sampled_runs.h"

namespace lodestone::testing {
namespace {

constexpr double kStateEqnIntegrTol = 1e-8;

// `model` (deck statements) from 0 to 2 s at `integrTol`: the state and requests at every output.
std::vector<Sample> runStateEqn(const std::string& model, double integrTol = kStateEqnIntegrTol) {
  return runSampled(model, integrTol);
}

// Two linear systems:
//  id 1, the free damped oscillator x1' = x2, x2' = −ω² x1 − 2ζω x2 (ω = 3, ζ = 0.2) from x = (1, 0), output y = 2 x1;
//  id 2, the lag x' = −2 x + u, u = sin 3t, from x = 1, output y = x + 0.5 u (D ≠ 0: the input feeds through).
const char* kLinearSystems =
    "<Reference_Matrix id=\"11\" nrow=\"2\" ncol=\"2\" isroworder=\"TRUE\"> 0 1 -9 -1.2 </Reference_Matrix>\n"
    "<Reference_Matrix id=\"12\" nrow=\"1\" ncol=\"2\"> 2 0 </Reference_Matrix>\n"
    "<Reference_Array id=\"13\" type=\"X\" num_element=\"2\"/>\n"
    "<Reference_Array id=\"14\" type=\"Y\" num_element=\"1\"/>\n"
    "<Reference_Array id=\"15\" type=\"IC\" num_element=\"2\"> 1 0 </Reference_Array>\n"
    "<Control_StateEqn id=\"1\" type=\"LINEAR\" x_array_id=\"13\" y_array_id=\"14\" ic_array_id=\"15\" "
    "a_matrix_id=\"11\" c_matrix_id=\"12\"/>\n"
    "<Reference_Variable id=\"5\" expr=\"SIN(3*TIME)\"/>\n"
    "<Reference_Array id=\"21\" type=\"U\" num_element=\"1\"> 5 </Reference_Array>\n"
    "<Reference_Array id=\"22\" type=\"X\" num_element=\"1\"/>\n"
    "<Reference_Array id=\"23\" type=\"Y\" num_element=\"1\"/>\n"
    "<Reference_Array id=\"24\" type=\"IC\" num_element=\"1\"> 1 </Reference_Array>\n"
    "<Reference_Matrix id=\"31\" nrow=\"1\" ncol=\"1\"> -2 </Reference_Matrix>\n"
    "<Reference_Matrix id=\"32\" nrow=\"1\" ncol=\"1\"> 1 </Reference_Matrix>\n"
    "<Reference_Matrix id=\"33\" nrow=\"1\" ncol=\"1\"> 1 </Reference_Matrix>\n"
    "<Reference_Matrix id=\"34\" nrow=\"1\" ncol=\"1\"> 0.5 </Reference_Matrix>\n"
    "<Control_StateEqn id=\"2\" type=\"LINEAR\" x_array_id=\"22\" u_array_id=\"21\" y_array_id=\"23\" "
    "ic_array_id=\"24\" a_matrix_id=\"31\" b_matrix_id=\"32\" c_matrix_id=\"33\" d_matrix_id=\"34\"/>\n"
    "<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"ARYVAL(13, 1)\" expr2=\"ARYVAL(13, 2)\" "
    "expr3=\"ARYVAL(14, 1)\" expr4=\"ARYVAL(22, 1)\" expr5=\"ARYVAL(23, 1)\"/>";

struct LinearErrors {
  double oscillator = 0, oscillatorRate = 0, lag = 0;
  double requestGap = 0;  // ARYVAL of the X and Y arrays against the states and C x + D u
};

LinearErrors linearErrors(double integrTol) {
  const std::vector<Sample> samples = runStateEqn(groundAndBody() + "\n" + kLinearSystems, integrTol);
  EXPECT_EQ(samples.size(), 41u);
  const double w = 3, zeta = 0.2, wd = w * std::sqrt(1 - zeta * zeta);
  const double a = 2, wu = 3, c = 1 + wu / (a * a + wu * wu);
  LinearErrors errors;
  for (const Sample& sample : samples) {
    const double t = sample.time;
    const size_t n = sample.state.size();
    const double x1 = sample.state[n - 3], x2 = sample.state[n - 2], lag = sample.state[n - 1];
    const double decay = std::exp(-zeta * w * t);
    const double exactX1 = decay * (std::cos(wd * t) + zeta * w / wd * std::sin(wd * t));
    const double exactX2 = -w * w / wd * decay * std::sin(wd * t);
    const double exactLag = c * std::exp(-a * t) + (a * std::sin(wu * t) - wu * std::cos(wu * t)) / (a * a + wu * wu);
    errors.oscillator = std::max(errors.oscillator, std::fabs(x1 - exactX1));
    errors.oscillatorRate = std::max(errors.oscillatorRate, std::fabs(x2 - exactX2));
    errors.lag = std::max(errors.lag, std::fabs(lag - exactLag));
    EXPECT_EQ(sample.requests.size(), 1u);
    if (sample.requests.empty()) continue;
    const std::array<double, 8>& request = sample.requests[0];
    for (const double gap : {request[0] - x1, request[1] - x2, request[2] - 2 * x1, request[3] - lag,
                             request[4] - (lag + 0.5 * std::sin(3 * t))}) {
      errors.requestGap = std::max(errors.requestGap, std::fabs(gap));
    }
  }
  return errors;
}

TEST(ControlStateEqn, LinearSystemsFollowTheirClosedForms) {
  // As for Control_Diff: the global error over 2 s is the local errors (each within integr_tol) carried along; it
  // must shrink with integr_tol, as an integration error does (a wrong matrix's would stay).
  const LinearErrors coarse = linearErrors(kStateEqnIntegrTol);
  const LinearErrors fine = linearErrors(kStateEqnIntegrTol / 100);
  for (const auto& [name, error, fineError] :
       {std::tuple{"oscillator x1", coarse.oscillator, fine.oscillator},
        std::tuple{"oscillator x2", coarse.oscillatorRate, fine.oscillatorRate},
        std::tuple{"lag", coarse.lag, fine.lag}}) {
    EXPECT_LT(error, 100 * kStateEqnIntegrTol) << name << " " << error;
    EXPECT_LT(fineError, 100 * kStateEqnIntegrTol / 100) << name << " " << fineError;
    EXPECT_LT(fineError, error / 10) << name << " " << error << " " << fineError;
  }
  // Measured at 1e-8: 1.2e-7 (x1), 4.1e-7 (x2), 8.3e-8 (lag); at 1e-10: 3.4e-9, 9.8e-9, 4.2e-10.
  // ARYVAL reads the states the integrator has and the outputs from them: the same numbers, to rounding.
  EXPECT_LT(coarse.requestGap, 1e-14) << coarse.requestGap;
}

// A transfer function's step response: Control_SISO id 3 with input u = 1 from t = 0, its output read with ARYVAL.
double largestStepError(const std::string& numerator, const std::string& denominator, int numeratorCount,
                        int denominatorCount, double (*exact)(double), double integrTol = kStateEqnIntegrTol) {
  const std::vector<Sample> samples = runStateEqn(
      groundAndBody() +
          "\n<Reference_Variable id=\"5\" expr=\"1\"/>\n"
          "<Reference_Array id=\"41\" type=\"U\" num_element=\"1\"> 5 </Reference_Array>\n"
          "<Reference_Array id=\"42\" type=\"X\" num_element=\"" + std::to_string(denominatorCount - 1) + "\"/>\n"
          "<Reference_Array id=\"43\" type=\"Y\" num_element=\"1\"/>\n"
          "<Control_SISO id=\"3\" x_array_id=\"42\" y_array_id=\"43\" u_array_id=\"41\" num_numerator_coef=\"" +
          std::to_string(numeratorCount) + "\" numerator_coef=\"" + numerator + "\" num_denominator_coef=\"" +
          std::to_string(denominatorCount) + "\" denominator_coef=\"" + denominator + "\"/>\n"
          "<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"ARYVAL(43, 1)\"/>",
      integrTol);
  EXPECT_EQ(samples.size(), 41u);
  double largest = 0;
  for (const Sample& sample : samples) {
    EXPECT_EQ(sample.requests.size(), 1u);
    if (sample.requests.empty()) continue;
    largest = std::max(largest, std::fabs(sample.requests[0][0] - exact(sample.time)));
  }
  return largest;
}

TEST(ControlSiso, FirstOrderLagStepResponse) {
  // 1/(τs + 1), τ = 0.5 (coefficients in ascending powers of s: 1 + 0.5 s): y = 1 − e^(−t/τ).
  const auto exact = [](double t) { return 1 - std::exp(-t / 0.5); };
  const double coarse = largestStepError("1", "1 0.5", 1, 2, exact);
  const double fine = largestStepError("1", "1 0.5", 1, 2, exact, kStateEqnIntegrTol / 100);
  EXPECT_LT(coarse, 100 * kStateEqnIntegrTol) << coarse;
  EXPECT_LT(fine, coarse / 10) << coarse << " " << fine;
}

TEST(ControlSiso, SecondOrderStepResponse) {
  // ωn²/(s² + 2ζωn s + ωn²), ωn = 4, ζ = 0.3: y = 1 − e^(−ζωn t)(cos ωd t + ζ/√(1 − ζ²) sin ωd t).
  const auto exact = [](double t) {
    const double wn = 4, zeta = 0.3, wd = wn * std::sqrt(1 - zeta * zeta);
    return 1 - std::exp(-zeta * wn * t) * (std::cos(wd * t) + zeta / std::sqrt(1 - zeta * zeta) * std::sin(wd * t));
  };
  const double coarse = largestStepError("16", "16 2.4 1", 1, 3, exact);
  const double fine = largestStepError("16", "16 2.4 1", 1, 3, exact, kStateEqnIntegrTol / 100);
  // The output is y = 16 x1 (C = [16 0]): the integrator bounds the states' errors, so the output's bound is
  // Σ|C| = 16 times a state's, 100 integr_tol (measured: 1.6e-6 at 1e-8, 4.4e-8 at 1e-10).
  EXPECT_LT(coarse, 16 * 100 * kStateEqnIntegrTol) << coarse;
  EXPECT_LT(fine, coarse / 10) << coarse << " " << fine;
}

TEST(ControlSiso, ProperTransferFunctionFeedsTheInputThrough) {
  // (s + 2)/(s + 1) = 1 + 1/(s + 1): its step response 2 − e^(−t) starts at 1, the input fed through (D = 1).
  const auto exact = [](double t) { return 2 - std::exp(-t); };
  const double coarse = largestStepError("2 1", "1 1", 2, 2, exact);
  EXPECT_LT(coarse, 100 * kStateEqnIntegrTol) << coarse;
}

}  // namespace
}  // namespace lodestone::testing
