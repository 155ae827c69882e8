// The direct and octree sums over many dipole samples (magnetics/dipole_samples.h): the direct sum against the DIPOLE
// law's pair formula and the conservation laws, the tree against the direct sum, a cell's expansion against its
// dipoles.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "magnetics/dipole_samples.h"
#include "support/magnet_testing.h"
#include "support/random_vectors.h"
#include "support/sample_force_errors.h"

namespace lodestone {
namespace {

using namespace magnet_testing;

constexpr double kMu0 = kVacuumPermeability;

Vector3 randomUnit(std::mt19937& random) {
  std::normal_distribution<double> normal;
  return testing::randomVector3(normal, random).normalized();
}

// N samples uniform in a 0.1 m cube, each its own group (single-sample bodies, as the paper's nickel cubes), moments of
// random direction and 0.5–1.5 A·m².
std::vector<GroupedDipoleSample> uniformCube(int count, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> coordinate(0, 0.1), strength(0.5, 1.5);
  std::vector<GroupedDipoleSample> samples;
  for (int i = 0; i < count; ++i) {
    const Vector3 position = testing::randomVector3(coordinate, random);
    const Vector3 direction = randomUnit(random);  // before the strength, as GCC drew them in the product
    samples.push_back({position, strength(random) * direction, i});
  }
  return samples;
}

// Two magnets, balls of `count` random samples of radius 0.02 m with parallel moments, their centres 0.05 m apart.
std::vector<GroupedDipoleSample> twoClusters(int count, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> coordinate(-0.02, 0.02);
  std::vector<GroupedDipoleSample> samples;
  const Vector3 centres[] = {Vector3::Zero(), 0.05 * kSkewDirection};
  const Vector3 moments[] = {Vector3(0, 0, 0.01), Vector3(0.006, 0, -0.008)};
  for (int group = 0; group < 2; ++group) {
    for (int i = 0; i < count;) {
      const Vector3 offset = testing::randomVector3(coordinate, random);
      if (offset.norm() > 0.02) continue;
      samples.push_back({centres[group] + offset, moments[group], group});
      ++i;
    }
  }
  return samples;
}

// `magnets`³ touching cubic magnets of side 3h, each sampled by 3×3×3 dipoles h = 5 mm apart (a lattice, as in the
// paper's figure 2), each magnet magnetised in its own random direction at 1e6 A/m (m = M·h³ per sample).
std::vector<GroupedDipoleSample> magnetLattice(int magnets, unsigned seed) {
  std::mt19937 random(seed);
  const double h = 0.005;
  std::vector<GroupedDipoleSample> samples;
  int group = 0;
  for (int a = 0; a < magnets; ++a) {
    for (int b = 0; b < magnets; ++b) {
      for (int c = 0; c < magnets; ++c, ++group) {
        const Vector3 moment = 1e6 * h * h * h * randomUnit(random);
        for (int i = 0; i < 27; ++i) {
          const Vector3 cell(3 * a + i % 3, 3 * b + (i / 3) % 3, 3 * c + i / 9);
          samples.push_back({h * cell, moment, group});
        }
      }
    }
  }
  return samples;
}

// Two samples are two dipoles: force and torque on each are magneticDipoleInteraction's, with and without the cap
// acting (1 mm apart, cap 0 and 2 mm), to round-off (1e-14 relative).
TEST(MagnetDipoleSamples, TwoSamplesAreTheDipoleLawsPair) {
  const Vector3 m1(0.3, -0.2, 0.9), m2(-0.5, 0.4, 0.1), r1(0.01, 0.02, -0.03);
  const Vector3 r2 = r1 + 1e-3 * kSkewDirection;
  for (const double cap : {0.0, 2e-3}) {
    SCOPED_TRACE(::testing::Message() << "cap " << cap);
    const std::vector<SampleInteraction> result = directInteractions({{r1, m1, 7}, {r2, m2, 3}}, cap, kMu0);
    const DipoleInteraction pair = magneticDipoleInteraction(m1, r1, m2, r2, cap, kMu0);
    EXPECT_LT(relativeError(result[0].force, pair.forceOn1), 1e-14);
    EXPECT_LT(relativeError(result[1].force, pair.forceOn2), 1e-14);
    EXPECT_LT(relativeError(result[0].torque, pair.momentOn1), 1e-14);
    EXPECT_LT(relativeError(result[1].torque, pair.momentOn2), 1e-14);
    if (cap == 0) {
      EXPECT_LT(relativeError(result[1].field, dipoleField(m1, r2 - r1)), 1e-14);
    }
  }
}

// Samples of one group do not act on each other; coincident samples of two groups have no direction and contribute
// nothing (as in dipole.h), in both sums.
TEST(MagnetDipoleSamples, SameGroupAndCoincidentSamplesContributeNothing) {
  const std::vector<GroupedDipoleSample> oneMagnet{{Vector3::Zero(), Vector3::UnitZ(), 4},
                                            {Vector3::UnitX(), Vector3::UnitZ(), 4}};
  const std::vector<GroupedDipoleSample> coincident{{Vector3::Zero(), Vector3::UnitZ(), 1},
                                             {Vector3::Zero(), Vector3::UnitX(), 2}};
  for (const std::vector<GroupedDipoleSample>& samples : {oneMagnet, coincident}) {
    for (const auto& results : {directInteractions(samples, 0, kMu0), treeInteractions(samples, 0, kMu0, 0.5)}) {
      for (const SampleInteraction& result : results) {
        EXPECT_EQ(result.field, Vector3::Zero());
        EXPECT_EQ(result.force, Vector3::Zero());
        EXPECT_EQ(result.torque, Vector3::Zero());
      }
    }
  }
}

// Without the cap acting, the forces of all pairs cancel and so do their moments about the origin with the torques:
// Σ Fᵢ = 0 and Σ (rᵢ × Fᵢ + Tᵢ) = 0 to round-off, 1e-13 of Σ|Fᵢ| and Σ(|rᵢ × Fᵢ| + |Tᵢ|).
TEST(MagnetDipoleSamples, DirectSumConservesMomentumAndAngularMomentum) {
  for (const std::vector<GroupedDipoleSample>& samples : {uniformCube(200, 1), magnetLattice(3, 2)}) {
    const std::vector<SampleInteraction> results = directInteractions(samples, 0, kMu0);
    Vector3 force = Vector3::Zero(), angular = Vector3::Zero();
    double forceScale = 0, angularScale = 0;
    for (size_t i = 0; i < samples.size(); ++i) {
      const Vector3 moment = samples[i].position.cross(results[i].force);
      force += results[i].force;
      angular += moment + results[i].torque;
      forceScale += results[i].force.norm();
      angularScale += moment.norm() + results[i].torque.norm();
    }
    EXPECT_LT(force.norm(), 1e-13 * forceScale);
    EXPECT_LT(angular.norm(), 1e-13 * angularScale);
  }
}

// θ = 0 opens every cell: the tree then sums the same pairs as the direct sum, in another order (1e-12 relative).
TEST(MagnetDipoleSamples, TreeWithoutExpansionsIsTheDirectSum) {
  const std::vector<GroupedDipoleSample> samples = magnetLattice(3, 5);
  const std::vector<SampleInteraction> direct = directInteractions(samples, 1e-3, kMu0);
  const std::vector<SampleInteraction> tree = treeInteractions(samples, 1e-3, kMu0, 0);
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_LT(relativeError(tree[i].field, direct[i].field), 1e-12);
    EXPECT_LT(relativeError(tree[i].force, direct[i].force), 1e-12);
    EXPECT_LT(relativeError(tree[i].torque, direct[i].torque), 1e-12);
  }
}

// The tree's forces against the direct sum at θ = 0.2, 0.3, 0.4 on three distributions: 1000 single-sample bodies
// uniform in a cube, two balls of 400 samples 1 cm apart, 4³ touching 27-sample magnets of random directions. The
// bounds
// are twice the errors measured (those in magnetics/dipole_samples.h); one missing or wrong term of the expansion
// multiplies them by 10 or more.
TEST(MagnetDipoleSamples, TreeForcesMatchTheDirectSumWithinTheStatedError) {
  struct Case {
    const char* name;
    std::vector<GroupedDipoleSample> samples;
    SampleForceErrors measured[3];  // at θ = 0.2, 0.3, 0.4
  };
  const Case cases[] = {
      {"uniform cube", uniformCube(1000, 3),
       {{8.1e-9, 3.7e-4, 8.1e-9}, {1.4e-7, 2.6e-3, 1.4e-7}, {8.1e-7, 4.5e-2, 8.1e-7}}},
      {"two clusters", twoClusters(400, 4),
       {{3.7e-4, 2.0e-3, 1.1e-4}, {3.1e-3, 1.4e-2, 9.9e-4}, {1.2e-2, 5.0e-2, 1.6e-3}}},
      {"magnet lattice", magnetLattice(4, 6),
       {{3.8e-5, 7.5e-4, 3.6e-5}, {7.7e-4, 2.3e-2, 5.6e-4}, {5.7e-3, 0.23, 1.6e-3}}}};
  const double angles[] = {0.2, 0.3, 0.4};
  for (const Case& test : cases) {
    const std::vector<SampleInteraction> direct = directInteractions(test.samples, 0, kMu0);
    for (int a = 0; a < 3; ++a) {
      SCOPED_TRACE(::testing::Message() << test.name << ", θ = " << angles[a]);
      const SampleForceErrors errors =
          sampleForceErrors(test.samples, treeInteractions(test.samples, 0, kMu0, angles[a]), direct);
      EXPECT_LT(errors.rms, 2 * test.measured[a].rms);
      EXPECT_LT(errors.max, 2 * test.measured[a].max);
      EXPECT_LT(errors.magnets, 2 * test.measured[a].magnets);
    }
  }
}

// The result does not depend on the thread count, bit for bit.
TEST(MagnetDipoleSamples, ResultsAreTheSameWhateverTheThreadCount) {
  const std::vector<GroupedDipoleSample> samples = magnetLattice(4, 7);
  const ParallelLoop serial(1), two(2);
  const auto same = [](const std::vector<SampleInteraction>& a, const std::vector<SampleInteraction>& b) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].field != b[i].field || a[i].force != b[i].force || a[i].torque != b[i].torque) return false;
    }
    return a.size() == b.size();
  };
  const std::vector<SampleInteraction> tree = treeInteractions(samples, 0, kMu0, 0.5, &serial);
  EXPECT_TRUE(same(tree, treeInteractions(samples, 0, kMu0, 0.5, &two)));
  EXPECT_TRUE(same(tree, treeInteractions(samples, 0, kMu0, 0.5)));
  const std::vector<SampleInteraction> direct = directInteractions(samples, 0, kMu0, &serial);
  EXPECT_TRUE(same(direct, directInteractions(samples, 0, kMu0, &two)));
}

// DipoleSampleTree: at θ = 0 the direct sum (1e-12, another order of the same terms); at θ = 0.3 its field is linear
// in the moments to round-off (1e-13 of the field; the |m|-weighted centres of treeInteractions would not be), and
// its forces on the magnet lattice at the built positions and at positions moved by up to 1e-4 m (2 % of the spacing)
// are within twice the errors magnetics/dipole_samples.h states for treeInteractions at θ = 0.3 on this lattice (rms
// 7.7e-4, net 5.6e-4): the mean-position centres measured rms 7.9e-4 and net 5.3e-4, built and moved alike.
TEST(MagnetDipoleSamples, AKeptTreeIsLinearInTheMomentsAndFollowsItsSamples) {
  const std::vector<GroupedDipoleSample> samples = magnetLattice(4, 8);
  std::vector<Vector3> positions, moments, others;
  std::vector<int> groups;
  std::mt19937 random(9);
  std::uniform_real_distribution<double> shift(-1e-4, 1e-4);
  for (const GroupedDipoleSample& sample : samples) {
    positions.push_back(sample.position);
    moments.push_back(sample.moment);
    others.push_back(sample.moment.norm() * randomUnit(random));
    groups.push_back(sample.group);
  }
  const DipoleSampleTree exact(positions, groups, 0);
  const std::vector<SampleInteraction> direct = directInteractions(samples, 0, kMu0);
  const std::vector<SampleInteraction> opened = exact.interactions(positions, moments, kMu0);
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_LT(relativeError(opened[i].force, direct[i].force), 1e-12);
    EXPECT_LT(relativeError(opened[i].torque, direct[i].torque), 1e-12);
  }
  const DipoleSampleTree tree(positions, groups, 0.3);
  std::vector<Vector3> combined(moments.size());
  for (size_t i = 0; i < moments.size(); ++i) combined[i] = 2 * moments[i] - others[i];
  const std::vector<Vector3> a = tree.fields(positions, moments), b = tree.fields(positions, others);
  const std::vector<Vector3> sum = tree.fields(positions, combined);
  for (size_t i = 0; i < moments.size(); ++i) EXPECT_LT(relativeError(sum[i], 2 * a[i] - b[i]), 1e-13);
  std::vector<GroupedDipoleSample> moved = samples;
  std::vector<Vector3> movedPositions = positions;
  for (size_t i = 0; i < samples.size(); ++i) {
    movedPositions[i] += testing::randomVector3(shift, random);
    moved[i].position = movedPositions[i];
  }
  const SampleForceErrors built =
      sampleForceErrors(samples, tree.interactions(positions, moments, kMu0), direct);
  const SampleForceErrors followed = sampleForceErrors(moved, tree.interactions(movedPositions, moments, kMu0),
                                                       directInteractions(moved, 0, kMu0));
  for (const SampleForceErrors& errors : {built, followed}) {
    EXPECT_LT(errors.rms, 1.5e-3);
    EXPECT_LT(errors.magnets, 1.1e-3);
  }
}

// A cluster of 30 dipoles of random directions in a ball of radius b, seen from b/θ: its expansion (total moment, first
// and second moments) against the sum of its dipoles. The first term left out is third order: the error falls 8-fold
// (±15 %) as the distance doubles from b/0.125; had a moment been left out or been wrong, it would fall 4- or 2-fold.
// At θ = 0.25 the errors are 1.6e-2 (field) and 5.1e-2 (force) measured, bounded by twice that: the dipoles' directions
// are random, so their total moment is small against the moments beyond it.
TEST(MagnetDipoleSamples, AFarClusterActsAsItsExpansion) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> coordinate(-1, 1);
  std::vector<GroupedDipoleSample> cluster;
  while (cluster.size() < 30) {
    const Vector3 offset = testing::randomVector3(coordinate, random);
    if (offset.norm() <= 1) cluster.push_back({Vector3(0.3, 0.1, -0.2) + 0.01 * offset, randomUnit(random), 0});
  }
  const DipoleCluster expansion = dipoleCluster(cluster);
  const Vector3 probeMoment(0.2, 0.7, -0.4);
  const auto errors = [&](double angle) {
    const Vector3 probe = expansion.centre + expansion.radius / angle * kSkewDirection;
    std::vector<GroupedDipoleSample> samples = cluster;
    samples.push_back({probe, probeMoment, 1});
    const SampleInteraction direct = directInteractions(samples, 0, kMu0).back();
    const FieldAndGradient far = clusterField(expansion, probe);
    return std::pair{relativeError(far.field, direct.field),
                     relativeError(kMu0 * far.gradient * probeMoment, direct.force)};
  };
  const auto [fieldError, forceError] = errors(0.25);
  EXPECT_LT(fieldError, 3.2e-2);  // measured 1.6e-2
  EXPECT_LT(forceError, 0.1);     // measured 5.1e-2
  const auto [fieldNear, forceNear] = errors(0.125);
  const auto [fieldFar, forceFar] = errors(0.0625);
  EXPECT_NEAR(fieldNear / fieldFar, 8, 1.2);  // measured 7.44 and 7.63
  EXPECT_NEAR(forceNear / forceFar, 8, 1.2);
}

}  // namespace
}  // namespace lodestone
