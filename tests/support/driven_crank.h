// The crank the motion tests drive: a bar on a revolute joint about ground z, gravity along −y, and a Motion_Joint
// (or anything else) given by the test.
#pragma once

#include <string>

#include "support/deck_testing.h"

namespace lodestone::testing {

// A bar of 2 kg with its CG 0.5 m from a revolute joint about ground z (0.6 kg·m² about the joint), gravity along −y,
// integr_tol 1e-8, then `motion`; `commands` are the deck's commands.
inline std::string crankDeck(const std::string& motion, const std::string& commands) {
  return deck(R"(<Param_Transient integr_tol="1e-8"/>
<Force_Gravity grav_y="-9.81"/>
<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="10" body_id="1"/>
<Body_Rigid id="2" cg_id="20" mass="2" inertia_xx="0.01" inertia_yy="0.1" inertia_zz="0.1"/>
<Reference_Marker id="20" body_id="2" pos_x="0.5"/>
<Reference_Marker id="21" body_id="2"/>
<Constraint_Joint id="1" type="REVOLUTE" i_marker_id="21" j_marker_id="10"/>
)" + motion,
              commands);
}

}  // namespace lodestone::testing
