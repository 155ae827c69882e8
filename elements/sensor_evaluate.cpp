// Sensor_Evaluate: attributes, checks and the model's evaluates.
#include "sensor_evaluate.h"

#include "elements/expression_context.h"
#include "elements/subroutine_state.h"

namespace lodestone {

using S = SensorEvaluateSpec;

const ElementSchema<SensorEvaluateSpec>& sensorEvaluateSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
        .element = "Sensor_Evaluate",
        .idField = &S::id,
        .attributes = {
            attr::text("label", &S::label),
            attr::keyword("type", &S::type, {"EXPRESSION", "USERSUB"}).byDefault(std::string("EXPRESSION")),
            attr::text("expr", &S::expr).modifiable(),
            attr::presentation<S>("full_label"),
        }};
    addSubroutineRows(made.attributes, &S::subroutine);
    return made;
  }();
  return schema;
}

void checkSensorEvaluate(const SensorEvaluateSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    if (spec.expr) diagnostics.warning(spec.loc, "expr is ignored: type=\"USERSUB\" stores SEVSUB's value");
    checkSubroutineAttributes(spec.subroutine, "SEVSUB", spec.loc, diagnostics);
    return;
  }
  warnUnusedSubroutineAttributes(spec.subroutine, "type is not USERSUB", spec.loc, diagnostics);
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
                                                              const Model& model, Diagnostics& diagnostics) {
  auto result = std::make_shared<SensorEvaluateModel>();
  for (const SensorEvaluateSpec& spec : specs) {
    if (spec.type == "USERSUB") {  // its SEVSUB is set up by checkSensorEvaluateReferences
      result->evaluates.push_back({spec.id, spec.loc, std::get<Expression>(Expression::compile("0")), std::nullopt});
      continue;
    }
    if (!spec.expr) continue;  // reported by checkSensorEvaluate
    // Compiled again: a command may have changed expr.
    std::optional<Expression> expression = compileModelAttribute("expr", *spec.expr, spec.loc, model, diagnostics);
    if (!expression) continue;
    result->evaluates.push_back({spec.id, spec.loc, std::move(*expression), std::nullopt});
  }
  return result;
}

void checkSensorEvaluateReferences(SensorEvaluateModel& evaluates, const std::vector<SensorEvaluateSpec>& specs,
                                   const Model& model, Diagnostics& diagnostics) {
  for (const SensorEvaluateSpec& spec : specs) {
    const int index = evaluates.indexOf(spec.id);
    if (spec.type != "USERSUB" || index < 0) continue;
    SensorEvaluate& evaluate = evaluates.evaluates[static_cast<size_t>(index)];
    evaluate.subroutine = buildOutputSubroutine(spec.subroutine, "SEVSUB", 1, "[value], stored for SENVAL", spec.loc,
                                                model, diagnostics);
    if (!evaluate.subroutine) continue;
    const OutputReads reads = subroutineReads(*evaluate.subroutine, model);
    evaluates.usesAcceleration = evaluates.usesAcceleration || reads.acceleration;
    evaluates.readsContacts = evaluates.readsContacts || reads.contacts;
    evaluates.readsLoads = evaluates.readsLoads || reads.loads;
  }
  for (const SensorEvaluate& evaluate : evaluates.evaluates) {
    if (evaluate.subroutine) continue;
    if (!checkExpressionReferences(evaluate.expression, "expr", evaluate.loc, model, diagnostics)) continue;
    const VariableModel* variables = model.variables.get();
    evaluates.usesAcceleration = evaluates.usesAcceleration || readsAcceleration(evaluate.expression, variables);
    evaluates.readsContacts = evaluates.readsContacts || readsContacts(evaluate.expression, variables);
    evaluates.readsLoads = evaluates.readsLoads || readsLoads(evaluate.expression, variables);
  }
}

}  // namespace lodestone
