// Every built-in contact law's descriptor, one accessor per law (one file each in this folder). Only the registry
// (plugins/contact_law.cpp) and tests name them; everything else looks laws up by keyword.
#pragma once

#include "plugins/contact_law.h"

namespace lodestone {

// Normal laws.
const NormalLaw& impactLaw();         // IMPACT (MotionSolve)
const NormalLaw& poissonLaw();        // POISSON (MotionSolve)
const NormalLaw& volumeLaw();         // VOLUME (MotionSolve)
const NormalLaw& linearLaw();         // LINEAR (MapleSim)
const NormalLaw& linearLimitedLaw();  // LINEAR_LIMITED (MapleSim)
const NormalLaw& huntCrossleyLaw();   // HUNT_CROSSLEY (MapleSim)
const NormalLaw& smoothLaw();         // SMOOTH (Simscape)
const NormalLaw& dipoleLaw();         // DIPOLE (linear dipole model); its formula is in dipole.h

// Friction laws.
const FrictionLaw& coulombOnLaw();           // COULOMB_ON (MotionSolve)
const FrictionLaw& coulombDynamicOnlyLaw();  // COULOMB_DYNAMICONLY (MotionSolve)
const FrictionLaw& coulombOffLaw();          // COULOMB_OFF (MotionSolve)
const FrictionLaw& smoothStickSlipLaw();     // SMOOTH_STICK_SLIP (shaped after Simscape)

}  // namespace lodestone
