// Sensor_Evaluate: attributes, checks and the model's evaluates.
#include "sensor_evaluate.h"

#include "elements/expression_context.h"

namespace lodestone {

using S = SensorEvaluateSpec;

namespace {

const char* const kSevsub = "SEVSUB user subroutines are not available yet; write the value as type=\"EXPRESSION\" "
                            "with expr";

}  // namespace

const ElementSchema<SensorEvaluateSpec>& sensorEvaluateSchema() {
  static const ElementSchema<S> schema{
      .element = "Sensor_Evaluate",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::keyword("type", &S::type, {"EXPRESSION", "USERSUB"}).byDefault(std::string("EXPRESSION")),
          attr::text("expr", &S::expr).modifiable(),
          attr::unsupported<S>("usrsub_dll_name", kSevsub),
          attr::unsupported<S>("usrsub_fnc_name", kSevsub),
          attr::unsupported<S>("usrsub_param_string", kSevsub),
          attr::unsupported<S>("script_name", kSevsub),
          attr::ignored<S>("interpreter", "SEVSUB user subroutines are not available yet"),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

void checkSensorEvaluate(const SensorEvaluateSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    diagnostics.error(spec.loc, std::string("type=\"USERSUB\": ") + kSevsub);
    return;
  }
  if (!spec.expr) {
    diagnostics.error(spec.loc, "type=\"EXPRESSION\" needs expr, the expression whose value a firing Sensor_Event "
                                "stores");
    return;
  }
  compileAttribute("expr", *spec.expr, spec.loc, diagnostics);
}

int SensorEvaluateModel::indexOf(long id) const {
  for (size_t k = 0; k < evaluates.size(); ++k) {
    if (evaluates[k].id == id) return static_cast<int>(k);
  }
  return -1;
}

std::shared_ptr<SensorEvaluateModel> buildSensorEvaluateModel(const std::vector<SensorEvaluateSpec>& specs,
                                                              Diagnostics& diagnostics) {
  auto result = std::make_shared<SensorEvaluateModel>();
  for (const SensorEvaluateSpec& spec : specs) {
    if (spec.type == "USERSUB" || !spec.expr) continue;  // reported by checkSensorEvaluate
    // Compiled again: a command may have changed expr.
    std::optional<Expression> expression = compileAttribute("expr", *spec.expr, spec.loc, diagnostics);
    if (!expression) continue;
    result->evaluates.push_back({spec.id, spec.loc, std::move(*expression)});
  }
  return result;
}

void checkSensorEvaluateReferences(SensorEvaluateModel& evaluates, const Model& model, Diagnostics& diagnostics) {
  for (const SensorEvaluate& evaluate : evaluates.evaluates) {
    if (!checkExpressionReferences(evaluate.expression, "expr", evaluate.loc, model, diagnostics)) continue;
    const VariableModel* variables = model.variables.get();
    evaluates.usesAcceleration = evaluates.usesAcceleration || readsAcceleration(evaluate.expression, variables);
    evaluates.readsContacts = evaluates.readsContacts || readsContacts(evaluate.expression, variables);
    evaluates.readsLoads = evaluates.readsLoads || readsLoads(evaluate.expression, variables);
  }
}

}  // namespace lodestone
