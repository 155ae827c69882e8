// MODIFY's commands: ACCGRAV, ACTIVATE and DEACTIVATE, parsed into the changes <Command>'s elements make.
#include "program_control.h"

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "elements/activation.h"
#include "solver/core/text.h"

namespace lodestone {

namespace {

struct Parameter {
  std::string name;  // upper case; empty for a bare word
  std::string value;
};

std::vector<Parameter> parametersOf(std::string_view text) {
  std::vector<Parameter> parameters;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = trim(text.substr(start, comma - start));
    const size_t equals = item.find('=');
    if (equals == std::string_view::npos) parameters.push_back({"", std::string(item)});
    else parameters.push_back({toUpper(trim(item.substr(0, equals))), std::string(trim(item.substr(equals + 1)))});
    start = comma + 1;
  }
  return parameters;
}

std::optional<double> numberOf(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (*end != '\0' || errno == ERANGE) return std::nullopt;
  return value;
}

template <class Spec>
bool hasId(const std::vector<Spec>& elements, long id) {
  for (const Spec& element : elements) {
    if (element.id == id) return true;
  }
  return false;
}

// Whether the deck has element `deckName` (as activationTargets names them) with `id`: every name it gives, or
// MODIFY refuses to switch an element the deck has.
bool hasElement(const ModelSpec& spec, const std::string& deckName, long id) {
  if (deckName == "Force_Contact") return hasId(spec.contacts, id);
  if (deckName == "Sensor_Event") return hasId(spec.sensors, id);
  if (deckName == "Constraint_Joint") return hasId(spec.joints, id);
  if (deckName == "Constraint_Jprim") return hasId(spec.primitives, id);
  if (deckName == "Motion_Joint") return hasId(spec.motions, id);
  if (deckName == "Motion_Marker") return hasId(spec.markerMotions, id);
  if (deckName == "Force_Scalar_TwoBody") return hasId(spec.scalarForces, id);
  if (deckName == "Force_Scalar_OneBody") return hasId(spec.scalarForcesOneBody, id);
  if (deckName == "Force_Vector_TwoBody") return hasId(spec.vectorForcesTwoBody, id);
  if (deckName == "Force_Vector_OneBody") return hasId(spec.vectorForcesOneBody, id);
  if (deckName == "Force_SpringDamper") return hasId(spec.springDampers, id);
  if (deckName == "Force_Bushing") return hasId(spec.bushings, id);
  if (deckName == "Force_Beam") return hasId(spec.beams, id);
  if (deckName == "Force_Field") return hasId(spec.fields, id);
  return false;
}

ModifyParse refuse(std::string why) {
  ModifyParse parse;
  parse.refusal = std::move(why);
  return parse;
}

ModifyParse gravityChange(const std::vector<Parameter>& parameters, const SourceLoc& loc) {
  std::optional<double> components[3];
  const char* names[3] = {"IGRAV", "JGRAV", "KGRAV"};
  for (const Parameter& parameter : parameters) {
    int axis = -1;
    for (int k = 0; k < 3; ++k) {
      if (parameter.name == names[k]) axis = k;
    }
    if (axis < 0) {
      return refuse("ACCGRAV takes IGRAV=, JGRAV= and KGRAV= (numbers), not \"" +
                    (parameter.name.empty() ? parameter.value : parameter.name + "=" + parameter.value) + "\"");
    }
    components[axis] = numberOf(parameter.value);
    if (!components[axis]) return refuse(std::string(names[axis]) + "=\"" + parameter.value + "\" is not a number");
  }
  ModifyParse parse;
  std::string said;
  for (int k = 0; k < 3; ++k) {
    if (components[k]) said += (said.empty() ? "" : ", ") + std::string(names[k]) + "=" + formatReal(*components[k]);
  }
  parse.description = "gravity " + said;
  const std::optional<double> gx = components[0], gy = components[1], gz = components[2];
  parse.change = ModifyCommand{loc, [gx, gy, gz, loc](ModelSpec& model) {
                                 if (!model.gravity) {
                                   model.gravity = ForceGravitySpec{};
                                   model.gravity->loc = loc;
                                 }
                                 if (gx) model.gravity->grav_x = *gx;
                                 if (gy) model.gravity->grav_y = *gy;
                                 if (gz) model.gravity->grav_z = *gz;
                               }};
  return parse;
}

ModifyParse activationChange(bool active, const std::vector<Parameter>& parameters, const ModelSpec& spec,
                             const SourceLoc& loc) {
  const char* keyword = active ? "ACTIVATE" : "DEACTIVATE";
  if (parameters.size() != 2 || !parameters[0].name.empty() || parameters[1].name != "ID") {
    return refuse(std::string(keyword) + " takes an element type and one id: " + keyword + "/type, ID=n");
  }
  ActivationSpec activation;
  activation.loc = loc;
  activation.element_type = toUpper(parameters[0].value);
  const std::optional<double> id = numberOf(parameters[1].value);
  if (!id || *id != static_cast<double>(static_cast<long>(*id)) || *id < 1) {
    return refuse("ID=\"" + parameters[1].value + "\" is not an element id (a whole number >= 1)");
  }
  activation.element_id = static_cast<int>(*id);
  if (!activationTypeAvailable(activation)) {
    return refuse("element type " + activation.element_type +
                  " cannot be switched; " + switchableElementTypes() + " can");
  }
  bool defined = false;
  std::string named;
  const std::vector<std::string> targets = activationTargets(activation);
  for (const std::string& target : targets) {
    defined = defined || hasElement(spec, target, activation.element_id);
    named += (named.empty() ? "" : " or ") + target;
  }
  if (!defined) return refuse("the model has no " + named + " with id " + std::to_string(activation.element_id));
  ModifyParse parse;
  parse.description = std::string(active ? "activates " : "deactivates ") + activation.element_type + " id=" +
                      std::to_string(activation.element_id);
  parse.change = activationCommand(activation, active);
  return parse;
}

}  // namespace

ModifyParse parseModifyCommand(std::string_view command, const ModelSpec& spec, const SourceLoc& loc) {
  const std::string_view text = trim(command);
  const size_t slash = text.find('/');
  const std::string keyword = toUpper(trim(text.substr(0, slash)));
  const std::vector<Parameter> parameters =
      slash == std::string_view::npos ? std::vector<Parameter>{} : parametersOf(text.substr(slash + 1));
  if (keyword == "ACCGRAV") return gravityChange(parameters, loc);
  if (keyword == "ACTIVATE") return activationChange(true, parameters, spec, loc);
  if (keyword == "DEACTIVATE") return activationChange(false, parameters, spec, loc);
  return refuse("command " + (keyword.empty() ? std::string("(none)") : keyword) +
                " is not available to MODIFY; Lodestone executes ACCGRAV, ACTIVATE and DEACTIVATE");
}

}  // namespace lodestone
