// Force_Gravity: attributes and the weight of every body.
#include "force_gravity.h"

namespace lodestone {

const ElementSchema<ForceGravitySpec>& forceGravitySchema() {
  using S = ForceGravitySpec;
  static const ElementSchema<S> schema{
      .element = "Force_Gravity",
      .attributes = {
          attr::real("grav_x", &S::grav_x).byDefault(0.0).modifiable(),
          attr::real("grav_y", &S::grav_y).byDefault(0.0).modifiable(),
          attr::real("grav_z", &S::grav_z).byDefault(0.0).modifiable(),
          attr::presentation<S>("id"),
          attr::presentation<S>("label"),
      }};
  return schema;
}

void addGravityLoads(const Model& model, std::vector<BodyLoad>& loads) {
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    loads[i].force += model.units.massFactor * model.bodies[i].mass * model.gravity;
  }
}

double gravityPotential(const Model& model, size_t body, const Vector3& position, const Vector3& reference) {
  return -model.units.massFactor * model.bodies[body].mass * model.gravity.dot(position - reference);
}

}  // namespace lodestone
