// Sensor_Event: attributes, checks, the model's sensors and their root functions.
#include "sensor_event.h"

#include <cmath>

#include "elements/expression_context.h"
#include "elements/subroutine_state.h"
#include "elements/sensor_evaluate.h"
#include "solver/core/text.h"

namespace lodestone {

using S = SensorEventSpec;

const ElementSchema<SensorEventSpec>& sensorEventSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
        .element = "Sensor_Event",
        .idField = &S::id,
        .attributes = {
            attr::text("label", &S::label),
            attr::keyword("type", &S::type, {"EXPRESSION", "USERSUB"}).byDefault(std::string("EXPRESSION")),
            attr::text("expr", &S::expr).modifiable(),
            attr::keyword("compare", &S::compare, {"GE", "LT", "EQ"}).byDefault(std::string("EQ")).modifiable(),
            attr::real("value", &S::value).byDefault(0.0).modifiable(),
            // MotionView writes error_tol="0." unless told otherwise: zero is valid, and with zero_crossing the
            // crossing is located to the integrator's precision whatever error_tol says.
            attr::real("error_tol", &S::error_tol).atLeast(0).byDefault(1e-3).modifiable(),
            attr::boolean("halt", &S::halt).byDefault(false).modifiable(),
            attr::boolean("return", &S::returns).byDefault(false).modifiable(),
            attr::boolean("print", &S::print).byDefault(false).modifiable(),
            attr::boolean("restart", &S::restart).byDefault(false).modifiable(),
            attr::boolean("verbose", &S::verbose).byDefault(false).modifiable(),
            attr::boolean("zero_crossing", &S::zero_crossing).byDefault(true).modifiable(),
            attr::boolean("active", &S::active).byDefault(true).modifiable(),
            attr::real("dt", &S::dt).above(0).modifiable(),
            attr::real("hmax", &S::hmax).above(0).modifiable(),
            attr::real("stepsize", &S::stepsize).above(0).modifiable(),
            attr::reference("evaluate_id", &S::evaluate_id, "Sensor_Evaluate").modifiable(),
            attr::unsupported<S>("evaluate", "an expression of its own is the Python API's form; name a "
                                             "Sensor_Evaluate with evaluate_id"),
            attr::unsupported<S>("codgen", "code generation is not available"),
            attr::presentation<S>("full_label"),
        }};
    addSubroutineRows(made.attributes, &S::subroutine);
    return made;
  }();
  return schema;
}

namespace {

// The expression compiled, or its error said on the element's line with the column inside the attribute; bound to
// the model's plant ports when there is a model (being built).
std::optional<Expression> compileExpression(const S& spec, const Model* model, Diagnostics& diagnostics) {
  if (!spec.expr) return std::nullopt;
  return model ? compileModelAttribute("expr", *spec.expr, spec.loc, *model, diagnostics)
               : compileAttribute("expr", *spec.expr, spec.loc, diagnostics);
}

SensorCompare compareOf(const std::string& keyword) {
  if (keyword == "GE") return SensorCompare::GreaterOrEqual;
  if (keyword == "LT") return SensorCompare::LessThan;
  return SensorCompare::Equal;
}

}  // namespace

void checkSensorEvent(const SensorEventSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    if (spec.expr) diagnostics.warning(spec.loc, "expr is ignored: type=\"USERSUB\" compares SENSUB's value");
    checkSubroutineAttributes(spec.subroutine, "SENSUB", spec.loc, diagnostics);
    return;
  }
  warnUnusedSubroutineAttributes(spec.subroutine, "type is not USERSUB", spec.loc, diagnostics);
  if (!spec.expr) {
    diagnostics.error(spec.loc, "type=\"EXPRESSION\" needs expr, the expression compared with value");
    return;
  }
  compileExpression(spec, nullptr, diagnostics);
  if (spec.compare == "EQ" && spec.error_tol == 0 && !spec.zero_crossing) {
    diagnostics.warning(spec.loc, "compare=\"EQ\" with error_tol=\"0\" and zero_crossing=\"FALSE\" fires only if expr "
                                  "equals value exactly at the end of a step, which almost never happens; give "
                                  "error_tol > 0 or zero_crossing=\"TRUE\"");
  }
}

std::shared_ptr<const SensorModel> buildSensorModel(const std::vector<SensorEventSpec>& specs, const Model& model,
                                                    Diagnostics& diagnostics) {
  auto result = std::make_shared<SensorModel>();
  for (const SensorEventSpec& spec : specs) {
    if (!spec.active) continue;
    std::optional<ElementSubroutine> subroutine;
    std::optional<Expression> expression;
    if (spec.type == "USERSUB") {
      subroutine = buildOutputSubroutine(spec.subroutine, "SENSUB", 1, "[value], compared with the sensor's value",
                                         spec.loc, model, diagnostics);
      if (!subroutine) continue;
      expression = std::get<Expression>(Expression::compile("0"));  // never evaluated
    } else {
      // Checked again: a command may have changed expr.
      expression = compileExpression(spec, &model, diagnostics);
      if (!expression || !checkExpressionReferences(*expression, "expr", spec.loc, model, diagnostics)) continue;
    }
    SensorEvent sensor{.id = spec.id,
                       .loc = spec.loc,
                       .expression = std::move(*expression),
                       .compare = compareOf(spec.compare),
                       .value = spec.value,
                       .errorTol = spec.error_tol,
                       .halt = spec.halt,
                       .returns = spec.returns,
                       .print = spec.print,
                       .restart = spec.restart,
                       .verbose = spec.verbose,
                       .zeroCrossing = spec.zero_crossing,
                       .dt = spec.dt,
                       .hmax = spec.hmax,
                       .stepsize = spec.stepsize,
                       .subroutine = std::move(subroutine)};
    if (sensor.subroutine) {
      const OutputReads reads = subroutineReads(*sensor.subroutine, model);
      result->usesAcceleration = result->usesAcceleration || reads.acceleration;
      result->readsContacts = result->readsContacts || reads.contacts;
      result->readsLoads = result->readsLoads || reads.loads;
    }
    if (spec.evaluate_id && model.sensorEvaluates) sensor.evaluate = model.sensorEvaluates->indexOf(*spec.evaluate_id);
    result->usesAcceleration =
        result->usesAcceleration || readsAcceleration(sensor.expression, model.variables.get());
    result->readsContacts = result->readsContacts || readsContacts(sensor.expression, model.variables.get());
    result->readsLoads = result->readsLoads || readsLoads(sensor.expression, model.variables.get());
    result->sensors.push_back(std::move(sensor));
  }
  return result;
}

std::string describeSensor(const SensorEvent& sensor) {
  return sensor.loc.subject() + " (" + sensor.loc.position() + ")";
}

const char* compareKeyword(SensorCompare compare) {
  switch (compare) {
    case SensorCompare::GreaterOrEqual: return "GE";
    case SensorCompare::LessThan: return "LT";
    case SensorCompare::Equal: return "EQ";
  }
  return "EQ";
}

// ---- evaluation ------------------------------------------------------------------------------------------------

SensorEvaluator::SensorEvaluator(const Model& model)
    : model_(model), context_(model), sensors_(model.sensors.get()) {
  if (!sensors_) return;
  for (size_t k = 0; k < sensors_->sensors.size(); ++k) {
    if (sensors_->sensors[k].zeroCrossing) rootSensors_.push_back(static_cast<int>(k));
  }
}

const std::vector<SensorEvent>& SensorEvaluator::sensors() const {
  static const std::vector<SensorEvent> none;
  return sensors_ ? sensors_->sensors : none;
}

double SensorEvaluator::value(int index, double time, std::span<const BodyKinematics> bodies) {
  context_.setState(time, bodies, contacts_, loads_);
  const SensorEvent& sensor = sensors_->sensors[static_cast<size_t>(index)];
  if (sensor.subroutine) {
    return callElementSubroutine(*sensor.subroutine, ContextSubroutineState(model_, context_), false)[0];
  }
  return sensor.expression.evaluate(context_);
}

double SensorEvaluator::evaluateValue(int evaluate, double time, std::span<const BodyKinematics> bodies) {
  context_.setState(time, bodies, contacts_, loads_);
  const SensorEvaluate& stored = model_.sensorEvaluates->evaluates[static_cast<size_t>(evaluate)];
  if (stored.subroutine) {
    return callElementSubroutine(*stored.subroutine, ContextSubroutineState(model_, context_), false)[0];
  }
  return stored.expression.evaluate(context_);
}

void SensorEvaluator::rootFunctions(double time, std::span<const BodyKinematics> bodies, double* g) {
  for (size_t k = 0; k < rootSensors_.size(); ++k) {
    const SensorEvent& sensor = sensors_->sensors[static_cast<size_t>(rootSensors_[k])];
    g[k] = value(rootSensors_[k], time, bodies) - sensor.value;
  }
}

void SensorEvaluator::rootDirections(int* directions) const {
  for (size_t k = 0; k < rootSensors_.size(); ++k) {
    switch (sensors_->sensors[static_cast<size_t>(rootSensors_[k])].compare) {
      case SensorCompare::GreaterOrEqual: directions[k] = 1; break;
      case SensorCompare::LessThan: directions[k] = -1; break;
      case SensorCompare::Equal: directions[k] = 0; break;
    }
  }
}

bool SensorEvaluator::conditionHolds(int index, double expressionValue) const {
  const SensorEvent& sensor = sensors_->sensors[static_cast<size_t>(index)];
  switch (sensor.compare) {
    case SensorCompare::GreaterOrEqual: return expressionValue >= sensor.value - sensor.errorTol;
    case SensorCompare::LessThan: return expressionValue < sensor.value + sensor.errorTol;
    case SensorCompare::Equal: return std::fabs(expressionValue - sensor.value) <= sensor.errorTol;
  }
  return false;
}

}  // namespace lodestone
