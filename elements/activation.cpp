// Deactivate and Activate: attributes, and the change each makes to the deck's elements.
#include "activation.h"

#include "elements/force_elements.h"
#include "elements/model_spec.h"

namespace lodestone {

namespace {

// MotionSolve's element types; Lodestone switches CONTACT, SENSOR, JOINT, JPRIM, MOTION and the force types
// (activationTypeAvailable). SPRINGDAMPER is Adams' name for SPDP.
const std::vector<std::string> kElementTypes = {
    "CONTACT", "SENSOR", "BEAM", "BUSH", "COUPLER", "CVCV", "CVSF", "DIFF", "FIELD", "FORCE", "FRICTION", "GCON",
    "GEAR", "GFORCE", "GSE", "JOINT", "JPRIM", "LSE", "MATE", "MFORCE", "MOTION", "NFORCE", "PFORCE", "PTCV", "PTDCV",
    "PTDSF", "PTDSFF", "PTSF", "SFORCE", "TFSISO", "VFORCE", "VTORQUE", "SPDP", "SPRINGDAMPER"};

ElementSchema<ActivationSpec> activationSchema(const char* element) {
  using S = ActivationSpec;
  return ElementSchema<S>{
      .element = element,
      .attributes = {
          attr::keyword("element_type", &S::element_type, kElementTypes).required(),
          attr::integer("element_id", &S::element_id).required(),
      }};
}

}  // namespace

const ElementSchema<ActivationSpec>& deactivateSchema() {
  static const ElementSchema<ActivationSpec> schema = activationSchema("Deactivate");
  return schema;
}

const ElementSchema<ActivationSpec>& activateSchema() {
  static const ElementSchema<ActivationSpec> schema = activationSchema("Activate");
  return schema;
}

bool activationTypeAvailable(const ActivationSpec& spec) {
  return spec.element_type == "CONTACT" || spec.element_type == "SENSOR" || spec.element_type == "JOINT" ||
         spec.element_type == "JPRIM" || spec.element_type == "MOTION" || isForceActivationType(spec.element_type);
}

std::string switchableElementTypes() {
  std::string listed;
  std::vector<std::string> switchable;
  for (const std::string& type : kElementTypes) {
    if (activationTypeAvailable(ActivationSpec{.element_type = type})) switchable.push_back(type);
  }
  for (size_t i = 0; i < switchable.size(); ++i) {
    if (i > 0) listed += i + 1 == switchable.size() ? " and " : ", ";
    listed += switchable[i];
  }
  return listed;
}

std::string activationTarget(const ActivationSpec& spec) {
  if (spec.element_type == "SENSOR") return "Sensor_Event";
  if (spec.element_type == "JOINT") return "Constraint_Joint";
  if (spec.element_type == "JPRIM") return "Constraint_Jprim";
  if (spec.element_type == "MOTION") return "Motion_Joint";
  return "Force_Contact";
}

namespace {

template <class Spec>
void setActive(std::vector<Spec>& elements, long id, bool active) {
  for (Spec& element : elements) {
    if (element.id == id) element.active = active;
  }
}

}  // namespace

ModifyCommand activationCommand(const ActivationSpec& spec, bool active) {
  if (isForceActivationType(spec.element_type)) return forceActivationCommand(spec, active);
  const long id = spec.element_id;
  const std::string type = spec.element_type;
  return ModifyCommand{spec.loc, [id, type, active](ModelSpec& model) {
                         if (type == "SENSOR") setActive(model.sensors, id, active);
                         else if (type == "JOINT") setActive(model.joints, id, active);
                         else if (type == "JPRIM") setActive(model.primitives, id, active);
                         else if (type == "MOTION") {
                           setActive(model.motions, id, active);
                           setActive(model.markerMotions, id, active);
                         }
                         else setActive(model.contacts, id, active);
                       }};
}

std::vector<std::string> activationTargets(const ActivationSpec& spec) {
  if (isForceActivationType(spec.element_type)) return forceActivationTargets(spec.element_type);
  if (spec.element_type == "MOTION") return {"Motion_Joint", "Motion_Marker"};
  return {activationTarget(spec)};
}

}  // namespace lodestone
