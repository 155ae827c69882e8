// Reference_Marker: a frame fixed to a body, positioned and oriented in ground or in another marker (rm_id).
#pragma once

#include <optional>
#include <string>

#include "solver/core/rotation.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ReferenceMarkerSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long body_id = 0;
  std::string body_type;  // RigidBody or PointBody (as the schema spells them)
  std::optional<long> rm_id;
  double pos_x = 0, pos_y = 0, pos_z = 0;
  // Direction cosines: column j holds the marker's axis j in the reference frame (a00 a10 a20 is the x axis).
  std::optional<double> a00, a10, a20, a01, a11, a21, a02, a12, a22;
  std::optional<double> psi, theta, phi;  // body 3-1-3 Euler angles, radians
};

const ElementSchema<ReferenceMarkerSpec>& referenceMarkerSchema();
// The same attributes, with body_id naming a Body_Point: the schema a marker with body_type PointBody is read by.
const ElementSchema<ReferenceMarkerSpec>& referenceMarkerOnPointBodySchema();
// Whether a body_type value (as the deck spells it, or as read) puts the marker on a Body_Point.
bool namesPointBody(const std::string& bodyType);
void checkReferenceMarker(const ReferenceMarkerSpec& spec, Diagnostics& diagnostics);

// The marker's axes in its reference frame, from whichever orientation form the deck used: full or partial
// direction cosines (one missing column is rebuilt from the other two, e.g. y = z × x), 3-1-3 Euler angles, or
// identity when nothing is given. Reports a matrix that is not a rotation.
std::optional<Matrix3> markerOrientation(const ReferenceMarkerSpec& spec, Diagnostics& diagnostics);

}  // namespace lodestone
