// Every built-in contact law's descriptor, one accessor per law (one file each in this folder). Only the registry
// (plugins/contact_law.cpp) and tests name them; everything else looks laws up by keyword.
#pragma once

#include <cmath>

#include "plugins/contact_law.h"
#include "solver/core/thread_scratch.h"

namespace lodestone {

// δ^e for a law's spring: std::pow's value, kept from the last call on this thread. The Jacobian evaluates a pair's
// law over and over at the depth it was detected at (its velocity columns, and a sphere's rotation columns, leave the
// depth as it is), and pow was a tenth of the 100-sphere pile's run.
inline double penetrationPower(double penetration, double exponent) {
  struct Memo {
    double penetration = -1, exponent = 0, power = 0;
  };
  Memo& last = threadScratch<Memo, struct PenetrationPowerMemo>();
  if (penetration != last.penetration || exponent != last.exponent) {
    last.power = std::pow(penetration, exponent);
    last.penetration = penetration;
    last.exponent = exponent;
  }
  return last.power;
}

// Normal laws.
const NormalLaw& impactLaw();         // IMPACT (MotionSolve)
const NormalLaw& poissonLaw();        // POISSON (MotionSolve)
const NormalLaw& volumeLaw();         // VOLUME (MotionSolve)
const NormalLaw& linearLaw();         // LINEAR (MapleSim)
const NormalLaw& linearLimitedLaw();  // LINEAR_LIMITED (MapleSim)
const NormalLaw& huntCrossleyLaw();   // HUNT_CROSSLEY (MapleSim)
const NormalLaw& smoothLaw();         // SMOOTH (Simscape)
const NormalLaw& dipoleLaw();         // DIPOLE (linear dipole model); its formula is in dipole.h
const NormalLaw& ipcLaw();            // IPC (Westhofen et al. 2024's cubic barrier)
const NormalLaw& expressionNormalLaw();  // EXPRESSION (Simscape's Provided by Input)

// Friction laws.
const FrictionLaw& coulombOnLaw();           // COULOMB_ON (MotionSolve)
const FrictionLaw& coulombDynamicOnlyLaw();  // COULOMB_DYNAMICONLY (MotionSolve)
const FrictionLaw& coulombOffLaw();          // COULOMB_OFF (MotionSolve)
const FrictionLaw& smoothStickSlipLaw();     // SMOOTH_STICK_SLIP (shaped after Simscape)
const FrictionLaw& linearShearLaw();         // LINEAR_SHEAR (PFC linear model's shear spring and slip limit)
const FrictionLaw& expressionFrictionLaw();  // EXPRESSION (Simscape's Provided by Input)

}  // namespace lodestone
