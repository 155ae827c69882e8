// What the magnetics tests share: errors, volumes, a direction without symmetry, a field's derivatives, the two-dipole
// limit of an interaction, Akoun & Yonnet's force between parallel cuboids, the loads on a magnetised volume.
#pragma once

#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include "magnetics/cuboid_field.h"
#include "magnetics/cylinder_field.h"
#include "magnetics/polyhedron_field.h"
#include "magnetics/surface_charge_force.h"
#include "plugins/builtin/dipole.h"
#include "solver/core/quadrature.h"

namespace lodestone::magnet_testing {

inline double relativeError(const Vector3& value, const Vector3& reference) {
  return (value - reference).norm() / reference.norm();
}

// Akoun & Yonnet (IEEE Trans. Magn. 20(5), 1984): the force on cuboid 2 (half-extents A, B, C, centre offset
// (α, β, γ)) from cuboid 1 (a, b, c), both magnetised along z, edges parallel: μ0·M1·M2/(4π) times a sum over the
// 64 corner pairs of φ(U, V, W), U = α + (±A) − (±a) and so on. An independent reference: it integrates the charge
// model in closed form, where cuboidInteraction integrates the closed-form field numerically.
inline Vector3 akounYonnetForce(const Vector3& halfExtents1, double magnetisation1, const Vector3& halfExtents2,
                                double magnetisation2, const Vector3& offset) {
  // ln(r − u) without the cancellation of r − u for u > 0, r² = u² + others².
  const auto logRMinus = [](double r, double u, double othersSquared) {
    return std::log(u > 0 ? othersSquared / (r + u) : r - u);
  };
  Vector3 sum = Vector3::Zero();
  for (int corners = 0; corners < 64; ++corners) {  // six signs ±1, one per bit: i, j, k, l, p, q
    const auto sign = [corners](int bit) { return (corners >> bit & 1) != 0 ? -1.0 : 1.0; };
    const double u = offset.x() + sign(1) * halfExtents2.x() - sign(0) * halfExtents1.x();
    const double v = offset.y() + sign(3) * halfExtents2.y() - sign(2) * halfExtents1.y();
    const double w = offset.z() + sign(5) * halfExtents2.z() - sign(4) * halfExtents1.z();
    const double r = std::sqrt(u * u + v * v + w * w);
    const double logRu = logRMinus(r, u, v * v + w * w), logRv = logRMinus(r, v, u * u + w * w);
    const double arctangent = w == 0 ? 0 : std::atan(u * v / (r * w));
    const Vector3 phi(0.5 * (v * v - w * w) * logRu + u * v * logRv + v * w * arctangent + 0.5 * r * u,
                      0.5 * (u * u - w * w) * logRv + u * v * logRu + u * w * arctangent + 0.5 * r * v,
                      -u * w * logRu - v * w * logRv + u * v * arctangent - r * w);
    sum += sign(0) * sign(1) * sign(2) * sign(3) * sign(4) * sign(5) * phi;
  }
  return kVacuumPermeability * magnetisation1 * magnetisation2 / (4 * std::numbers::pi) * sum;
}

// H of a point dipole m at the origin.
inline Vector3 dipoleField(const Vector3& moment, const Vector3& point) {
  const double distance = point.norm();
  const Vector3 n = point / distance;
  return (3 * n * n.dot(moment) - moment) / (4 * std::numbers::pi * distance * distance * distance);
}

inline double volume(const Cuboid& cuboid) { return 8 * cuboid.halfExtents.prod(); }
inline double volume(const Cylinder& cylinder) {
  return std::numbers::pi * cylinder.radius * cylinder.radius * 2 * cylinder.halfLength;
}

// A direction with no symmetry of a cuboid's, so no component vanishes by accident.
inline const Vector3 kSkewDirection = Vector3(0.3, -0.5, 0.8).normalized();

// ∂Hᵢ/∂xⱼ at `point` by central differences of `step`.
template <class Field>
Matrix3 fieldGradient(const Field& field, const Vector3& point, double step) {
  Matrix3 gradient;
  for (int j = 0; j < 3; ++j) {
    const Vector3 offset = step * Vector3::Unit(j);
    gradient.col(j) = (field(point + offset) - field(point - offset)) / (2 * step);
  }
  return gradient;
}

// The curl and the divergence a field's gradient gives, each as a fraction of the gradient's size.
inline std::pair<double, double> curlAndDivergence(const Matrix3& gradient) {
  const Vector3 curl(gradient(2, 1) - gradient(1, 2), gradient(0, 2) - gradient(2, 0), gradient(1, 0) - gradient(0, 1));
  return {curl.norm() / gradient.norm(), std::fabs(gradient.trace()) / gradient.norm()};
}

// The relative errors of an interaction's force and torque against the DIPOLE law's between point moments
// (plugins/builtin/dipole.h, tested on its own): the source's moment at the origin, the target's at `targetPosition`.
inline std::pair<double, double> errorsAgainstDipoles(const MagnetInteraction& interaction,
                                                      const Vector3& sourceMoment, const Vector3& targetMoment,
                                                      const Vector3& targetPosition) {
  const DipoleInteraction dipoles = magneticDipoleInteraction(sourceMoment, Vector3::Zero(), targetMoment,
                                                              targetPosition, 0.0, kVacuumPermeability);
  return {relativeError(interaction.force, dipoles.forceOn2), relativeError(interaction.torque, dipoles.momentOn2)};
}

// The field is finite at `point`, and within 1e-6 of that value at `nudge` from it in three directions: where a closed
// form's terms are singular one by one but the field is smooth, a lost or doubled term shows as an O(1) jump.
template <class Field>
void expectContinuousAt(const Field& field, const Vector3& point, double nudge) {
  SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
  const Vector3 value = field(point);
  ASSERT_TRUE(value.allFinite());
  for (const Vector3& direction : {Vector3(1, 1, 1), Vector3(-1, 1, -1), Vector3(1, -1, -1)}) {
    EXPECT_LT(relativeError(field(point + nudge * direction), value), 1e-6);
  }
}

// `errors(sizes)`: the force and torque errors against the two-dipole limit at that many sizes apart. At 50 sizes they
// are below the bounds given, and they fall by `ratio`, within 5 %, as the distance doubles from `near`: the order of
// the first correction the dipoles leave out.
template <class Errors>
void expectTheDipoleLimit(const Errors& errors, double forceBound, double torqueBound, double near, double ratio) {
  const auto [forceError, torqueError] = errors(50);
  EXPECT_LT(forceError, forceBound);
  EXPECT_LT(torqueError, torqueBound);
  const auto [forceNear, torqueNear] = errors(near);
  const auto [forceFar, torqueFar] = errors(2 * near);
  EXPECT_NEAR(forceNear / forceFar, ratio, 0.05 * ratio);
  EXPECT_NEAR(torqueNear / torqueFar, ratio, 0.05 * ratio);
}

// The cuboid as a closed triangle mesh, each face cut into cuts × cuts squares of two triangles each, the vertices
// shared between faces (their coordinates come out bit-identical from either face, so a map merges them).
inline Polyhedron cuboidMesh(const Cuboid& cuboid, int cuts) {
  Polyhedron mesh;
  mesh.magnetisation = cuboid.magnetisation;
  std::map<std::array<double, 3>, int> indexOf;
  const auto vertex = [&](const Vector3& point) {
    const auto [entry, added] = indexOf.try_emplace({point.x(), point.y(), point.z()}, mesh.vertices.size());
    if (added) mesh.vertices.push_back(point);
    return entry->second;
  };
  const Vector3& h = cuboid.halfExtents;
  for (int normal = 0; normal < 3; ++normal) {
    const int i = (normal + 1) % 3, j = (normal + 2) % 3;  // i × j = the face's normal
    for (const double side : {1.0, -1.0}) {
      const auto at = [&](int a, int b) {
        Vector3 point = Vector3::Zero();
        point[normal] = side * h[normal];
        point[i] = h[i] * (-1 + 2.0 * a / cuts);
        point[j] = h[j] * (-1 + 2.0 * b / cuts);
        return vertex(point);
      };
      for (int a = 0; a < cuts; ++a) {
        for (int b = 0; b < cuts; ++b) {
          // Counter-clockwise in (i, j), so outward on the + side; the − side runs the other way.
          std::array<int, 3> first{at(a, b), at(a + 1, b), at(a + 1, b + 1)};
          std::array<int, 3> second{at(a, b), at(a + 1, b + 1), at(a, b + 1)};
          if (side < 0) {
            std::swap(first[1], first[2]);
            std::swap(second[1], second[2]);
          }
          mesh.triangles.push_back(first);
          mesh.triangles.push_back(second);
        }
      }
    }
  }
  return mesh;
}

// The octahedron with vertices ±u, ±v, ±w (det[u v w] > 0): the image of the regular one under a linear map, so convex
// and centrosymmetric, of volume (4/3)·det[u v w]. A face (±u, ±v, ±w) is counter-clockwise seen from outside when
// the product of its signs is positive, as for the regular octahedron (whose face (x, y, z) has the normal (1, 1, 1)).
inline Polyhedron octahedron(const Vector3& u, const Vector3& v, const Vector3& w, const Vector3& magnetisation) {
  Polyhedron mesh{{u, -u, v, -v, w, -w}, {}, magnetisation};
  for (int signs = 0; signs < 8; ++signs) {
    const int a = signs & 1, b = signs >> 1 & 1, c = signs >> 2 & 1;  // 1: the vertex's negative
    if ((a + b + c) % 2 == 0) {
      mesh.triangles.push_back({a, 2 + b, 4 + c});
    } else {
      mesh.triangles.push_back({a, 4 + c, 2 + b});
    }
  }
  return mesh;
}

// A point of a volume rule: its place relative to the body's centre and its share of the volume (m³).
struct VolumePoint {
  Vector3 lever = Vector3::Zero();
  double weight = 0;
};

// The loads on a body magnetised uniformly with M in an outside field H, over its volume: F = μ0 ∫ (M·∇)H dV and,
// about its centre c, T = μ0 ∫ [(r − c) × (M·∇)H + M × H] dV, (M·∇)H by central differences of `step` along M. An
// independent reference for the surface-charge integration, which is this by the divergence theorem.
template <class Field>
std::pair<Vector3, Vector3> volumeLoads(const Field& field, const Vector3& centre, const Vector3& magnetisation,
                                        const std::vector<VolumePoint>& points, double step) {
  const Vector3 along = magnetisation.normalized();
  Vector3 force = Vector3::Zero(), torque = Vector3::Zero();
  for (const VolumePoint& point : points) {
    const Vector3 at = centre + point.lever;
    const Vector3 derivative =
        (field(at + step * along) - field(at - step * along)) / (2 * step) * magnetisation.norm();
    force += point.weight * derivative;
    torque += point.weight * (point.lever.cross(derivative) + magnetisation.cross(field(at)));
  }
  return {kVacuumPermeability * force, kVacuumPermeability * torque};
}

// A volume rule over a body parametrised by two coordinates u, v ∈ [−1, 1] and an azimuth φ: Gauss–Legendre with
// `uPoints` and `vPoints` nodes in u and v, the trapezoid rule (periodic) with `azimuths` points in φ. `place(u, v, φ)`
// gives the point in the body's axes and the Jacobian dV/(du·dv·dφ) there; the rule's points are turned by `rotation`.
// When the body's parametrisation is analytic and the field over it is, the rule converges geometrically.
template <class Place>
std::vector<VolumePoint> azimuthalVolumeRule(int uPoints, int vPoints, int azimuths, const Matrix3& rotation,
                                             const Place& place) {
  const GaussLegendreRule uRule = gaussLegendreRule(uPoints), vRule = gaussLegendreRule(vPoints);
  std::vector<VolumePoint> rule;
  for (size_t i = 0; i < uRule.nodes.size(); ++i) {
    for (size_t j = 0; j < vRule.nodes.size(); ++j) {
      for (int k = 0; k < azimuths; ++k) {
        const double phi = 2 * std::numbers::pi * k / azimuths;
        const auto [at, jacobian] = place(uRule.nodes[i], vRule.nodes[j], phi);
        const double weight = uRule.weights[i] * vRule.weights[j] * 2 * std::numbers::pi / azimuths * jacobian;
        rule.push_back({rotation * at, weight});
      }
    }
  }
  return rule;
}

// The loads on a body magnetised with `magnetisation` (its axes) at `pose` in a cuboid's field, over the volume rule
// `rule` (already turned by the pose), (M·∇)H by central differences of 1e-5 of the distance `reach` from the body to
// the cuboid's edges (truncation ~1e-10, round-off ~1e-11).
inline std::pair<Vector3, Vector3> cuboidVolumeLoads(const Cuboid& source, const Vector3& magnetisation,
                                                     const MagnetPose& pose, const std::vector<VolumePoint>& rule,
                                                     double reach) {
  return volumeLoads([&source](const Vector3& x) { return cuboidField(source, x); }, pose.position,
                     pose.rotation * magnetisation, rule, 1e-5 * reach);
}

}  // namespace lodestone::magnet_testing
