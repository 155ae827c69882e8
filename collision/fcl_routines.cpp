// The door to liblodestone_fcl (fcl_routines.h).
#include "fcl_routines.h"

#include "solver/core/modules.h"

namespace lodestone {

const FclRoutines& fclRoutines() {
  static const FclRoutines& routines = *moduleFunction<const FclRoutines*()>(
      "liblodestone_fcl.so", "lodestone_fcl_routines", "FCL, the mesh and convex-pair collision module")();
  return routines;
}

namespace detail {

double fclPair(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
               std::vector<ContactPoint>& points) {
  return fclRoutines().convexPair(a, poseA, b, poseB, margin, points);
}

}  // namespace detail

}  // namespace lodestone
