// A block of soft magnetic spheres above a permanent one, for the octree's tests and benchmark against the direct sums
// (magnetics/induced_magnetisation.h, InductionSettings::treeFrom), and the errors of one set of loads against another.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "magnetics/induced_magnets.h"
#include "support/random_vectors.h"

namespace lodestone::soft_block {

// `side`³ nickel-like spheres (χ = 100, radius 5 mm) on a lattice of pitch 12 mm, each sampled by `perAxis`³ grid cells
// (perAxis 2: 8 samples, at ±r/2), each centre jittered by up to 0.5 mm so that no two bodies are alike, under a
// permanent sphere of radius 30 mm magnetised at 1e6 A/m along z, 20 mm below the block. The permanent sphere's field
// is a point dipole's (closed form, cheap): the cost measured is the solve's and the soft–soft sums'.
struct Scene {
  std::vector<PlacedMagnet> permanent;
  std::vector<SoftMagnet> soft;
  std::vector<MagnetPose> poses;
  int samples() const {
    int count = 0;
    for (const SoftMagnet& magnet : soft) count += static_cast<int>(magnet.samples.size());
    return count;
  }
};

inline Scene scene(int side, int perAxis = 2, unsigned seed = 21) {
  const double radius = 0.005, pitch = 0.012;
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-5e-4, 5e-4);
  Scene result;
  MagnetShape ball;
  ball.kind = MagnetShape::Kind::kSphere;
  ball.radius = 0.03;
  const double half = 0.5 * (side - 1) * pitch;
  const Vector3 below(0, 0, -half - radius - 0.02 - ball.radius);  // 20 mm between the surfaces
  result.permanent.push_back(PlacedMagnet{Magnet{ball, Vector3(0, 0, 1e6), 0}, MagnetPose{Matrix3::Identity(), below}});
  MagnetShape sphere;
  sphere.kind = MagnetShape::Kind::kSphere;
  sphere.radius = radius;
  const SoftMagnet nickel = softMagnet(sphere, 100, perAxis);
  for (int a = 0; a < side; ++a) {
    for (int b = 0; b < side; ++b) {
      for (int c = 0; c < side; ++c) {
        const Vector3 centre = pitch * Vector3(a, b, c) - Vector3::Constant(half);
        result.soft.push_back(nickel);
        result.poses.push_back(MagnetPose{Matrix3::Identity(), centre + testing::randomVector3(jitter, random)});
      }
    }
  }
  return result;
}

// Per soft body: the moments' and net forces' errors against a reference, "rms" √(Σ|Δ|²/Σ|ref|²) over the bodies and
// "max" maxᵦ |Δᵦ|/|refᵦ| (large for a body whose pulls nearly cancel: inside the block); "worst" maxᵦ |ΔFᵦ| over the
// rms net force √(Σ|Fᵦ|²/n), the largest error on the scale of the forces; torques by rms alone.
struct LoadErrors {
  double momentRms = 0, momentMax = 0, forceRms = 0, forceMax = 0, forceWorst = 0, torqueRms = 0;
};

inline LoadErrors loadErrors(const InducedMagnetLoads& values, const InducedMagnetLoads& reference) {
  LoadErrors errors;
  double dm = 0, m = 0, df = 0, f = 0, dt = 0, t = 0;
  for (size_t b = 0; b < reference.soft.size(); ++b) {
    const Vector3 momentError = values.softMoments[b] - reference.softMoments[b];
    const Vector3 forceError = values.soft[b].force - reference.soft[b].force;
    const Vector3 torqueError = values.soft[b].torque - reference.soft[b].torque;
    dm += momentError.squaredNorm(), m += reference.softMoments[b].squaredNorm();
    df += forceError.squaredNorm(), f += reference.soft[b].force.squaredNorm();
    dt += torqueError.squaredNorm(), t += reference.soft[b].torque.squaredNorm();
    errors.momentMax = std::max(errors.momentMax, momentError.norm() / reference.softMoments[b].norm());
    errors.forceMax = std::max(errors.forceMax, forceError.norm() / reference.soft[b].force.norm());
    errors.forceWorst = std::max(errors.forceWorst, forceError.norm());
  }
  errors.forceWorst /= std::sqrt(f / static_cast<double>(reference.soft.size()));
  errors.momentRms = std::sqrt(dm / m);
  errors.forceRms = std::sqrt(df / f);
  errors.torqueRms = t > 0 ? std::sqrt(dt / t) : 0;
  return errors;
}

}  // namespace lodestone::soft_block
