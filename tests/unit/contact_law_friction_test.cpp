// The built-in friction laws: μ(v) at hand-computed speeds, μ(0) = 0, no jumps anywhere, the documented
// landmarks (μs at vs or vc, μd beyond), COULOMB_ON's check, and COULOMB_OFF's absent coefficient.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "plugins/builtin/builtin_laws.h"
#include "support/contact_law_testing.h"

namespace lodestone::testing {
namespace {

constexpr double kFrictionRelative = 1e-12;  // hand values are exact decimals: only rounding separates them

double mu(const FrictionLaw& law, const std::vector<double>& values, double slipSpeed) {
  return law.coefficient(values, slipSpeed);
}

std::vector<double> coulombOn(double muStatic, double muDynamic, double vs, double vd) {
  return lawValues(coulombOnLaw().parameters, {{"mu_static", {muStatic}},
                                               {"mu_dynamic", {muDynamic}},
                                               {"stiction_trans_vel", {vs}},
                                               {"friction_trans_vel", {vd}}});
}

TEST(ContactLawFriction, CoulombOnAtHandComputedSpeeds) {
  const std::vector<double> v = coulombOn(0.5, 0.3, 0.1, 0.2);
  // v = 0.05: μs·STEP(v, −vs, −1, vs, 1) with Δ = (0.05 + 0.1)/0.2 = 0.75, Δ²(3 − 2Δ) = 0.84375, STEP = −1 + 2·0.84375
  // = 0.6875, μ = 0.34375. v = 0.15: halfway from 0.5 to 0.3, μ = 0.4.
  EXPECT_NEAR(mu(coulombOnLaw(), v, 0.05), 0.34375, kFrictionRelative);
  EXPECT_NEAR(mu(coulombOnLaw(), v, 0.15), 0.4, kFrictionRelative);
  EXPECT_EQ(mu(coulombOnLaw(), v, 0.1), 0.5) << "μs at vs";
  EXPECT_EQ(mu(coulombOnLaw(), v, 0.2), 0.3) << "μd at vd";
  EXPECT_EQ(mu(coulombOnLaw(), v, 7), 0.3) << "μd beyond vd";
}

// Adams' contact friction, μ = STEP(v, −vs, μs, vs, −μs) through rest: a contact at rest resists a small slip as a
// viscous force of slope 1.5·μs/vs (7.5 here); the cubic's next term is −0.5·μs·(v/vs)³, 5e-16 at v = 1e-6.
TEST(ContactLawFriction, CoulombOnRisesFromRestWithTheSlopeOfAdamsStep) {
  const std::vector<double> v = coulombOn(0.5, 0.3, 0.1, 0.2);
  EXPECT_NEAR(mu(coulombOnLaw(), v, 1e-6) / 1e-6, 7.5, 1e-9);
}

TEST(ContactLawFriction, CoulombDynamicOnlyAtHandComputedSpeeds) {
  const std::vector<double> v =
      lawValues(coulombDynamicOnlyLaw().parameters, {{"mu_dynamic", {0.4}}, {"friction_trans_vel", {0.2}}});
  // v = 0.05: Δ = 0.25, Δ²(3 − 2Δ) = 0.15625, μ = 0.0625.
  EXPECT_NEAR(mu(coulombDynamicOnlyLaw(), v, 0.05), 0.0625, kFrictionRelative);
  EXPECT_EQ(mu(coulombDynamicOnlyLaw(), v, 0.2), 0.4);
  EXPECT_EQ(mu(coulombDynamicOnlyLaw(), v, 3), 0.4);
}

TEST(ContactLawFriction, SmoothStickSlipAtHandComputedSpeeds) {
  const std::vector<double> v = lawValues(
      smoothStickSlipLaw().parameters, {{"mu_static", {0.6}}, {"mu_dynamic", {0.4}}, {"critical_velocity", {0.1}}});
  EXPECT_NEAR(mu(smoothStickSlipLaw(), v, 0.05), 0.6 * 0.5 * 1.5, kFrictionRelative) << "x = 0.5";
  EXPECT_EQ(mu(smoothStickSlipLaw(), v, 0.1), 0.6) << "peak μs at vc";
  EXPECT_NEAR(mu(smoothStickSlipLaw(), v, 0.2), 0.4 + 0.2 * std::exp(-1.0), kFrictionRelative) << "x = 2";
  EXPECT_NEAR(mu(smoothStickSlipLaw(), v, 1.0), 0.4, 1e-15) << "x = 10: exp(−81) is far below rounding";
  // The peak is the maximum: a little either side is lower.
  EXPECT_LT(mu(smoothStickSlipLaw(), v, 0.099), 0.6);
  EXPECT_LT(mu(smoothStickSlipLaw(), v, 0.101), 0.6);
}

TEST(ContactLawFriction, CoulombOffHasNoCoefficient) {
  EXPECT_EQ(coulombOffLaw().coefficient, nullptr);
  EXPECT_TRUE(coulombOffLaw().parameters.empty());
  EXPECT_EQ(coulombOffLaw().check, nullptr);
}

struct FrictionCase {
  std::string name;
  const FrictionLaw* law;
  std::vector<double> values;
  double scale;  // the law's largest transition speed: sampling runs to 5× it
};

std::vector<FrictionCase> frictionCases() {
  return {
      {"COULOMB_ON", &coulombOnLaw(), coulombOn(0.5, 0.3, 0.1, 0.2), 0.2},
      {"COULOMB_ON μd > μs", &coulombOnLaw(), coulombOn(0.2, 0.7, 1e-3, 0.5), 0.5},
      {"COULOMB_DYNAMICONLY", &coulombDynamicOnlyLaw(),
       lawValues(coulombDynamicOnlyLaw().parameters, {{"mu_dynamic", {0.4}}, {"friction_trans_vel", {0.2}}}), 0.2},
      {"SMOOTH_STICK_SLIP", &smoothStickSlipLaw(),
       lawValues(smoothStickSlipLaw().parameters,
                 {{"mu_static", {0.6}}, {"mu_dynamic", {0.4}}, {"critical_velocity", {0.1}}}),
       0.1},
  };
}

TEST(ContactLawFriction, EveryCoefficientIsZeroAtRest) {
  for (const FrictionCase& c : frictionCases()) EXPECT_EQ(mu(*c.law, c.values, 0), 0) << c.name;
}

// Sampled every h = 2e-7 (speed units) from 0 to 5× the transition speed. The steepest slope of these cases is
// 1.5·μs/vs = 1.5·0.2/1e-3 = 300 (COULOMB_ON with vs = 1e-3), so continuous neighbours differ by at most 6e-5;
// a jump of 2e-4 or more is caught. μ also stays within [0, max(μs, μd)] = [0, 0.7].
TEST(ContactLawFriction, EveryCoefficientIsContinuousAndBounded) {
  const double h = 2e-7;
  for (const FrictionCase& c : frictionCases()) {
    const long samples = std::lround(5 * c.scale / h);
    double previous = mu(*c.law, c.values, 0);
    double largestJump = 0, smallest = previous, largest = previous;
    for (long i = 1; i <= samples; ++i) {
      const double current = mu(*c.law, c.values, static_cast<double>(i) * h);
      largestJump = std::max(largestJump, std::abs(current - previous));
      smallest = std::min(smallest, current);
      largest = std::max(largest, current);
      previous = current;
    }
    EXPECT_LT(largestJump, 2e-4) << c.name;
    EXPECT_GE(smallest, 0) << c.name;
    EXPECT_LE(largest, 0.7) << c.name;
  }
}

TEST(ContactLawFriction, CoulombOnIsContinuousAcrossItsBreakpoints) {
  const std::vector<double> v = coulombOn(0.5, 0.3, 0.1, 0.2);
  for (double breakpoint : {0.1, 0.2}) {
    const double below = mu(coulombOnLaw(), v, std::nextafter(breakpoint, 0.0));
    const double above = mu(coulombOnLaw(), v, std::nextafter(breakpoint, 1.0));
    EXPECT_NEAR(below, above, 1e-12) << breakpoint;
  }
}

TEST(ContactLawFriction, CoulombOnRequiresStictionBelowFrictionSpeed) {
  LawFindings findings;
  coulombOnLaw().check(coulombOn(0.5, 0.3, 0.1, 0.2), findings);
  EXPECT_TRUE(findings.errors.empty());
  EXPECT_TRUE(findings.warnings.empty());
  coulombOnLaw().check(coulombOn(0.5, 0.3, 0.2, 0.1), findings);
  ASSERT_EQ(findings.errors.size(), 1u);
  EXPECT_EQ(findings.errors[0], "stiction_trans_vel (0.2) must be smaller than friction_trans_vel (0.1)");
  findings = {};
  coulombOnLaw().check(coulombOn(0.5, 0.3, 0.25, 0.25), findings);
  ASSERT_EQ(findings.errors.size(), 1u) << "equal speeds leave no room for the second transition";
  EXPECT_EQ(findings.errors[0], "stiction_trans_vel (0.25) must be smaller than friction_trans_vel (0.25)");
}

// Legal values that are almost surely a mistake are warnings, never errors; a value the deck could not give (NaN)
// draws no finding of its own.
TEST(ContactLawFriction, FrictionLawsWarnOfDynamicAboveStaticAndOfNoFriction) {
  const std::string swapped =
      "mu_dynamic (0.5) is above mu_static (0.3): friction would grow as the contact starts to slide instead of "
      "falling from its stiction peak; were the two swapped?";
  const std::string none = "0: the law gives no friction; cff_type=\"COULOMB_OFF\" says so";
  const auto warningsOf = [](const FrictionLaw& law, const std::vector<double>& values) {
    LawFindings findings;
    law.check(values, findings);
    EXPECT_TRUE(findings.errors.empty());
    return findings.warnings;
  };
  EXPECT_EQ(warningsOf(coulombOnLaw(), coulombOn(0.3, 0.5, 0.1, 0.2)), std::vector<std::string>{swapped});
  EXPECT_TRUE(warningsOf(coulombOnLaw(), coulombOn(0.5, 0.5, 0.1, 0.2)).empty()) << "equal coefficients are fine";
  EXPECT_EQ(warningsOf(coulombOnLaw(), coulombOn(0, 0, 0.1, 0.2)),
            std::vector<std::string>{"mu_static and mu_dynamic are both " + none});
  const double nan = std::nan("");
  EXPECT_TRUE(warningsOf(coulombOnLaw(), coulombOn(nan, 0.5, 0.1, 0.2)).empty());
  EXPECT_EQ(warningsOf(smoothStickSlipLaw(), {0.3, 0.5, 0.01}), std::vector<std::string>{swapped});
  EXPECT_TRUE(warningsOf(smoothStickSlipLaw(), {0.5, 0.3, 0.01}).empty());
  EXPECT_EQ(warningsOf(smoothStickSlipLaw(), {0, 0, 0.01}),
            std::vector<std::string>{"mu_static and mu_dynamic are both " + none});
  EXPECT_EQ(warningsOf(coulombDynamicOnlyLaw(), {0, 0.1}), std::vector<std::string>{"mu_dynamic is " + none});
  EXPECT_TRUE(warningsOf(coulombDynamicOnlyLaw(), {0.2, 0.1}).empty());
}

// ---- LINEAR_SHEAR: a shear spring with a slip limit, its force from the state per contact point ----------------

std::vector<double> linearShear(double ks, double fric, double dampingRatio = 0, double dashpotMode = 0) {
  return lawValues(linearShearLaw().parameters,
                   {{"ks", {ks}}, {"fric", {fric}}, {"dp_sratio", {dampingRatio}}, {"dp_mode", {dashpotMode}}});
}

FrictionOutput shear(const std::vector<double>& values, const FrictionInput& input, const std::vector<double>& state,
                     std::vector<double>* advanced = nullptr) {
  FrictionOutput output;
  linearShearLaw().stateful(values, input, state.data(), advanced ? advanced->data() : nullptr, output);
  return output;
}

TEST(ContactLawFriction, LinearShearHasStateAndNoCoefficient) {
  EXPECT_EQ(linearShearLaw().coefficient, nullptr);
  ASSERT_NE(linearShearLaw().stateful, nullptr);
  EXPECT_EQ(linearShearLaw().stateSize, 8) << "the spring's force (3), whether it slipped, the slip velocity (3), "
                                               "the energy held";
}

// Sticking: F = F_stored − ks·½(v_stored + v)·elapsed, holding ½|F|²/ks. ks = 1e4, slip (1e-3, 0, 0) for 0.1 s,
// stored (−3, 0, 0) with the same slip: F = (−4, 0, 0), below fric·Fn = 5. The held energy's rate is its change over
// the step, (8e-4 − 4.5e-4)/0.1, which is −F·v at the step's middle (nothing dissipated); with no time elapsed, −F·v.
TEST(ContactLawFriction, LinearShearSticksBelowTheSlipLimit) {
  const std::vector<double> values = linearShear(1e4, 0.5);
  const FrictionInput input{.normal = Vector3::UnitZ(), .slip = Vector3(1e-3, 0, 0), .normalForce = 10,
                            .effectiveMass = 1, .elapsed = 0.1};
  std::vector<double> advanced(8, 7.0);
  const FrictionOutput output = shear(values, input, {-3, 0, 0, 0, 1e-3, 0, 0, 4.5e-4}, &advanced);
  EXPECT_NEAR((output.force - Vector3(-4, 0, 0)).norm(), 0, 1e-15);
  EXPECT_DOUBLE_EQ(output.strain, 0.5 * 16 / 1e4);
  EXPECT_NEAR(output.strainRate, 3.5e-3, 1e-15) << "−F·v with F = −3.5";
  EXPECT_EQ(output.dashpotPower, 0);
  EXPECT_EQ(advanced, (std::vector<double>{-4, 0, 0, 0, 1e-3, 0, 0, 8e-4})) << "force, not slipping, slip, energy";
  FrictionInput now = input;
  now.elapsed = 0;
  EXPECT_DOUBLE_EQ(shear(values, now, {-4, 0, 0, 0, 1e-3, 0, 0, 8e-4}).strainRate, 4e-3) << "−F·v";
  // The slip increment is the trapezoidal rule's: from a stored slip of 3e-3 the mean is 2e-3, F = −3 − 2.
  EXPECT_NEAR(shear(values, input, {-3, 0, 0, 0, 3e-3, 0, 0, 4.5e-4}).force.x(), -5, 1e-15);
}

// Slipping: the trial force (−3 − 1e4·0.1·0.05 = −53) beyond fric·Fn = 5 is cut to 5 along it, holding ½·25/ks. A
// spring slipping at its limit holds its energy while Fn does; when Fn falls (10 to 8) the limit falls with it and
// the spring gives up (25 − 16)/2/ks over the step, which its negative rate hands to slip. A point carrying a quarter
// of its patch (share 0.25) has a quarter of ks and slips at fric times its own normal force (its share of the
// patch's).
TEST(ContactLawFriction, LinearShearSlipsAtFricTimesTheNormalForce) {
  const std::vector<double> values = linearShear(1e4, 0.5);
  FrictionInput input{.normal = Vector3::UnitZ(), .slip = Vector3(0.05, 0, 0), .normalForce = 10,
                      .effectiveMass = 1, .elapsed = 0.1};
  std::vector<double> advanced(8, 0.0);
  const FrictionOutput output = shear(values, input, {-5, 0, 0, 1, 0.05, 0, 0, 1.25e-3}, &advanced);
  EXPECT_NEAR((output.force - Vector3(-5, 0, 0)).norm(), 0, 1e-15);
  EXPECT_DOUBLE_EQ(output.strain, 0.5 * 25 / 1e4);
  EXPECT_EQ(output.strainRate, 0) << "at the limit, as it was";
  EXPECT_EQ(advanced[3], 1) << "slipping";
  input.normalForce = 8;
  EXPECT_NEAR(shear(values, input, {-5, 0, 0, 1, 0.05, 0, 0, 1.25e-3}).strainRate, -4.5e-4 / 0.1, 1e-15);
  // A quarter share: stiffness 2500, limit 0.5·2.5 = 1.25.
  input.share = 0.25;
  input.normalForce = 2.5;
  input.slip = Vector3(0.002, 0, 0);
  EXPECT_NEAR(shear(values, input, {-1, 0, 0, 0, 0.002, 0, 0, 0}).force.x(), -1.25, 1e-15) << "−1 − 2500·2e-4, cut";
  input.slip = Vector3(0.0002, 0, 0);
  EXPECT_NEAR(shear(values, input, {-1, 0, 0, 0, 2e-4, 0, 0, 0}).force.x(), -1.05, 1e-15) << "−1 − 2500·2e-5, sticking";
}

// The stored force and slip are turned into the current tangent plane with their magnitudes kept: a stored force
// (3, 0, 4) on a normal along z becomes (5, 0, 0); a stored slip (0, 3e-3, 4e-3) for 0.01 s adds −1e4·½·5e-3·0.01.
TEST(ContactLawFriction, LinearShearTurnsItsStoredForceIntoTheTangentPlane) {
  const std::vector<double> values = linearShear(1e4, 1);
  const FrictionInput input{.normal = Vector3::UnitZ(), .normalForce = 10, .effectiveMass = 1, .elapsed = 0.01};
  EXPECT_NEAR((shear(values, input, {3, 0, 4, 0, 0, 0, 0, 0}).force - Vector3(5, 0, 0)).norm(), 0, 1e-14);
  EXPECT_NEAR((shear(values, input, {3, 0, 4, 0, 0, 3e-3, 4e-3, 0}).force - Vector3(5, -0.25, 0)).norm(), 0, 1e-14);
}

// The dashpot 2·dp_sratio·sqrt(m·ks)·share·v (here 2·0.5·sqrt(4·1e4) = 200 N·s/m) acts while sticking in every mode,
// and while slipping only in modes 0 and 1 (PFC's "full shear"), not 2 and 3 ("slip-cut shear"). Its power is
// dashpotPower, not the slip's.
TEST(ContactLawFriction, LinearShearDashpotFollowsDpMode) {
  const FrictionInput sticking{.normal = Vector3::UnitZ(), .slip = Vector3(1e-3, 0, 0), .normalForce = 10,
                               .effectiveMass = 4, .elapsed = 1e-3};
  const FrictionInput slipping{.normal = Vector3::UnitZ(), .slip = Vector3(1, 0, 0), .normalForce = 10,
                               .effectiveMass = 4, .elapsed = 1e-3};
  for (int mode = 0; mode <= 3; ++mode) {
    const std::vector<double> values = linearShear(1e4, 0.5, 0.5, mode);
    const FrictionOutput stick = shear(values, sticking, {0, 0, 0, 0, 1e-3, 0, 0, 0});
    EXPECT_NEAR(stick.force.x(), -1e4 * 1e-6 - 200 * 1e-3, 1e-15) << mode;
    EXPECT_NEAR(stick.dashpotPower, 200 * 1e-6, 1e-18) << mode;
    const FrictionOutput slip = shear(values, slipping, {0, 0, 0, 0, 1, 0, 0, 0});
    const double dashpot = mode < 2 ? 200 : 0;
    EXPECT_NEAR(slip.force.x(), -5 - dashpot, 1e-12) << mode;
    EXPECT_NEAR(slip.dashpotPower, dashpot, 1e-12) << mode;
  }
}

TEST(ContactLawFriction, LinearShearRefusesAFractionalDpModeAndWarnsOfNoFriction) {
  LawFindings findings;
  linearShearLaw().check(linearShear(1e4, 0.5, 0, 1.5), findings);
  ASSERT_EQ(findings.errors.size(), 1u);
  EXPECT_EQ(findings.errors[0], "dp_mode (1.5) must be one of 0, 1, 2, 3");
  LawFindings none;
  linearShearLaw().check(linearShear(1e4, 0), none);
  EXPECT_TRUE(none.errors.empty());
  EXPECT_EQ(none.warnings.size(), 1u);
}

}  // namespace
}  // namespace lodestone::testing
