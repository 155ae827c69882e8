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
// The potential energy of moving body `body`'s weight, −M·g·(x − reference) for its CG at x: the work gravity does
// when the CG moves from x back to `reference`.
double gravityPotential(const Model& model, size_t body, const Vector3& position, const Vector3& reference);

}  // namespace lodestone
