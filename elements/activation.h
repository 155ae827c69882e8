// Deactivate and Activate: commands that switch a Force_Contact (element_type="CONTACT"), a Sensor_Event
// ("SENSOR"), a Constraint_Joint ("JOINT"), a Constraint_Jprim ("JPRIM"), a Motion_Joint ("MOTION") or a force
// element (FORCE, SFORCE, GFORCE, BUSH…; elements/force_elements.h) off and on between Simulate commands. Each
// becomes a change of the element's `active` flag, applied
// like any other modifying command (the model is rebuilt without the inactive elements).
#pragma once

#include <string>
#include <vector>

#include "solver/core/schema.h"

namespace lodestone {

struct ModelSpec;
struct ModifyCommand;

struct ActivationSpec {
  SourceLoc loc;
  std::string element_type;
  int element_id = 0;
};

const ElementSchema<ActivationSpec>& deactivateSchema();
const ElementSchema<ActivationSpec>& activateSchema();

// Whether Lodestone can switch elements of this type (the others need elements it lacks).
bool activationTypeAvailable(const ActivationSpec& spec);
// The element types Deactivate and Activate can switch, as a list for messages: "CONTACT, SENSOR, … and SPDP".
std::string switchableElementTypes();
// The element the command names, by its deck name ("Force_Contact"), for the id check.
std::string activationTarget(const ActivationSpec& spec);

// The command that sets the named element's `active` flag to `active`.
ModifyCommand activationCommand(const ActivationSpec& spec, bool active);

// The deck names of the elements the command may name: activationTarget's, or several for a force type (FORCE
// names any force element with the id).
std::vector<std::string> activationTargets(const ActivationSpec& spec);

}  // namespace lodestone
