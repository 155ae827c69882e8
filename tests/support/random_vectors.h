// Random vectors whose components are drawn in a stated order. The arguments of one call are evaluated in an order the
// language leaves open (GCC right to left, clang left to right), so Vector3(d(random), d(random), d(random)) gave the
// two compilers different samples, and the tests whose bounds were measured on GCC's samples failed under clang.
// z is drawn first, then y, then x: the samples those bounds were measured on.
#pragma once

#include <Eigen/Core>

namespace lodestone::testing {

template <class Distribution, class Engine>
Eigen::Vector3d randomVector3(Distribution& distribution, Engine& random) {
  const double z = distribution(random);
  const double y = distribution(random);
  const double x = distribution(random);
  return {x, y, z};
}

}  // namespace lodestone::testing
