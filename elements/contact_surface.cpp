// Contact_Surface: attributes and the properties a piece holds.
#include "contact_surface.h"

#include <algorithm>
#include <cmath>

namespace lodestone {

using S = ContactSurfaceSpec;

const ElementSchema<ContactSurfaceSpec>& contactSurfaceSchema() {
  static const ElementSchema<S> schema{
      .element = "Contact_Surface",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("graphic_id", &S::graphic_id, "Post_Graphic")
              .hint("the graphic whose surface this is; or body_id for all the graphics of a body"),
          attr::reference("body_id", &S::body_id, "Body_Rigid or Body_Point")
              .hint("every graphic of this body (a graphic_id surface of one of them wins)"),
          attr::real("kn", &S::kn).above(0).hint("normal stiffness of this piece, force/length (in series)"),
          attr::real("ks", &S::ks).above(0).hint("shear stiffness of this piece, force/length (in series)"),
          attr::real("fric", &S::fric).atLeast(0).hint("friction coefficient of this piece (the smaller is taken)"),
          attr::realList("dipole_mo", &S::dipole_mo)
              .hint("magnetic moment \"mx my mz\" at each of the piece's graphics' centres, body axes, A·length²"),
      }};
  return schema;
}

void checkContactSurface(const ContactSurfaceSpec& spec, Diagnostics& diagnostics) {
  if (spec.graphic_id.has_value() == spec.body_id.has_value()) {
    diagnostics.error(spec.loc, "give graphic_id (one graphic's surface) or body_id (all the graphics of a body), "
                                "one of them");
  }
  if (!spec.kn && !spec.ks && !spec.fric && spec.dipole_mo.empty()) {
    diagnostics.error(spec.loc, "the surface holds no property: give kn, ks, fric or dipole_mo");
  }
  if (!spec.dipole_mo.empty() && spec.dipole_mo.size() != 3) {
    diagnostics.error(spec.loc, "attribute 'dipole_mo' needs 3 numbers (x y z), got " +
                                    std::to_string(spec.dipole_mo.size()));
  }
}

SurfaceProperties surfacePropertiesOf(const ContactSurfaceSpec& spec) {
  SurfaceProperties properties;
  if (spec.kn) properties["kn"] = {*spec.kn};
  if (spec.ks) properties["ks"] = {*spec.ks};
  if (spec.fric) properties["fric"] = {*spec.fric};
  if (spec.dipole_mo.size() == 3) properties["dipole_mo"] = spec.dipole_mo;
  return properties;
}

std::string inheritValues(const std::vector<LawParameter>& parameters, std::span<double> values,
                          const SurfaceProperties& surfaceI, const SurfaceProperties& surfaceJ,
                          std::span<const std::string> setByLaw) {
  size_t slot = 0;
  for (const LawParameter& parameter : parameters) {
    const size_t at = slot;
    slot += static_cast<size_t>(parameter.size);
    if (parameter.inheritance == Inheritance::None || !std::isnan(values[at])) continue;
    if (std::find(setByLaw.begin(), setByLaw.end(), parameter.name) != setByLaw.end()) continue;
    const auto heldBy = [&](const SurfaceProperties& surface) -> const std::vector<double>* {
      const auto found = surface.find(parameter.surfaceProperty);
      return found != surface.end() && static_cast<int>(found->second.size()) == parameter.size ? &found->second
                                                                                               : nullptr;
    };
    const std::vector<double>* i = heldBy(surfaceI);
    const std::vector<double>* j = heldBy(surfaceJ);
    switch (parameter.inheritance) {
      case Inheritance::Series:
      case Inheritance::Minimum:
        if (!i || !j) return parameter.name;
        for (size_t k = 0; k < static_cast<size_t>(parameter.size); ++k) {
          const double a = (*i)[k], b = (*j)[k];
          values[at + k] = parameter.inheritance == Inheritance::Series ? a * b / (a + b) : std::min(a, b);
        }
        break;
      case Inheritance::FromI:
      case Inheritance::FromJ: {
        const std::vector<double>* own = parameter.inheritance == Inheritance::FromI ? i : j;
        for (size_t k = 0; k < static_cast<size_t>(parameter.size); ++k) values[at + k] = own ? (*own)[k] : 0.0;
        break;
      }
      case Inheritance::None:
        break;
    }
  }
  return {};
}

}  // namespace lodestone
