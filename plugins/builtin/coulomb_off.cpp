// COULOMB_OFF (MotionSolve): frictionless contact. No parameters; a null coefficient tells Force_Contact to skip
// the tangential force altogether rather than multiply by zero.
#include "builtin_laws.h"

namespace lodestone {

const FrictionLaw& coulombOffLaw() {
  static const FrictionLaw law{
      .keyword = "COULOMB_OFF",
      .summary = "MotionSolve frictionless contact: no tangential force",
  };
  return law;
}

}  // namespace lodestone
