// Deactivate and Activate: attributes, and the change each makes to the deck's elements.
#include "activation.h"

#include "elements/force_elements.h"
#include "elements/model_spec.h"

namespace lodestone {

namespace {

ElementSchema<ActivationSpec> activationSchema(const char* element) {
  using S = ActivationSpec;
  return ElementSchema<S>{
      .element = element,
      .attributes = {
          // MotionSolve's element types; Lodestone switches CONTACT, SENSOR and the force types
          // (activationTypeAvailable). SPRINGDAMPER is Adams' name for SPDP.
          attr::keyword("element_type", &S::element_type,
                        {"CONTACT", "SENSOR", "BEAM", "BUSH", "COUPLER", "CVCV", "CVSF", "DIFF", "FIELD", "FORCE",
                         "FRICTION", "GCON", "GEAR", "GFORCE", "GSE", "JOINT", "JPRIM", "LSE", "MATE", "MFORCE",
                         "MOTION", "NFORCE", "PFORCE", "PTCV", "PTDCV", "PTDSF", "PTDSFF", "PTSF", "SFORCE", "TFSISO",
                         "VFORCE", "VTORQUE", "SPDP", "SPRINGDAMPER"})
              .required(),
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
  return spec.element_type == "CONTACT" || spec.element_type == "SENSOR" || isForceActivationType(spec.element_type);
}

std::string activationTarget(const ActivationSpec& spec) {
  return spec.element_type == "SENSOR" ? "Sensor_Event" : "Force_Contact";
}

ModifyCommand activationCommand(const ActivationSpec& spec, bool active) {
  if (isForceActivationType(spec.element_type)) return forceActivationCommand(spec, active);
  const long id = spec.element_id;
  const bool sensor = spec.element_type == "SENSOR";
  return ModifyCommand{spec.loc, [id, sensor, active](ModelSpec& model) {
                         if (sensor) {
                           for (SensorEventSpec& element : model.sensors) {
                             if (element.id == id) element.active = active;
                           }
                         } else {
                           for (ForceContactSpec& element : model.contacts) {
                             if (element.id == id) element.active = active;
                           }
                         }
                       }};
}

std::vector<std::string> activationTargets(const ActivationSpec& spec) {
  if (isForceActivationType(spec.element_type)) return forceActivationTargets(spec.element_type);
  return {activationTarget(spec)};
}

}  // namespace lodestone
