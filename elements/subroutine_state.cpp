// The states element subroutines read, and their reads as an element's dependencies.
#include "subroutine_state.h"

#include <algorithm>

#include "elements/expression_context.h"
#include "elements/reference_spline.h"
#include "elements/reference_variable.h"

namespace lodestone {

InitialSubroutineState::InitialSubroutineState(const Model& model, std::function<bool(int)> hasVariable)
    : model_(model), hasVariable_(std::move(hasVariable)) {
  bodies_.reserve(model.bodies.size());
  for (const RigidBody& body : model.bodies) {
    double state[body_state::kSize] = {};
    std::copy_n(body.position.data(), 3, state + body_state::kPosition);
    std::copy_n(body.eulerParameters.data(), 4, state + body_state::kEulerParameters);
    std::copy_n(body.velocity.data(), 3, state + body_state::kVelocity);
    BodyKinematics kinematics = bodyKinematics(state);
    kinematics.angularVelocity = body.angularVelocity;  // the state holds it in body axes; the deck gives ground's
    bodies_.push_back(kinematics);
  }
}

std::optional<MarkerMotion> InitialSubroutineState::marker(int id) const {
  if (id == 0) return MarkerMotion{};
  const Marker* marker = model_.marker(id);
  if (!marker) return std::nullopt;
  return markerMotion(*marker, marker->body >= 0 ? &bodies_[static_cast<size_t>(marker->body)] : nullptr);
}

std::optional<double> InitialSubroutineState::variable(int id) const {
  if (!hasVariable_ || !hasVariable_(id)) return std::nullopt;
  return 0.0;
}

std::optional<std::array<double, 3>> modelSplinePartials(const Model& model, bool akima, int id, double x, double z,
                                                         int order) {
  const ReferenceSpline* spline = model.data ? model.data->spline(id) : nullptr;
  if (!spline) return std::nullopt;
  return spline->partials(akima ? SplineMethod::Akima : SplineMethod::Cubic, x, z, order);
}

std::optional<MarkerMotion> ContextSubroutineState::marker(int id) const { return context_.findMarker(id); }

std::optional<double> ContextSubroutineState::variable(int id) const {
  if (!model_.variables || model_.variables->indexOf(id) < 0) return std::nullopt;
  return context_.variable(id);
}

std::optional<ElementSubroutine> buildForceSubroutine(const SubroutineAttributeValues& values,
                                                      const char* defaultFunction, size_t count, const char* returns,
                                                      const SourceLoc& loc, const Model& model,
                                                      ForceConnection& connection, Diagnostics& diagnostics) {
  std::optional<UserSubroutine> routine = loadSubroutine(values, defaultFunction, loc, diagnostics);
  if (!routine) return std::nullopt;
  ElementSubroutine subroutine{.routine = std::move(*routine),
                               .id = loc.id.value_or(0),
                               .element = loc.subject() + " (" + loc.position() + ")",
                               .kind = loc.element,
                               .count = count,
                               .returns = returns};
  const VariableModel* variables = model.variables.get();
  const InitialSubroutineState initial(model, [variables](int id) { return variables && variables->indexOf(id) >= 0; });
  if (!setUpSubroutine(subroutine, initial, loc, diagnostics)) return std::nullopt;
  for (const int marker : subroutine.markersRead) bodyOfMarker(model, marker, connection);
  // A variable read through c_varval is read as VARVAL reads it in the element's expression: the same checks (no
  // accelerations, no joints' or elements' loads) and the same bodies and contacts.
  for (const int id : subroutine.variablesRead) {
    if (!buildForceExpression(std::string(defaultFunction) + " (c_varval)", "VARVAL(" + std::to_string(id) + ")", loc,
                              model, connection, diagnostics)) {
      return std::nullopt;
    }
  }
  return subroutine;
}

std::optional<ElementSubroutine> buildElementSubroutine(
    const SubroutineAttributeValues& values, const char* defaultFunction, size_t count, const char* returns,
    bool withoutDflag, const SourceLoc& loc, const Model& model, Diagnostics& diagnostics,
    std::optional<ElementSubroutine::StateEquationSizes> stateEquation) {
  std::optional<UserSubroutine> routine = loadSubroutine(values, defaultFunction, loc, diagnostics);
  if (!routine) return std::nullopt;
  ElementSubroutine subroutine{.routine = std::move(*routine),
                               .id = loc.id.value_or(0),
                               .element = loc.subject() + " (" + loc.position() + ")",
                               .kind = loc.element,
                               .count = count,
                               .withoutDflag = withoutDflag,
                               .returns = returns,
                               .stateEquation = stateEquation};
  const VariableModel* variables = model.variables.get();
  const InitialSubroutineState initial(model, [variables](int id) { return variables && variables->indexOf(id) >= 0; });
  if (!setUpSubroutine(subroutine, initial, loc, diagnostics)) return std::nullopt;
  return subroutine;
}

OutputReads subroutineReads(const ElementSubroutine& subroutine, const Model& model) {
  OutputReads reads;
  for (const int id : subroutine.variablesRead) {
    const auto compiled = Expression::compile("VARVAL(" + std::to_string(id) + ")");
    const Expression* expression = std::get_if<Expression>(&compiled);
    if (!expression) continue;
    reads.acceleration = reads.acceleration || readsAcceleration(*expression, model.variables.get());
    reads.contacts = reads.contacts || readsContacts(*expression, model.variables.get());
    reads.loads = reads.loads || readsLoads(*expression, model.variables.get());
  }
  return reads;
}

void addSubroutineBodies(const ElementSubroutine& subroutine, const Model& model, std::vector<int>& bodies) {
  std::string reads = "0";
  for (const int id : subroutine.markersRead) reads += "+DX(" + std::to_string(id) + ")";
  for (const int id : subroutine.variablesRead) reads += "+VARVAL(" + std::to_string(id) + ")";
  const auto compiled = Expression::compile(reads);
  if (const Expression* expression = std::get_if<Expression>(&compiled)) addBodiesRead(*expression, model, bodies);
}

}  // namespace lodestone
