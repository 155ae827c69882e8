// The force between two 0.1 m cubes magnetised along z (M = 1e6 A/m, ≈ 1.26 T), coaxial and offset sideways, at
// gaps from 0.1 mm to 150 mm: the quadrature of the closed-form field (magnetics/cuboid_force.h) against sampling
// each cube by n×n×n point dipoles (the DIPOLE law's clumps), and what each evaluation costs. Prints; asserts nothing.
//
//   magnet_cuboid_benchmark
//
// The reference is the quadrature asked for 1e-10 (within 2.6e-11 of Akoun & Yonnet's closed form, unit tests);
// "1e-6" is the quadrature asked for 1e-6 against it; the dipole columns are the sampled force's component along
// the reference, relative to it (+: the dipoles pull harder). Measured (Release, 2-core VM shared with a build):
//   coaxial, gap   0.1 mm: n = 1, 2, 3, 5, 8 → +18.2 %, +30.1 %, +33.9 %, +36.7 %, +37.7 %
//                  1 mm:                        +21.5 %, +30.8 %, +32.1 %, +30.3 %, +25.8 %
//                  10 mm:                       +27.5 %, +18.0 %, +10.1 %,  +3.1 %,  +0.5 %
//                  150 mm:                       +2.4 %,  +0.14 %, +0.03 %, 0.00 %,  0.00 %
//   Sampling converges only once the dipoles are closer together than the gap (n ≳ size/gap): at 1 mm even 8³
//   dipoles per cube are 26 % off, and cost 5 ms per evaluation, where the quadrature takes 4 ms for 1e-6 (6.6 ms for
//   1e-8) at 1 mm, 10 ms (15 ms) at 0.1 mm, and 0.06 ms at 50 mm and beyond.
#include <chrono>
#include <cstdio>
#include <vector>

#include "magnetics/cuboid_force.h"
#include "plugins/builtin/dipole.h"

using namespace lodestone;

namespace {

const Cuboid kCube{{0.05, 0.05, 0.05}, {0, 0, 1e6}};

// Force on `target` (centre at `position`, axes parallel to the source's) from `source`, each cut into n×n×n equal
// cells carrying a dipole M·V/n³ at the cell's centre.
Vector3 sampledDipoleForce(const Cuboid& source, const Cuboid& target, const Vector3& position, int n) {
  const auto cellCentres = [n](const Cuboid& cuboid, const Vector3& centre) {
    std::vector<Vector3> points;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        for (int k = 0; k < n; ++k) {
          const Vector3 cell = (2 * Vector3(i, j, k) + Vector3::Ones()) / n - Vector3::Ones();  // in [−1, 1]
          points.push_back(centre + cuboid.halfExtents.cwiseProduct(cell));
        }
      }
    }
    return points;
  };
  const double cells = n * n * n;
  const Vector3 sourceMoment = 8 * source.halfExtents.prod() / cells * source.magnetisation;
  const Vector3 targetMoment = 8 * target.halfExtents.prod() / cells * target.magnetisation;
  Vector3 force = Vector3::Zero();
  for (const Vector3& from : cellCentres(source, Vector3::Zero())) {
    for (const Vector3& to : cellCentres(target, position)) {
      force += magneticDipoleInteraction(sourceMoment, from, targetMoment, to, 0.0, kVacuumPermeability).forceOn2;
    }
  }
  return force;
}

// Seconds per call of `call`, repeated until a quarter of a second has passed.
template <class Call>
double secondsPerCall(Call call) {
  const auto start = std::chrono::steady_clock::now();
  long calls = 0;
  double elapsed = 0;
  do {
    call();
    ++calls;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (elapsed < 0.25);
  return elapsed / static_cast<double>(calls);
}

}  // namespace

int main() {
  const double gaps[] = {1e-4, 1e-3, 1e-2, 5e-2, 0.15};
  const int samplings[] = {1, 2, 3, 5, 8};
  for (const Vector3& sideways : {Vector3(0, 0, 0), Vector3(0.03, 0.015, 0)}) {
    std::printf("\nTwo 0.1 m cubes, M = 1e6 A/m along z, target offset sideways by (%g, %g) m\n", sideways.x(),
                sideways.y());
    std::printf("%9s %14s %10s | %9s", "gap [mm]", "|F| [N]", "evals", "1e-6");
    for (const int n : samplings) std::printf(" | n=%d dipoles", n);
    std::printf("\n");
    for (const double gap : gaps) {
      const MagnetPose pose{Matrix3::Identity(), sideways + Vector3(0, 0, 0.1 + gap)};
      const MagnetInteraction reference = cuboidInteraction(kCube, kCube, pose, 1e-10);
      const MagnetInteraction quick = cuboidInteraction(kCube, kCube, pose, 1e-6);
      const double magnitude = reference.force.norm();
      std::printf("%9.1f %14.6f %10ld | %9.1e", 1e3 * gap, magnitude, reference.fieldEvaluations,
                  (quick.force - reference.force).norm() / magnitude);
      for (const int n : samplings) {
        const Vector3 sampled = sampledDipoleForce(kCube, kCube, pose.position, n);
        // Signed along the reference: + means the dipoles pull harder than the magnets do.
        std::printf(" | %+11.2f%%", 100 * (sampled.dot(reference.force) / (magnitude * magnitude) - 1));
      }
      std::printf("\n");
    }
  }

  std::printf("\nTime per evaluation (coaxial), microseconds\n%9s %12s %12s %12s", "gap [mm]", "quad 1e-4",
              "quad 1e-6", "quad 1e-8");
  for (const int n : samplings) std::printf(" %9s n=%d", "", n);
  std::printf("\n");
  volatile double sink = 0;
  for (const double gap : gaps) {
    const MagnetPose pose{Matrix3::Identity(), Vector3(0, 0, 0.1 + gap)};
    std::printf("%9.1f", 1e3 * gap);
    for (const double accuracy : {1e-4, 1e-6, 1e-8}) {
      std::printf(" %12.1f", 1e6 * secondsPerCall([&] {
        sink = sink + cuboidInteraction(kCube, kCube, pose, accuracy).force.z();
      }));
    }
    for (const int n : samplings) {
      std::printf(" %13.1f", 1e6 * secondsPerCall([&] {
        sink = sink + sampledDipoleForce(kCube, kCube, pose.position, n).z();
      }));
    }
    std::printf("\n");
  }
  return 0;
}
