// Contact_Surface (ours): PFC's surface properties of one piece — a graphic, or every graphic of a body — that a
// contact between two pieces inherits when its Force_Contact leaves the parameter out: kn and ks as springs in series,
// fric as the smaller, each piece's dipole moment as DIPOLE's dipole_mo1 or dipole_mo2 (LawParameter::inheritance).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plugins/contact_law.h"
#include "solver/core/diagnostics.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ContactSurfaceSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<long> graphic_id, body_id;  // exactly one
  std::optional<double> kn, ks, fric;
  std::vector<double> dipole_mo;  // "mx my mz" in the body's axes, or empty
};

const ElementSchema<ContactSurfaceSpec>& contactSurfaceSchema();
// One of graphic_id and body_id, at least one property, three numbers for dipole_mo.
void checkContactSurface(const ContactSurfaceSpec& spec, Diagnostics& diagnostics);

// The properties a piece holds, by the law parameters' surfaceProperty names ("kn", "ks", "fric", "dipole_mo").
using SurfaceProperties = std::map<std::string, std::vector<double>>;
SurfaceProperties surfacePropertiesOf(const ContactSurfaceSpec& spec);

// A pair's law values: `values` (a copy of the element's) with each inheritable parameter the element left out (NaN)
// taken from the surfaces of the pair's I and J pieces by its rule (LawParameter::inheritance), except those named in
// `setByLaw` (a law sets them itself: DIPOLE's emod sets kn). Returns the first parameter the two pieces cannot give
// (Series and Minimum need both to hold it), or an empty name.
std::string inheritValues(const std::vector<LawParameter>& parameters, std::span<double> values,
                          const SurfaceProperties& surfaceI, const SurfaceProperties& surfaceJ,
                          std::span<const std::string> setByLaw = {});

}  // namespace lodestone
