// DIPOLE's magnetic interaction: the textbook coaxial and perpendicular cases, conservation of linear and angular
// momentum, the cap, μ0 in deck units, and moments that turn with their graphics.
#include <cmath>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "plugins/builtin/builtin_laws.h"
#include "plugins/builtin/dipole.h"
#include "support/contact_law_testing.h"
#include "support/math_constants.h"

namespace lodestone::testing {
namespace {

const double kMu0 = 4e-7 * kPi;  // N/A², written out here rather than taken from the code under test

void expectVectorNear(const Vector3& actual, const Vector3& expected, double relative, const char* what) {
  EXPECT_LE((actual - expected).norm(), relative * expected.norm()) << what << ": " << actual.transpose()
                                                                    << " expected " << expected.transpose();
}

TEST(ContactLawDipole, CoaxialAlignedDipolesAttract) {
  const double m1 = 2.5, m2 = 0.8, r = 0.03;
  const Vector3 r1(0.1, -0.2, 0.3), axis = Vector3(1, 2, 2) / 3;  // any axis: the law must not prefer z
  const Vector3 r2 = r1 + r * axis;
  const DipoleInteraction d = magneticDipoleInteraction(m1 * axis, r1, m2 * axis, r2, 1e-3, kMu0);
  const double expected = 3 * kMu0 * m1 * m2 / (2 * kPi * std::pow(r, 4));
  EXPECT_NEAR(d.forceOn2.norm(), expected, 1e-9 * expected);
  // Each force points at the other dipole.
  expectVectorNear(d.forceOn2, -expected * axis, 1e-9, "force on 2 points towards 1");
  expectVectorNear(d.forceOn1, expected * axis, 1e-9, "force on 1 points towards 2");
  EXPECT_LE(d.momentOn1.norm() + d.momentOn2.norm(), 1e-12 * expected * r) << "aligned: no moments";
}

TEST(ContactLawDipole, PerpendicularDipolesMatchTheReferenceCase) {
  // m1 = ẑ at the origin, m2 = x̂ at r·x̂ (REFERENCE.md §3).
  const double r = 0.05;
  const DipoleInteraction d =
      magneticDipoleInteraction(Vector3::UnitZ(), Vector3::Zero(), Vector3::UnitX(), r * Vector3::UnitX(), 1e-3, kMu0);
  const double k3 = kMu0 / (4 * kPi * r * r * r);
  expectVectorNear(d.forceOn2, 3 * k3 / r * Vector3::UnitZ(), 1e-12, "F2");
  expectVectorNear(d.forceOn1, -3 * k3 / r * Vector3::UnitZ(), 1e-12, "F1");
  expectVectorNear(d.momentOn2, k3 * Vector3::UnitY(), 1e-12, "M2");
  expectVectorNear(d.momentOn1, 2 * k3 * Vector3::UnitY(), 1e-12, "M1");
}

// Relative to the scale of the terms that must cancel: |F|·|r2 − r1| and |M|.
TEST(ContactLawDipole, RandomConfigurationsConserveMomentum) {
  std::mt19937 random(20261121u);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto randomVector = [&] { return Vector3(unit(random), unit(random), unit(random)); };
  for (int trial = 0; trial < 200; ++trial) {
    const Vector3 m1 = 3 * randomVector(), m2 = 3 * randomVector();
    const Vector3 r1 = randomVector(), r2 = randomVector();
    const double cap = 1e-3;
    ASSERT_GT((r2 - r1).norm(), cap) << "momentum is conserved above the cap (see dipole.h)";
    const DipoleInteraction d = magneticDipoleInteraction(m1, r1, m2, r2, cap, kMu0);
    const double forceScale = d.forceOn1.norm() + d.forceOn2.norm();
    EXPECT_LE((d.forceOn1 + d.forceOn2).norm(), 1e-12 * forceScale) << trial;
    const Vector3 angular = d.momentOn1 + d.momentOn2 + r1.cross(d.forceOn1) + r2.cross(d.forceOn2);
    const double angularScale = d.momentOn1.norm() + d.momentOn2.norm() + forceScale * (r2 - r1).norm();
    EXPECT_LE(angular.norm(), 1e-12 * angularScale) << trial;
  }
}

TEST(ContactLawDipole, BelowTheCapTheForceIsThatAtTheCap) {
  const Vector3 m1(0.3, 0.1, 1.0), m2(-0.2, 0.5, 0.7), direction = Vector3(2, -1, 2) / 3;
  const double cap = 0.01;
  const DipoleInteraction atCap = magneticDipoleInteraction(m1, Vector3::Zero(), m2, cap * direction, cap, kMu0);
  for (double distance : {0.5 * cap, 0.1 * cap, 1e-9}) {
    const DipoleInteraction closer = magneticDipoleInteraction(m1, Vector3::Zero(), m2, distance * direction, cap, kMu0);
    expectVectorNear(closer.forceOn2, atCap.forceOn2, 1e-12, "force below the cap");
    expectVectorNear(closer.momentOn1, atCap.momentOn1, 1e-12, "moment below the cap");
  }
  // Just above the cap the force is larger than far away and grows no further below: 1/ρ⁴ with ρ = 2·cap is 1/16.
  const DipoleInteraction twice = magneticDipoleInteraction(m1, Vector3::Zero(), m2, 2 * cap * direction, cap, kMu0);
  EXPECT_NEAR(twice.forceOn2.norm(), atCap.forceOn2.norm() / 16, 1e-12 * atCap.forceOn2.norm());
  // Coincident dipoles have no direction: zero, not NaN.
  const DipoleInteraction coincident = magneticDipoleInteraction(m1, Vector3::Ones(), m2, Vector3::Ones(), cap, kMu0);
  EXPECT_EQ(coincident.forceOn2, Vector3::Zero());
  EXPECT_EQ(coincident.momentOn1, Vector3::Zero());
}

TEST(ContactLawDipole, VacuumPermeabilityIsInTheDeckForceUnit) {
  UnitSystem si;
  EXPECT_NEAR(vacuumPermeability(si), 4e-7 * kPi, 1e-15 * 4e-7 * kPi);
  UnitSystem millimetreNewton;
  millimetreNewton.length = "MILLIMETER";  // lengths cancel when moments are in A·mm²: μ0 stays the SI number
  EXPECT_NEAR(vacuumPermeability(millimetreNewton), 4e-7 * kPi, 1e-15 * 4e-7 * kPi);
  UnitSystem kilonewton;
  kilonewton.length = "MILLIMETER";
  kilonewton.force = "KNEWTON";  // the unit table's spelling of the kilonewton
  EXPECT_NEAR(vacuumPermeability(kilonewton), 4e-10 * kPi, 1e-15 * 4e-10 * kPi);
  UnitSystem dyne;
  dyne.force = "DYNE";
  EXPECT_NEAR(vacuumPermeability(dyne), 4e-2 * kPi, 1e-15 * 4e-2 * kPi);
}

std::vector<double> magnets(const Vector3& mo1, const Vector3& mo2) {
  return lawValues(dipoleLaw().parameters, {{"kn", {1e4}},
                                            {"dipole_mo1", {mo1.x(), mo1.y(), mo1.z()}},
                                            {"dipole_mo2", {mo2.x(), mo2.y(), mo2.z()}},
                                            {"dipole_cap", {1e-3}},
                                            {"dipole_d", {0.02}}});
}

TEST(ContactLawDipole, FieldUsesGraphicPositionsAndDeckUnits) {
  FieldInput input;
  input.graphicI.position = Vector3(0, 0, 0.01);
  input.graphicJ.position = Vector3(0, 0, 0.05);
  input.units.force = "KNEWTON";
  FieldOutput output;
  dipoleLaw().field(magnets(Vector3(0, 0, 2), Vector3(0, 0, 3)), input, output);
  // Coaxial aligned, r = 0.04, μ0 in kN/A²: attraction 3μ0·m1·m2/(2π r⁴) along z.
  const double expected = 3 * 4e-10 * kPi * 2 * 3 / (2 * kPi * std::pow(0.04, 4));
  expectVectorNear(output.forceOnJ, Vector3(0, 0, -expected), 1e-9, "force on J");
  expectVectorNear(output.forceOnI, Vector3(0, 0, expected), 1e-9, "force on I");
}

TEST(ContactLawDipole, MomentsTurnWithTheirGraphics) {
  // Both graphics turned a quarter turn about x: a moment given along z in their axes points along −y in ground.
  const Matrix3 quarterAboutX = Eigen::AngleAxisd(kPi / 2, Vector3::UnitX()).toRotationMatrix();
  FieldInput input;
  input.graphicI.rotation = quarterAboutX;
  input.graphicJ.position = Vector3(0.03, 0.01, -0.02);
  input.graphicJ.rotation = Eigen::AngleAxisd(0.7, Vector3(1, 1, 0).normalized()).toRotationMatrix();
  const Vector3 mo1(0, 0, 1.5), mo2(0.5, -1, 0.2);
  FieldOutput output;
  dipoleLaw().field(magnets(mo1, mo2), input, output);
  const DipoleInteraction expected = magneticDipoleInteraction(
      Vector3(0, -1.5, 0), input.graphicI.position, input.graphicJ.rotation * mo2, input.graphicJ.position, 1e-3, kMu0);
  expectVectorNear(output.forceOnI, expected.forceOn1, 1e-12, "F on I");
  expectVectorNear(output.forceOnJ, expected.forceOn2, 1e-12, "F on J");
  expectVectorNear(output.momentOnI, expected.momentOn1, 1e-12, "M on I");
  expectVectorNear(output.momentOnJ, expected.momentOn2, 1e-12, "M on J");
  // The same magnets unturned interact differently: rotation is not ignored.
  FieldOutput unturned;
  input.graphicI.rotation = Matrix3::Identity();
  input.graphicJ.rotation = Matrix3::Identity();
  dipoleLaw().field(magnets(mo1, mo2), input, unturned);
  EXPECT_GT((unturned.forceOnJ - output.forceOnJ).norm(), 1e-3 * output.forceOnJ.norm());
}

// ---- the normal half: PFC's linear model (rgap, dp_mode, lin_mode) ---------------------------------------------

constexpr double kKn = 1e4, kRatio = 0.5, kMass = 2.0;  // c = 2·0.5·sqrt(2·1e4) = 141.42 N·s/m

std::vector<double> normalHalf(double rgap, int dashpotMode, int updateMode) {
  return lawValues(dipoleLaw().parameters, {{"kn", {kKn}},
                                            {"dp_nratio", {kRatio}},
                                            {"dipole_mo1", {0, 0, 1}},
                                            {"dipole_mo2", {0, 0, 1}},
                                            {"dipole_cap", {1e-3}},
                                            {"dipole_d", {0.01}},
                                            {"rgap", {rgap}},
                                            {"dp_mode", {static_cast<double>(dashpotMode)}},
                                            {"lin_mode", {static_cast<double>(updateMode)}}});
}

const double kDamping = 2 * kRatio * std::sqrt(kMass * kKn);

// dp_mode 0 and 2: the full normal dashpot, kn·δ + c·δ̇, which pulls while the contact opens fast; 1 and 3: the
// no-tension dashpot, max(0, kn·δ + c·δ̇). Written out here from PFC's definitions.
TEST(ContactLawDipole, NormalDashpotIsFullInModesZeroAndTwoAndNoTensionInOneAndThree) {
  for (int mode = 0; mode <= 3; ++mode) {
    const std::vector<double> values = normalHalf(0, mode, 0);
    for (const double rate : {-2.0, -0.05, 0.0, 0.3}) {
      const double depth = 1e-3, full = kKn * depth + kDamping * rate;
      const double expected = mode % 2 == 0 ? full : std::max(0.0, full);
      EXPECT_NEAR(normalForce(dipoleLaw(), values, depth, rate, 0, kMass), expected, 1e-12 * kKn * depth)
          << "dp_mode " << mode << " rate " << rate;
    }
  }
  // Opening at 2 m/s at 1 mm: 10 − 282.8 N, a pull in full mode.
  EXPECT_LT(normalForce(dipoleLaw(), normalHalf(0, 0, 0), 1e-3, -2, 0, kMass), -270);
  EXPECT_EQ(normalForce(dipoleLaw(), normalHalf(0, 1, 0), 1e-3, -2, 0, kMass), 0);
}

// rgap = −0.4 mm: nothing acts until the pieces overlap by more than 0.4 mm (neither spring nor dashpot: PFC skips
// inactive contacts), then kn·(δ + rgap) + c·δ̇.
TEST(ContactLawDipole, ReferenceGapMovesWhereTheSpringStarts) {
  const std::vector<double> values = normalHalf(-4e-4, 0, 0);
  EXPECT_EQ(normalForce(dipoleLaw(), values, 3.9e-4, 1.0, 0, kMass), 0);
  EXPECT_EQ(normalForce(dipoleLaw(), values, 4e-4, 1.0, 0, kMass), 0);
  EXPECT_NEAR(normalForce(dipoleLaw(), values, 4e-4 + 1e-12, 1.0, 0, kMass), kDamping, 1e-9 * kDamping);
  EXPECT_NEAR(normalForce(dipoleLaw(), values, 1e-3, 0.0, 0, kMass), kKn * 6e-4, 1e-12 * kKn);
}

// lin_mode 1: the spring's force is advanced from the one at the last accepted step by kn·Δδ, starts at 0 where the
// point becomes active whatever its overlap, never takes tension, and after unloading to 0 reloads from where it
// turned (PFC's incremental update). Each line is one accepted step, the state advanced in place.
TEST(ContactLawDipole, IncrementalUpdateStartsUnloadedAndAccumulatesIncrements) {
  const std::vector<double> values = normalHalf(0, 0, 1);
  ASSERT_EQ(dipoleLaw().stateSize(values), 3);
  EXPECT_EQ(dipoleLaw().stateSize(normalHalf(0, 0, 0)), 0) << "absolute: no state kept";
  std::vector<double> state(3, 0.0);
  const auto step = [&](double depth) {
    const NormalInput input{.penetration = depth, .penetrationRate = 0, .effectiveMass = kMass};
    return dipoleLaw().stateful(values, input, state.data(), state.data());
  };
  const auto probe = [&](double depth) {  // between accepted steps: the state is read, not changed
    const NormalInput input{.penetration = depth, .penetrationRate = 0, .effectiveMass = kMass};
    return dipoleLaw().stateful(values, input, state.data(), nullptr);
  };
  EXPECT_EQ(step(2e-3), 0) << "a contact that begins overlapping starts unloaded";
  EXPECT_NEAR(probe(2.5e-3), kKn * 5e-4, 1e-12 * kKn);
  EXPECT_NEAR(step(3e-3), kKn * 1e-3, 1e-12 * kKn);
  EXPECT_NEAR(step(2.4e-3), kKn * 4e-4, 1e-12 * kKn);
  EXPECT_EQ(step(1.5e-3), 0) << "no tension";
  EXPECT_NEAR(step(1.7e-3), kKn * 2e-4, 1e-12 * kKn) << "reloads from where it turned";
  // A null state (a probe of the law's stiffness) is the law without history: absolute.
  EXPECT_NEAR(dipoleLaw().stateful(values, {.penetration = 1e-3, .effectiveMass = kMass}, nullptr, nullptr),
              kKn * 1e-3, 1e-12 * kKn);
  // A point that goes inactive (rgap) forgets: coming back it starts unloaded again.
  const std::vector<double> gapped = normalHalf(-1e-3, 0, 1);
  std::vector<double> kept(3, 0.0);
  const auto stepGapped = [&](double depth) {
    return dipoleLaw().stateful(gapped, {.penetration = depth, .effectiveMass = kMass}, kept.data(), kept.data());
  };
  EXPECT_EQ(stepGapped(1.2e-3), 0);
  EXPECT_NEAR(stepGapped(1.5e-3), kKn * 3e-4, 1e-12 * kKn);
  EXPECT_EQ(stepGapped(0.5e-3), 0);
  EXPECT_EQ(stepGapped(1.4e-3), 0);
  EXPECT_NEAR(stepGapped(1.6e-3), kKn * 2e-4, 1e-12 * kKn);
}

// The full dashpot lets go of its pull at a separation (a jump); the no-tension one has clipped it to 0 already.
// IDAS restarts at events where the force is less smooth than its order assumes (contact_law.h, kSmoothForce).
TEST(ContactLawDipole, SmoothnessFollowsTheDashpotMode) {
  EXPECT_EQ(dipoleLaw().smoothnessAt(normalHalf(0, 0, 0), ContactChange::Separation), 0);
  EXPECT_EQ(dipoleLaw().smoothnessAt(normalHalf(0, 1, 0), ContactChange::Separation), kSmoothForce);
  EXPECT_EQ(dipoleLaw().smoothnessAt(normalHalf(0, 2, 0), ContactChange::Onset), 0);
  // rgap < 0: the force is 0 around the pieces' touching, where the events are.
  EXPECT_EQ(dipoleLaw().smoothnessAt(normalHalf(-1e-4, 0, 0), ContactChange::Onset), kSmoothForce);
  EXPECT_EQ(dipoleLaw().smoothnessAt(normalHalf(-1e-4, 0, 0), ContactChange::Separation), kSmoothForce);
}

// PFC's deformability method, written out: kn = π·r̄²·E*/L with r̄ = min(R1, R2), L = R1 + R2 between balls and
// r̄ = L = R against a facet (any other shape); ks = kn/κ*. The element's other values are kept.
TEST(ContactLawDipole, EffectiveModulusGivesEachPairsKnAndKratioItsKs) {
  std::vector<double> values = normalHalf(0, 1, 0);
  const int kn = slotOf(dipoleLaw().parameters, "kn");
  values[static_cast<size_t>(kn)] = 0;
  values[static_cast<size_t>(slotOf(dipoleLaw().parameters, "emod"))] = 1e8;
  values[static_cast<size_t>(slotOf(dipoleLaw().parameters, "kratio"))] = 2.5;
  ASSERT_TRUE(dipoleLaw().variesByPair(values));
  EXPECT_TRUE(dipoleLaw().setsShearStiffness(values));
  EXPECT_FALSE(dipoleLaw().variesByPair(normalHalf(0, 1, 0))) << "kn given: one value for every pair";
  std::vector<double> pair = values;
  const double ballBall = dipoleLaw().valuesForPair(values, {0.01, 0.03}, pair);
  const double ballBallKn = kPi * 0.01 * 0.01 * 1e8 / 0.04;  // 785398.2 N/m
  EXPECT_NEAR(pair[static_cast<size_t>(kn)], ballBallKn, 1e-12 * ballBallKn);
  EXPECT_NEAR(ballBall, ballBallKn / 2.5, 1e-12 * ballBallKn);
  for (size_t slot = 0; slot < values.size(); ++slot) {
    if (slot != static_cast<size_t>(kn)) {
      EXPECT_EQ(pair[slot], values[slot]) << slot;
    }
  }
  const double ballFacet = dipoleLaw().valuesForPair(values, {0, 0.03}, pair);
  EXPECT_NEAR(pair[static_cast<size_t>(kn)], kPi * 0.03 * 1e8, 1e-12 * kPi * 0.03 * 1e8);
  EXPECT_NEAR(ballFacet, kPi * 0.03 * 1e8 / 2.5, 1e-12 * kPi * 0.03 * 1e8);
  EXPECT_EQ(dipoleLaw().valuesForPair(values, {0.02, 0}, pair), dipoleLaw().valuesForPair(values, {0, 0.02}, pair));
  // κ* = 0: ks is not set (the friction law's own ks serves).
  values[static_cast<size_t>(slotOf(dipoleLaw().parameters, "kratio"))] = 0;
  EXPECT_FALSE(dipoleLaw().setsShearStiffness(values));
  EXPECT_EQ(dipoleLaw().valuesForPair(values, {0.01, 0.03}, pair), 0);
}

TEST(ContactLawDipole, ModesMustBeWholeAndTheReferenceGapNotPositive) {
  const auto errorsOf = [](double rgap, double dashpotMode, double updateMode) {
    std::vector<double> values = normalHalf(rgap, 0, 0);
    values[static_cast<size_t>(slotOf(dipoleLaw().parameters, "dp_mode"))] = dashpotMode;
    values[static_cast<size_t>(slotOf(dipoleLaw().parameters, "lin_mode"))] = updateMode;
    LawFindings findings;
    dipoleLaw().check(values, findings);
    return findings.errors;
  };
  EXPECT_TRUE(errorsOf(-1e-3, 3, 1).empty());
  ASSERT_EQ(errorsOf(0, 1.5, 0).size(), 1u);
  EXPECT_EQ(errorsOf(0, 1.5, 0)[0], "dp_mode (1.5) must be one of 0, 1, 2, 3");
  ASSERT_EQ(errorsOf(0, 0, 0.5).size(), 1u);
  EXPECT_EQ(errorsOf(0, 0, 0.5)[0], "lin_mode (0.5) must be one of 0 (absolute) or 1 (incremental)");
  ASSERT_EQ(errorsOf(1e-3, 0, 0).size(), 1u);
  EXPECT_NE(errorsOf(1e-3, 0, 0)[0].find("rgap (0.001) > 0"), std::string::npos) << errorsOf(1e-3, 0, 0)[0];
}

}  // namespace
}  // namespace lodestone::testing
