// Force_Gravity: a uniform acceleration field in model units (e.g. grav_z="-9810" in a millimetre deck).
#pragma once

#include <vector>

#include "elements/body_rigid.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ForceGravitySpec {
  SourceLoc loc;
  double grav_x = 0, grav_y = 0, grav_z = 0;
};

const ElementSchema<ForceGravitySpec>& forceGravitySchema();

// Adds the weight M·g at every moving body's CG (M includes the mass multiplication factor). Gravity does not
// depend on the state, so it adds nothing to the Jacobian.
void addGravityLoads(const Model& model, std::vector<BodyLoad>& loads);

}  // namespace lodestone
