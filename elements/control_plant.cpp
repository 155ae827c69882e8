// Control_PlantInput and Control_PlantOutput: attributes, checks, and binding PINVAL and POUVAL to variables.
#include "control_plant.h"

#include "solver/core/excerpt.h"

namespace lodestone {

namespace {
using S = ControlPlantSpec;

// What MotionSolve's two elements share; they differ only in their name.
ElementSchema<S> plantSchema(const char* element) {
  const std::string cosimulation = "MotionSolve uses it only to co-simulate with a control package; Lodestone reads "
                                   "the listed variables' values continuously";
  const std::string userPort = "a port whose signals a user subroutine defines serves co-simulation, which Lodestone "
                               "does not do; list the signals as Reference_Variables (a type=\"USERSUB\" variable "
                               "runs a VARSUB) in variable_id_list";
  return ElementSchema<S>{
      .element = element,
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::integer("num_element", &S::num_element).atLeast(1),
          attr::referenceList("variable_id_list", &S::variable_id_list, "Reference_Variable"),
          attr::unsupported<S>("type", userPort),
          attr::unsupported<S>("usrsub_dll_name", userPort),
          attr::unsupported<S>("usrsub_fnc_name", userPort),
          attr::unsupported<S>("usrsub_param_string", userPort),
          attr::ignored<S>("hold_order", cosimulation),
          attr::ignored<S>("sampling_period", cosimulation),
          attr::ignored<S>("offset_time", cosimulation),
          attr::presentation<S>("full_label"),
      },
      // MotionSolve's own POUVAL example writes the count so.
      .foreignNames = {{"num_variable", "the count MotionSolve's POUVAL example names num_variable", "'num_element'"}}};
}
}  // namespace

const ElementSchema<ControlPlantSpec>& controlPlantInputSchema() {
  static const ElementSchema<S> schema = plantSchema("Control_PlantInput");
  return schema;
}

const ElementSchema<ControlPlantSpec>& controlPlantOutputSchema() {
  static const ElementSchema<S> schema = plantSchema("Control_PlantOutput");
  return schema;
}

void checkControlPlant(const ControlPlantSpec& spec, Diagnostics& diagnostics) {
  if (spec.variable_id_list.empty()) {
    diagnostics.error(spec.loc, "needs variable_id_list, the Reference_Variables whose values are the port's signals");
    return;
  }
  if (!spec.num_element) {
    diagnostics.error(spec.loc, "needs num_element, the number of variables variable_id_list holds (" +
                                    std::to_string(spec.variable_id_list.size()) + " here)");
    return;
  }
  if (static_cast<size_t>(*spec.num_element) != spec.variable_id_list.size()) {
    diagnostics.error(spec.loc, "num_element=\"" + std::to_string(*spec.num_element) +
                                    "\" but variable_id_list holds " + std::to_string(spec.variable_id_list.size()) +
                                    " variables");
  }
}

const PlantPort* PlantModel::port(PlantRead::Port kind, long id) const {
  const std::map<long, PlantPort>& ports = kind == PlantRead::Port::Input ? inputs : outputs;
  const auto found = ports.find(id);
  return found == ports.end() ? nullptr : &found->second;
}

std::shared_ptr<const PlantModel> buildPlantModel(const std::vector<ControlPlantSpec>& inputs,
                                                  const std::vector<ControlPlantSpec>& outputs) {
  auto result = std::make_shared<PlantModel>();
  for (const auto& [specs, ports] : {std::pair{&inputs, &result->inputs}, std::pair{&outputs, &result->outputs}}) {
    for (const ControlPlantSpec& spec : *specs) (*ports)[spec.id] = PlantPort{spec.id, spec.loc, spec.variable_id_list};
  }
  return result;
}

bool bindPlantReads(Expression& expression, const std::string& attribute, const SourceLoc& loc,
                    const PlantModel* plants, Diagnostics& diagnostics) {
  bool bound = true;
  for (size_t k = 0; k < expression.plantReads().size(); ++k) {
    const PlantRead read = expression.plantReads()[k];
    const std::string where = attribute + "=\"" + excerpt(expression.text()) + "\", column " +
                              std::to_string(read.column) + ": " + read.function() + " ";
    const std::string named = std::string(read.element()) + " id=" + std::to_string(read.id);
    const PlantPort* port = plants ? plants->port(read.port, read.id) : nullptr;
    if (!port) {
      diagnostics.error(loc, where + "names " + named + ", which the deck does not have");
      bound = false;
      continue;
    }
    if (static_cast<size_t>(read.position) > port->variableIds.size()) {
      diagnostics.error(loc, where + "reads variable " + std::to_string(read.position) + " of " + named + " (" +
                                 port->loc.position() + "), which lists " +
                                 std::to_string(port->variableIds.size()));
      bound = false;
      continue;
    }
    expression.bindPlantRead(k, static_cast<int>(port->variableIds[static_cast<size_t>(read.position) - 1]));
  }
  return bound;
}

}  // namespace lodestone
