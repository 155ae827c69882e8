// Soft magnets among permanent ones (magnetics/induced_magnets.h), against what does not share its formulas: the
// closed form of a soft sphere on a dipole's axis, the energy −½μ0·Σ m_i·H0(x_i) of linear induced moments
// differenced by position (its own 6×6 solve for two coupled spheres), and the balance of forces and moments.
#include "magnetics/induced_magnets.h"

#include <array>
#include <cmath>
#include <memory>
#include <utility>
#include <numbers>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "magnetics/cuboid_field.h"
#include "magnetics/polyhedron_field.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


MagnetShape sphere(double radius) { return MagnetShape{MagnetShape::Kind::kSphere, radius, 0, Vector3::Zero(), {}}; }
MagnetShape cuboid(const Vector3& half) { return MagnetShape{MagnetShape::Kind::kCuboid, 0, 0, half, {}}; }

Matrix3 turned(double angle, const Vector3& axis) { return Eigen::AngleAxisd(angle, axis.normalized()).matrix(); }

// A permanent sphere of moment m along x at the origin, a soft sphere (radius a, χ) at r on the x axis: H = m/(2πr³)
// there, m_s = α·H with α = 4πa³χ/(χ + 3), and the energy −½μ0·α·H² = −μ0·α·m²/(8π²r⁶) gives the pull
// F = −3μ0·α·m²/(4π²r⁷) along x, the permanent magnet feeling the opposite. Within 1e-12 (round-off: both are the
// point dipole's field and gradient in closed form).
TEST(MagnetInducedMagnets, ASoftSphereOnADipolesAxisIsPulledAsTheClosedFormSays) {
  const double m = 0.8, a = 0.004, r = 0.03;
  for (const double chi : {-0.3, 0.5, 20.0, 5000.0}) {
    const PlacedMagnet permanent{Magnet{sphere(0.005), Vector3(m / volume(sphere(0.005)), 0, 0), 0}, MagnetPose{}};
    const SoftMagnet soft = softMagnet(sphere(a), chi, 0);
    const InducedMagnetLoads loads = inducedMagnetLoads(
        {permanent}, {soft}, {MagnetPose{turned(0.7, Vector3(1, 2, 3)), Vector3(r, 0, 0)}}, InductionSettings{});
    const double alpha = 4 * kPi * std::pow(a, 3) * chi / (chi + 3);
    const double pull = 3 * kVacuumPermeability * alpha * m * m / (4 * kPi * kPi * std::pow(r, 7));
    SCOPED_TRACE(::testing::Message() << "χ " << chi);
    EXPECT_TRUE(loads.induction.converged());
    EXPECT_LT((loads.softMoments[0] - Vector3(alpha * m / (2 * kPi * std::pow(r, 3)), 0, 0)).norm(),
              1e-12 * std::abs(alpha) * m / (2 * kPi * std::pow(r, 3)));
    EXPECT_LT((loads.soft[0].force - Vector3(-pull, 0, 0)).norm(), 1e-12 * std::abs(pull));
    EXPECT_LT((loads.permanent[0].force - Vector3(pull, 0, 0)).norm(), 1e-12 * std::abs(pull));
    EXPECT_LT(loads.soft[0].torque.norm(), 1e-12 * std::abs(pull) * r);  // m_s ∥ H: no couple on a sphere
    EXPECT_LT(loads.permanent[0].torque.norm(), 1e-12 * std::abs(pull) * r);
  }
}

// Two soft spheres coupled to each other near a permanent sphere, solved here by their own 6×6 system; the force on
// each is minus the gradient of W = −½μ0·(m_1·H0(x_1) + m_2·H0(x_2)) (the energy of linear induced moments, their
// mutual induction included), differenced by moving the sphere. Within 1e-7 of the largest force (the differences'
// truncation and round-off are near 1e-9); the moments within 1e-13.
TEST(MagnetInducedMagnets, TwoCoupledSoftSpheresFeelTheGradientOfTheirEnergy) {
  const Vector3 moment(0.3, -0.2, 0.9);
  const PlacedMagnet permanent{Magnet{sphere(0.005), moment / volume(sphere(0.005)), 0}, MagnetPose{}};
  const double a1 = 0.004, a2 = 0.006, chi1 = 40, chi2 = 3;
  const auto alpha = [](double a, double chi) { return 4 * kPi * std::pow(a, 3) * chi / (chi + 3); };
  const auto dipoleBlock = [](const Vector3& d) {
    const double r = d.norm();
    return Matrix3((3 * d * d.transpose() / (r * r) - Matrix3::Identity()) / (4 * kPi * r * r * r));
  };
  const auto solve = [&](const Vector3& x1, const Vector3& x2) {
    Eigen::Matrix<double, 6, 6> matrix = Eigen::Matrix<double, 6, 6>::Identity();
    matrix.block<3, 3>(0, 3) = -alpha(a1, chi1) * dipoleBlock(x1 - x2);
    matrix.block<3, 3>(3, 0) = -alpha(a2, chi2) * dipoleBlock(x2 - x1);
    Eigen::Matrix<double, 6, 1> rhs;
    rhs << alpha(a1, chi1) * dipoleBlock(x1) * moment, alpha(a2, chi2) * dipoleBlock(x2) * moment;
    return Eigen::Matrix<double, 6, 1>(matrix.fullPivLu().solve(rhs));
  };
  const auto energy = [&](const Vector3& x1, const Vector3& x2) {
    const Eigen::Matrix<double, 6, 1> m = solve(x1, x2);
    return -0.5 * kVacuumPermeability *
           (Vector3(m.head<3>()).dot(dipoleBlock(x1) * moment) + Vector3(m.tail<3>()).dot(dipoleBlock(x2) * moment));
  };
  const Vector3 x1(0.012, 0.004, -0.002), x2(0.006, 0.013, 0.004);
  const InducedMagnetLoads loads =
      inducedMagnetLoads({permanent}, {softMagnet(sphere(a1), chi1, 0), softMagnet(sphere(a2), chi2, 0)},
                         {MagnetPose{Matrix3::Identity(), x1}, MagnetPose{turned(1, Vector3(0, 1, 1)), x2}}, {});
  const Eigen::Matrix<double, 6, 1> reference = solve(x1, x2);
  EXPECT_LT((loads.softMoments[0] - reference.head<3>()).norm(), 1e-13 * reference.norm());
  EXPECT_LT((loads.softMoments[1] - reference.tail<3>()).norm(), 1e-13 * reference.norm());
  const double h = 1e-6;
  double largest = 0;
  Vector3 gradient1, gradient2;
  for (int k = 0; k < 3; ++k) {
    const Vector3 step = h * Vector3::Unit(k);
    gradient1[k] = (energy(x1 + step, x2) - energy(x1 - step, x2)) / (2 * h);
    gradient2[k] = (energy(x1, x2 + step) - energy(x1, x2 - step)) / (2 * h);
  }
  largest = std::max(gradient1.norm(), gradient2.norm());
  EXPECT_LT((loads.soft[0].force + gradient1).norm(), 1e-7 * largest) << loads.soft[0].force.transpose();
  EXPECT_LT((loads.soft[1].force + gradient2).norm(), 1e-7 * largest) << loads.soft[1].force.transpose();
  EXPECT_LT((loads.permanent[0].force + loads.soft[0].force + loads.soft[1].force).norm(), 1e-12 * largest);
}

// A soft sphere beside a turned permanent cube: the cube's field gradient is taken by differences of its closed form.
// The force is minus the gradient of −½μ0·α·|H(x)|², differenced here over a step 100 times larger: within 1e-6.
TEST(MagnetInducedMagnets, ASoftSphereBesideACubeFeelsTheGradientOfItsEnergy) {
  const Vector3 half(0.01, 0.01, 0.01), magnetisation(0, 0, 9e5);
  const Matrix3 rotation = turned(0.5, Vector3(1, -1, 2));
  const Vector3 centre(0.001, -0.002, 0.003);
  const PlacedMagnet permanent{Magnet{cuboid(half), magnetisation, 0}, MagnetPose{rotation, centre}};
  const double a = 0.003, chi = 100;
  const double alpha = 4 * kPi * std::pow(a, 3) * chi / (chi + 3);
  const auto energy = [&](const Vector3& x) {
    const Vector3 field = rotation * cuboidField(Cuboid{half, magnetisation}, rotation.transpose() * (x - centre));
    return -0.5 * kVacuumPermeability * alpha * field.squaredNorm();
  };
  for (const Vector3& x : {Vector3(0.004, 0.002, 0.016), Vector3(0.03, -0.01, 0.005)}) {
    const InducedMagnetLoads loads =
        inducedMagnetLoads({permanent}, {softMagnet(sphere(a), chi, 0)}, {MagnetPose{Matrix3::Identity(), x}}, {});
    Vector3 gradient;
    const double h = 1e-6;
    for (int k = 0; k < 3; ++k) {
      gradient[k] = (energy(x + h * Vector3::Unit(k)) - energy(x - h * Vector3::Unit(k))) / (2 * h);
    }
    EXPECT_LT((loads.soft[0].force + gradient).norm(), 1e-6 * gradient.norm()) << x.transpose();
    EXPECT_LT((loads.permanent[0].force + loads.soft[0].force).norm(), 1e-12 * gradient.norm());
  }
}

// An electromagnet switched off (its magnetisation scaled to 0): two soft spheres touching each other feel nothing,
// carry no moment, and the coupled solve is not needed to say so.
TEST(MagnetInducedMagnets, WithoutAFieldTheSoftMagnetsCarryNothing) {
  const PlacedMagnet off{Magnet{cuboid(Vector3(0.01, 0.01, 0.01)), Vector3::Zero(), 0},
                         MagnetPose{Matrix3::Identity(), Vector3::Zero()}};
  const InducedMagnetLoads loads =
      inducedMagnetLoads({off}, {softMagnet(sphere(0.003), 100, 0), softMagnet(sphere(0.003), 100, 2)},
                         {MagnetPose{Matrix3::Identity(), Vector3(0, 0, 0.02)},
                          MagnetPose{Matrix3::Identity(), Vector3(0, 0, 0.026)}},
                         {});
  EXPECT_TRUE(loads.induction.converged());
  EXPECT_EQ(loads.induction.moments.size(), 1u + softMagnet(sphere(0.003), 100, 2).samples.size());
  for (const MagnetLoad& load : {loads.permanent[0], loads.soft[0], loads.soft[1]}) {
    EXPECT_EQ(load.force, Vector3::Zero());
    EXPECT_EQ(load.torque, Vector3::Zero());
  }
  EXPECT_EQ(loads.softMoments[0], Vector3::Zero());
  EXPECT_EQ(loads.softMoments[1], Vector3::Zero());
}

// Permanent magnets of every kind (a sphere, a turned cube, a cylinder, a sampled cube) and soft ones (a sampled cube,
// a box, a sphere, a cylinder), all turned: the forces on all of them add up to zero, and so do the moments about
// the origin (each magnet's torque about its centre plus its centre × its force), to 1e-12 of the largest.
TEST(MagnetInducedMagnets, ForcesAndMomentsBalanceOverAllTheMagnets) {
  std::vector<PlacedMagnet> permanent{
      {Magnet{sphere(0.004), Vector3(1e5, 2e5, 8e5), 0}, MagnetPose{Matrix3::Identity(), Vector3(0, 0, 0)}},
      {Magnet{cuboid(Vector3(0.005, 0.004, 0.006)), Vector3(0, 0, 9e5), 0},
       MagnetPose{turned(0.4, Vector3(1, 0, 1)), Vector3(0.03, 0.001, 0)}},
      {Magnet{MagnetShape{MagnetShape::Kind::kCylinder, 0.004, 0.005, Vector3::Zero(), {}}, Vector3(0, 0, -7e5), 0},
       MagnetPose{turned(1.1, Vector3(0, 1, 0)), Vector3(0, 0.03, 0.002)}},
      {Magnet{cuboid(Vector3::Constant(0.004)), Vector3(6e5, 0, 0), 3},
       MagnetPose{turned(0.2, Vector3(1, 1, 0)), Vector3(-0.025, 0.0, 0.01)}}};
  const std::vector<SoftMagnet> soft{
      softMagnet(cuboid(Vector3(0.004, 0.003, 0.002)), 200, 3), softMagnet(cuboid(Vector3(0.006, 0.002, 0.002)), 50, 0),
      softMagnet(sphere(0.003), 1000, 0),
      softMagnet(MagnetShape{MagnetShape::Kind::kCylinder, 0.002, 0.006, Vector3::Zero(), {}}, 10, 2)};
  const std::vector<MagnetPose> poses{MagnetPose{turned(0.3, Vector3(0, 0, 1)), Vector3(0.015, 0.012, 0)},
                                      MagnetPose{turned(0.9, Vector3(1, 2, 0)), Vector3(0.012, -0.015, 0.004)},
                                      MagnetPose{Matrix3::Identity(), Vector3(-0.01, 0.015, -0.006)},
                                      MagnetPose{turned(2, Vector3(1, 0, 0)), Vector3(-0.012, -0.012, 0.003)}};
  const InducedMagnetLoads loads = inducedMagnetLoads(permanent, soft, poses, {});
  EXPECT_TRUE(loads.induction.converged());
  Vector3 force = Vector3::Zero(), moment = Vector3::Zero();
  double largest = 0, largestMoment = 0;
  const auto add = [&](const MagnetLoad& load, const Vector3& centre) {
    force += load.force;
    moment += load.torque + centre.cross(load.force);
    largest = std::max(largest, load.force.norm());
    largestMoment = std::max(largestMoment, (load.torque + centre.cross(load.force)).norm());
  };
  for (size_t k = 0; k < permanent.size(); ++k) add(loads.permanent[k], permanent[k].pose.position);
  for (size_t s = 0; s < soft.size(); ++s) add(loads.soft[s], poses[s].position);
  EXPECT_GT(largest, 0.01);  // newtons: the soft magnets are pulled
  EXPECT_LT(force.norm(), 1e-12 * largest);
  EXPECT_LT(moment.norm(), 1e-12 * largestMoment);
  EXPECT_GT(loads.soft[1].torque.norm(), 1e-6 * largestMoment);  // the elongated soft box is turned to the field
}

// Inside an InductionDifferencing scope (a Jacobian by differences) the first evaluation is the base, and a state
// that leaves every sample, polarisability and field as the base had them returns the base's loads bit for bit: a soft
// sphere or cube (equal demagnetising factors, so isotropic whatever its turn) turned about its one sample. Those are
// the loads a fresh evaluation gives too (within 1e-12 of the largest); an elongated box turned, or a sphere moved,
// is evaluated afresh (its loads differ from the base's), and a new scope keeps a new base.
TEST(MagnetInducedMagnets, ADifferencedStateLikeTheBaseHasTheBasesLoads) {
  const std::vector<PlacedMagnet> permanent{{Magnet{cuboid(Vector3(0.005, 0.004, 0.006)), Vector3(2e5, 0, 9e5), 0},
                                             MagnetPose{turned(0.4, Vector3(1, 0, 1)), Vector3(0, 0, -0.02)}}};
  const std::vector<SoftMagnet> soft{softMagnet(sphere(0.003), 1000, 0),
                                     softMagnet(cuboid(Vector3::Constant(0.004)), 100, 0),
                                     softMagnet(cuboid(Vector3(0.006, 0.002, 0.002)), 50, 0)};
  const std::vector<MagnetPose> base{MagnetPose{Matrix3::Identity(), Vector3(0.012, 0.004, 0)},
                                     MagnetPose{turned(0.3, Vector3(0, 1, 1)), Vector3(-0.011, 0.006, 0.002)},
                                     MagnetPose{turned(0.9, Vector3(1, 2, 0)), Vector3(0.002, -0.013, 0.004)}};
  const auto largestForce = [](const InducedMagnetLoads& loads) {
    double largest = 0;
    for (const MagnetLoad& load : loads.soft) largest = std::max(largest, load.force.norm());
    return largest;
  };
  const auto difference = [](const InducedMagnetLoads& a, const InducedMagnetLoads& b) {
    double worst = 0;
    for (size_t s = 0; s < a.soft.size(); ++s) {
      worst =
          std::max({worst, (a.soft[s].force - b.soft[s].force).norm(), (a.soft[s].torque - b.soft[s].torque).norm()});
    }
    for (size_t k = 0; k < a.permanent.size(); ++k) {
      worst = std::max({worst, (a.permanent[k].force - b.permanent[k].force).norm(),
                        (a.permanent[k].torque - b.permanent[k].torque).norm()});
    }
    return worst;
  };
  const auto withPose = [&](size_t s, const MagnetPose& pose) {
    std::vector<MagnetPose> poses = base;
    poses[s] = pose;
    return poses;
  };
  const std::vector<std::vector<MagnetPose>> likeTheBase{
      withPose(0, MagnetPose{turned(1e-7, Vector3(1, 2, 3)), base[0].position}),
      withPose(1, MagnetPose{turned(1e-7, Vector3(3, -1, 2)) * base[1].rotation, base[1].position})};
  const std::vector<std::vector<MagnetPose>> unlikeTheBase{
      withPose(2, MagnetPose{turned(1e-3, Vector3(3, -1, 2)) * base[2].rotation, base[2].position}),
      withPose(0, MagnetPose{Matrix3::Identity(), base[0].position + Vector3(1e-7, 0, 0)})};
  std::vector<InducedMagnetLoads> fresh;
  for (const auto& poses : likeTheBase) fresh.push_back(inducedMagnetLoads(permanent, soft, poses, {}));
  for (const auto& poses : unlikeTheBase) fresh.push_back(inducedMagnetLoads(permanent, soft, poses, {}));
  {
    const InductionDifferencing scope;
    const InducedMagnetLoads baseLoads = inducedMagnetLoads(permanent, soft, base, {});
    const double largest = largestForce(baseLoads);
    ASSERT_GT(largest, 1e-3);  // newtons
    for (size_t k = 0; k < likeTheBase.size(); ++k) {
      const InducedMagnetLoads loads = inducedMagnetLoads(permanent, soft, likeTheBase[k], {});
      EXPECT_EQ(difference(loads, baseLoads), 0) << k;
      EXPECT_LT(difference(loads, fresh[k]), 1e-12 * largest) << k;
    }
    for (size_t k = 0; k < unlikeTheBase.size(); ++k) {
      const InducedMagnetLoads loads = inducedMagnetLoads(permanent, soft, unlikeTheBase[k], {});
      EXPECT_GT(difference(loads, baseLoads), 1e-9 * largest) << k;
      EXPECT_LT(difference(loads, fresh[likeTheBase.size() + k]), 1e-12 * largest) << k;
    }
  }
  const InductionDifferencing another;
  const std::vector<MagnetPose>& moved = unlikeTheBase[1];
  EXPECT_LT(difference(inducedMagnetLoads(permanent, soft, moved, {}), fresh.back()),
            1e-12 * largestForce(fresh.back()));
}

// A box as 12 outward triangles about its centre.
Polyhedron meshBox(const Vector3& half) {
  Polyhedron box;
  for (int k = 0; k < 8; ++k) {
    box.vertices.push_back(Vector3(k & 1 ? half.x() : -half.x(), k & 2 ? half.y() : -half.y(),
                                   k & 4 ? half.z() : -half.z()));
  }
  box.triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                   {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return box;
}

TEST(MagnetInducedMagnets, AMeshsInsideIsWhereItsWindingNumberIsOne) {
  const Polyhedron box = meshBox(Vector3(0.01, 0.02, 0.03));
  EXPECT_TRUE(insidePolyhedron(box, Vector3::Zero()));
  EXPECT_TRUE(insidePolyhedron(box, Vector3(0.0099, -0.0199, 0.0299)));
  EXPECT_FALSE(insidePolyhedron(box, Vector3(0.0101, 0, 0)));
  EXPECT_FALSE(insidePolyhedron(box, Vector3(0, 0, -0.0301)));
  EXPECT_FALSE(insidePolyhedron(box, Vector3(1, 2, 3)));
  Polyhedron inward = box;  // wound the wrong way: its winding number is −1 inside
  for (std::array<int, 3>& triangle : inward.triangles) std::swap(triangle[1], triangle[2]);
  EXPECT_FALSE(insidePolyhedron(inward, Vector3::Zero()));
}

// A soft mesh's demagnetising factors come from its samples: for a 1:2:3 box as 12 triangles, against Aharoni's
// closed form (prismDemagnetisingFactors), the largest error of the three over the smallest (the one a soft magnet's
// χ_eff ≈ 1/N is most sensitive to) falls as n grows. Measured: n = 4: 8.9e-2, n = 8: 2.9e-2, n = 16: 8.8e-3 (about
// n^−1.7: the midpoint rule on a field with logarithms at the edges). The grid over the box's vertices is the Box's.
// Its principal axes are the box's edges.
TEST(MagnetInducedMagnets, ASoftMeshsDemagnetisingFactorsComeFromItsSamples) {
  const Vector3 half(0.01, 0.02, 0.03);
  const MagnetShape mesh{MagnetShape::Kind::kPolyhedron, 0, 0, Vector3::Zero(),
                         std::make_shared<const Polyhedron>(meshBox(half))};
  const Vector3 exact = prismDemagnetisingFactors(half);
  double previous = 1;
  for (const int n : {4, 8, 16}) {
    const SoftMagnet soft = softMagnet(mesh, 100, n);
    EXPECT_EQ(soft.samples.size(), softMagnet(cuboid(half), 100, n).samples.size());
    // Eigenvalues come in increasing order: along z, y, x for this box.
    const Vector3 factors(soft.demagnetisingFactors[2], soft.demagnetisingFactors[1], soft.demagnetisingFactors[0]);
    const double error = (factors - exact).cwiseAbs().maxCoeff() / exact.minCoeff();
    SCOPED_TRACE(::testing::Message() << "n " << n << ": " << factors.transpose() << " vs " << exact.transpose());
    EXPECT_NEAR(factors.sum(), 1, 1e-14);
    EXPECT_NEAR(std::abs(soft.demagnetisingAxes(0, 2)), 1, 1e-12);  // the largest factor along x, the shortest edge
    ::testing::Test::RecordProperty("factor_error_n" + std::to_string(n), std::to_string(error));
    EXPECT_LT(error, 0.4 * previous);
    EXPECT_LT(error, 1 / std::pow(n, 1.5));
    previous = error;
  }
}

}  // namespace
}  // namespace lodestone
