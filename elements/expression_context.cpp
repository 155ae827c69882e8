// Expressions in elements: compiling, reference checks, and evaluation from the bodies' kinematics.
#include "expression_context.h"

#include <algorithm>
#include <limits>

#include "elements/control_diff.h"
#include "elements/control_plant.h"
#include "elements/control_state_eqn.h"
#include "elements/force_contact.h"
#include "elements/reference_spline.h"
#include "elements/model_spec.h"
#include "elements/reference_variable.h"
#include "elements/sensor_evaluate.h"
#include "elements/subroutine_state.h"
#include "solver/core/excerpt.h"
#include "solver/core/text.h"

namespace lodestone {

std::optional<Expression> compileAttribute(const std::string& attribute, const std::string& text, const SourceLoc& loc,
                                           Diagnostics& diagnostics, ContactPointSymbols contactPoint) {
  std::variant<Expression, ExpressionError> compiled = Expression::compile(text, contactPoint);
  if (const ExpressionError* error = std::get_if<ExpressionError>(&compiled)) {
    const auto report = [&](const ExpressionError& problem) {
      diagnostics.error(loc, attribute + "=\"" + excerpt(text) + "\", column " + std::to_string(problem.column) + ": " +
                                 problem.message);
    };
    report(*error);
    for (const ExpressionError& further : error->further) report(further);
    return std::nullopt;
  }
  return std::get<Expression>(std::move(compiled));
}

std::optional<Expression> compileModelAttribute(const std::string& attribute, const std::string& text,
                                                const SourceLoc& loc, const Model& model, Diagnostics& diagnostics,
                                                ContactPointSymbols contactPoint) {
  std::optional<Expression> expression = compileAttribute(attribute, text, loc, diagnostics, contactPoint);
  if (!expression || !bindPlantReads(*expression, attribute, loc, model.plants.get(), diagnostics)) return std::nullopt;
  return expression;
}

namespace {

const ForceContact* contactOf(const Model& model, long id) {
  if (!model.contacts) return nullptr;
  for (const ForceContact& contact : model.contacts->elements) {
    if (contact.id == id) return &contact;
  }
  return nullptr;
}

// A spline or array call against the model's data (null: none).
bool checkDataReference(const DataReference& reference, const Expression& expression, const std::string& attribute,
                        const SourceLoc& loc, const DataModel* data, const ControlModel* controls,
                        Diagnostics& diagnostics) {
  const std::string where = attribute + "=\"" + excerpt(expression.text()) + "\", column " +
                            std::to_string(reference.column) + ": " + reference.function + " ";
  const std::string id = std::to_string(reference.id);
  if (reference.kind == DataReference::Kind::Spline) {
    const ReferenceSpline* spline = data ? data->spline(reference.id) : nullptr;
    if (!spline) {
      diagnostics.error(loc, where + "names Reference_Spline id=" + id + ", which the deck does not have");
      return false;
    }
    if (spline->isFamily() && reference.function == "INTERP") {
      diagnostics.error(loc, where + "interpolates one curve, and Reference_Spline id=" + id + " (" +
                                 spline->loc.position() + ") is a family of " + std::to_string(spline->curves.size()) +
                                 " curves; read it with AKISPL or CUBSPL(x, z, id)");
      return false;
    }
    if (spline->isFamily() && reference.orderOrPosition > 0) {
      diagnostics.error(loc, where + "asks for derivative iord=" + std::to_string(reference.orderOrPosition) +
                                 " of Reference_Spline id=" + id + " (" + spline->loc.position() + "), a family of " +
                                 std::to_string(spline->curves.size()) + " curves; as in MotionSolve and Adams, only "
                                 "a single curve (num_xy_pair) has derivatives");
      return false;
    }
    return true;
  }
  const ReferenceArray* array = data ? data->array(reference.id) : nullptr;
  if (!array) {
    diagnostics.error(loc, where + "names Reference_Array id=" + id + ", which the deck does not have");
    return false;
  }
  const std::string named = "Reference_Array id=" + id + " (" + array->loc.position() + ")";
  // An X or Y array holds a control system's states or outputs: one of the deck's systems must own it.
  if ((array->type == "X" || array->type == "Y") && !(controls && controls->ownerOf(reference.id))) {
    diagnostics.error(loc, where + "reads " + named + " of type " + array->type + ", whose values are the " +
                               (array->type == "X" ? "states" : "outputs") + " of a Control_StateEqn or Control_SISO, "
                               "and no such element of the deck names it");
    return false;
  }
  // An X or Y array has as many elements as its system has states or outputs, whatever its num_element says.
  int size = array->size;
  const std::string* holding = nullptr;
  if (const ControlModel::ArrayOwner* owner = controls ? controls->ownerOf(reference.id) : nullptr) {
    const ControlSystem& system = controls->systems[static_cast<size_t>(owner->system)];
    size = owner->outputs ? system.outputCount() : system.stateCount();
    holding = &system.element;
  }
  if (reference.orderOrPosition > size) {
    diagnostics.error(loc, where + "reads element " + std::to_string(reference.orderOrPosition) + " of " + named +
                               ", which has " + std::to_string(size) + (size == 1 ? " element" : " elements") +
                               (holding ? " (the " + std::string(array->type == "X" ? "states" : "outputs") +
                                              " of its " + *holding + ")"
                                        : std::string()));
    return false;
  }
  if (array->type == "U") {
    const long variable = static_cast<long>(array->values[static_cast<size_t>(reference.orderOrPosition - 1)]);
    diagnostics.error(loc, where + "reads " + named + " of type U, whose element " +
                               std::to_string(reference.orderOrPosition) + " is Reference_Variable id=" +
                               std::to_string(variable) + "; Lodestone reads a U array's variables as a control "
                               "system's inputs, not through ARYVAL: read the variable itself, VARVAL(" +
                               std::to_string(variable) + ")");
    return false;
  }
  return true;
}

}  // namespace

bool checkExpressionReferences(const Expression& expression, const std::string& attribute, const SourceLoc& loc,
                               const Model& model, const VariableModel* variables, Diagnostics& diagnostics) {
  bool found = true;
  const auto missing = [&](const char* element, int id, int column) {
    diagnostics.error(loc, attribute + "=\"" + excerpt(expression.text()) + "\", column " + std::to_string(column) +
                               ": names " + element + " id=" + std::to_string(id) + ", which the deck does not have");
    found = false;
  };
  for (size_t k = 0; k < expression.markerIds().size(); ++k) {
    if (!model.marker(expression.markerIds()[k])) {
      missing("Reference_Marker", expression.markerIds()[k], expression.markerColumns()[k]);
    }
  }
  for (size_t k = 0; k < expression.variableIds().size(); ++k) {
    if (!variables || variables->indexOf(expression.variableIds()[k]) < 0) {
      missing("Reference_Variable", expression.variableIds()[k], expression.variableColumns()[k]);
    }
  }
  for (const PlantRead& read : expression.plantReads()) {
    if (read.variableId == 0) missing(read.element(), read.id, read.column);  // compiled without the model's ports
  }
  for (size_t k = 0; k < expression.contactIds().size(); ++k) {
    if (!contactOf(model, expression.contactIds()[k])) {
      missing("Force_Contact", expression.contactIds()[k], expression.contactColumns()[k]);
    }
  }
  for (size_t k = 0; k < expression.differentialIds().size(); ++k) {
    const int id = expression.differentialIds()[k];
    if (!model.differentials || model.differentials->indexOf(id) < 0) {
      missing("Control_Diff", id, expression.differentialColumns()[k]);
    }
  }
  for (size_t k = 0; k < expression.sensorValueIds().size(); ++k) {
    const int id = expression.sensorValueIds()[k];
    if (!model.sensorEvaluates || model.sensorEvaluates->indexOf(id) < 0) {
      missing("Sensor_Evaluate", id, expression.sensorValueColumns()[k]);
    }
  }
  for (const DataReference& reference : expression.dataReferences()) {
    found = checkDataReference(reference, expression, attribute, loc, model.data.get(), model.controls.get(),
                               diagnostics) && found;
  }
  return found;
}

bool checkExpressionReferences(const Expression& expression, const std::string& attribute, const SourceLoc& loc,
                               const Model& model, Diagnostics& diagnostics) {
  return checkExpressionReferences(expression, attribute, loc, model, model.variables.get(), diagnostics);
}

bool readsAcceleration(const Expression& expression, const VariableModel* variables) {
  if (expression.usesAcceleration()) return true;
  if (!variables) return false;
  return std::any_of(expression.variableIds().begin(), expression.variableIds().end(), [&](int id) {
    const int index = variables->indexOf(id);
    return index >= 0 && variables->variables[static_cast<size_t>(index)].usesAcceleration;
  });
}

bool readsContacts(const Expression& expression, const VariableModel* variables) {
  if (!expression.contactIds().empty()) return true;
  if (!variables) return false;
  return std::any_of(expression.variableIds().begin(), expression.variableIds().end(), [&](int id) {
    const int index = variables->indexOf(id);
    return index >= 0 && !variables->variables[static_cast<size_t>(index)].contactsRead.empty();
  });
}

std::optional<FoundLoadRead> findLoadRead(const Expression& expression, const VariableModel* variables) {
  if (!expression.loadReads().empty()) return FoundLoadRead{.read = expression.loadReads().front()};
  if (!variables) return std::nullopt;
  // Depth first over the variables read, each visited once (they form no cycle: buildVariableModel refuses those).
  std::vector<char> visited(variables->variables.size(), 0);
  for (size_t k = 0; k < expression.variableIds().size(); ++k) {
    std::vector<int> pending{variables->indexOf(expression.variableIds()[k])};
    while (!pending.empty()) {
      const int index = pending.back();
      pending.pop_back();
      if (index < 0 || visited[static_cast<size_t>(index)]) continue;
      visited[static_cast<size_t>(index)] = 1;
      const ReferenceVariable& variable = variables->variables[static_cast<size_t>(index)];
      if (!variable.expression.loadReads().empty()) {
        return FoundLoadRead{.read = variable.expression.loadReads().front(),
                             .variable = &variable,
                             .variableColumn = expression.variableColumns()[k]};
      }
      pending.insert(pending.end(), variable.readIndices.begin(), variable.readIndices.end());
    }
  }
  return std::nullopt;
}

bool readsLoads(const Expression& expression, const VariableModel* variables) {
  return findLoadRead(expression, variables).has_value();
}

namespace {

// "Constraint_Joint id=3" or "the loads between Reference_Marker id=5 and id=6"…, for messages.
std::string describeLoadRead(const LoadRead& read) {
  switch (read.source) {
    case LoadSource::None:
      return "the loads at Reference_Marker id=" + std::to_string(read.id) + " (joints' among them)";
    case LoadSource::Joint: return "the reaction of Constraint_Joint id=" + std::to_string(read.id);
    case LoadSource::Jprim: return "the reaction of Constraint_Jprim id=" + std::to_string(read.id);
    case LoadSource::Motion: return "the reaction of Motion_Joint id=" + std::to_string(read.id);
    case LoadSource::ScalarForce: return "the force of Force_Scalar_TwoBody id=" + std::to_string(read.id);
    case LoadSource::VectorForce: return "the loads of Force_Vector id=" + std::to_string(read.id);
    case LoadSource::Bushing: return "the loads of Force_Bushing id=" + std::to_string(read.id);
    case LoadSource::SpringDamper: return "the loads of Force_SpringDamper id=" + std::to_string(read.id);
    case LoadSource::Beam: return "the loads of Force_Beam id=" + std::to_string(read.id);
    case LoadSource::Field: return "the loads of Force_Field id=" + std::to_string(read.id);
    case LoadSource::Friction: return "the friction of Force_JointFriction id=" + std::to_string(read.id);
  }
  return {};
}

bool readsReaction(LoadSource source) {
  // A joint's friction is loaded by the joint's reaction.
  return source == LoadSource::None || source == LoadSource::Joint || source == LoadSource::Jprim ||
         source == LoadSource::Motion || source == LoadSource::Friction;
}

}  // namespace

bool refuseLoadReads(const Expression& expression, const std::string& attribute, const SourceLoc& loc,
                     const VariableModel* variables, Diagnostics& diagnostics) {
  const std::optional<FoundLoadRead> found = findLoadRead(expression, variables);
  if (!found) return true;
  const LoadRead& read = found->read;
  const std::string why =
      readsReaction(read.source)
          ? ", which the equations of motion solve for together with the forces (an algebraic loop on the joints' "
            "multipliers): an expression that loads the bodies may not read it"
          : ", which is computed in the same pass as the other forces: an expression that loads the bodies may not "
            "read it yet";
  const std::string where = " (Post_Request, Sensor_Event and the Reference_Variables they read may)";
  const std::string call = std::string(read.function) + " reads " + describeLoadRead(read) + why + where;
  if (!found->variable) {
    diagnostics.error(loc, attribute + "=\"" + excerpt(expression.text()) + "\", column " +
                               std::to_string(read.column) + ": " + call);
  } else {
    diagnostics.error(loc, attribute + "=\"" + excerpt(expression.text()) + "\", column " +
                               std::to_string(found->variableColumn) + ": reads (through VARVAL) Reference_Variable " +
                               "id=" + std::to_string(found->variable->id) + " (" + found->variable->loc.position() +
                               "), whose expr at column " + std::to_string(read.column) + ": " + call);
  }
  return false;
}

namespace {

template <class Spec>
const Spec* specWithId(const std::vector<Spec>& specs, long id) {
  for (const Spec& spec : specs) {
    if (spec.id == id) return &spec;
  }
  return nullptr;
}

}  // namespace

bool checkLoadReferences(const Expression& expression, const std::string& attribute, const SourceLoc& loc,
                         const ModelSpec& spec, Diagnostics& diagnostics) {
  bool found = true;
  const auto report = [&](const LoadRead& read, const std::string& what) {
    diagnostics.error(loc, attribute + "=\"" + excerpt(expression.text()) + "\", column " +
                               std::to_string(read.column) + ": " + read.function + " names " + what);
    found = false;
  };
  for (const LoadRead& read : expression.loadReads()) {
    const long id = read.id;
    const auto missing = [&](const char* element) {
      report(read, std::string(element) + " id=" + std::to_string(id) + ", which the deck does not have");
    };
    switch (read.source) {
      case LoadSource::None: break;  // FX…: markers, checked with the others
      case LoadSource::Joint: if (!specWithId(spec.joints, id)) missing("Constraint_Joint"); break;
      case LoadSource::Jprim: if (!specWithId(spec.primitives, id)) missing("Constraint_Jprim"); break;
      case LoadSource::Motion: if (!specWithId(spec.motions, id)) missing("Motion_Joint"); break;
      case LoadSource::ScalarForce: if (!specWithId(spec.scalarForces, id)) missing("Force_Scalar_TwoBody"); break;
      case LoadSource::Bushing: if (!specWithId(spec.bushings, id)) missing("Force_Bushing"); break;
      case LoadSource::SpringDamper: if (!specWithId(spec.springDampers, id)) missing("Force_SpringDamper"); break;
      case LoadSource::Beam: if (!specWithId(spec.beams, id)) missing("Force_Beam"); break;
      case LoadSource::Field: if (!specWithId(spec.fields, id)) missing("Force_Field"); break;
      case LoadSource::Friction: if (!specWithId(spec.jointFrictions, id)) missing("Force_JointFriction"); break;
      case LoadSource::VectorForce: {
        const ForceVectorSpec* vector = specWithId(spec.vectorForcesTwoBody, id);
        if (!vector) vector = specWithId(spec.vectorForcesOneBody, id);
        if (!vector) {
          missing("Force_Vector_TwoBody or Force_Vector_OneBody");
          break;
        }
        const std::string function = read.function;
        const char* type = function == "VFORCE" ? "FORCEONLY" : function == "VTORQ" ? "TORQUEONLY" : "FORCEANDTORQUE";
        if (!equalsIgnoreCase(vector->type, type)) {
          report(read, vector->loc.subject() + " (" + vector->loc.position() + "), whose type is " + vector->type +
                           ", not " + type + " (VFORCE reads FORCEONLY, VTORQ TORQUEONLY, GFORCE FORCEANDTORQUE)");
        }
        break;
      }
    }
  }
  return found;
}

void addBodiesRead(const Expression& expression, const Model& model, std::vector<int>& bodies) {
  const auto addBody = [&](int body) {
    if (body >= 0 && std::find(bodies.begin(), bodies.end(), body) == bodies.end()) bodies.push_back(body);
  };
  const auto addMarker = [&](int id) {
    if (const Marker* marker = model.marker(id)) addBody(marker->body);
  };
  // A contact's loads move with every body its graphics are on (its I and J bodies).
  const auto addContact = [&](int id) {
    const ForceContact* contact = contactOf(model, id);
    if (!contact) return;
    for (const std::vector<int>* side : {&contact->iGraphics, &contact->jGraphics}) {
      for (const int graphic : *side) addBody(model.contacts->graphics[static_cast<size_t>(graphic)].body);
    }
  };
  for (const int id : expression.markerIds()) addMarker(id);
  for (const int id : expression.contactIds()) addContact(id);
  if (!model.variables) return;
  for (const int id : expression.variableIds()) {
    const int index = model.variables->indexOf(id);
    if (index < 0) continue;
    const ReferenceVariable& variable = model.variables->variables[static_cast<size_t>(index)];
    for (const int marker : variable.markersRead) addMarker(marker);
    for (const int contact : variable.contactsRead) addContact(contact);
  }
}

ModelExpressionContext::ModelExpressionContext(const Model& model)
    : model_(model), variables_(model.variables.get()), data_(model.data.get()) {
  markers_.reserve(model.markers.size());
  for (const Marker& marker : model.markers) markers_.emplace(marker.id, &marker);
  if (variables_) {
    values_.resize(variables_->variables.size());
    computedIn_.resize(variables_->variables.size(), 0);
  }
}

void ModelExpressionContext::setState(double time, std::span<const BodyKinematics> bodies,
                                      const ContactMeasures* contacts, const std::vector<MarkerPairLoad>* loads) {
  time_ = time;
  bodies_ = bodies;
  contacts_ = contacts;
  loads_ = loads;
  ++generation_;
}

MarkerMotion ModelExpressionContext::marker(int id) const {
  const auto found = markers_.find(id);
  if (found == markers_.end()) return MarkerMotion{};  // ground (ids were checked when the model was built)
  const Marker& marker = *found->second;
  const BodyKinematics* body =
      marker.body >= 0 && static_cast<size_t>(marker.body) < bodies_.size() ? &bodies_[static_cast<size_t>(marker.body)]
                                                                             : nullptr;
  return markerMotion(marker, body);
}

std::optional<MarkerMotion> ModelExpressionContext::findMarker(int id) const {
  if (id != 0 && !markers_.contains(id)) return std::nullopt;
  return marker(id);
}

double ModelExpressionContext::variable(int id) const { return variableAt(variables_ ? variables_->indexOf(id) : -1); }

double ModelExpressionContext::variableAt(int index) const {
  if (index < 0) return std::numeric_limits<double>::quiet_NaN();
  const size_t k = static_cast<size_t>(index);
  if (computedIn_[k] != generation_) computeWithReads(k);
  return values_[k];
}

void ModelExpressionContext::computeWithReads(size_t root) const {
  // The variables it reads are computed first, from an explicit stack: evaluating them from inside its expression
  // would recurse once per VARVAL link, and a deck's chain may be far longer than the call stack allows. Each
  // variable is then evaluated when all it reads are cached, so its own VARVALs only read the cache. No cycle can
  // loop here: buildVariableModel refuses variables that read themselves.
  // A VARSUB that reads a variable its set-up call did not read computes it from inside its call: on a stack of its
  // own, the outer one being in use.
  std::vector<size_t> nested;
  std::vector<size_t>& pending = computingVariables_ ? nested : pendingVariables_;
  const bool outer = !computingVariables_;
  computingVariables_ = true;
  struct Restore {
    bool& flag;
    bool outer;
    ~Restore() {
      if (outer) flag = false;
    }
  } restore{computingVariables_, outer};
  pending.assign(1, root);
  while (!pending.empty()) {
    const size_t k = pending.back();
    if (computedIn_[k] == generation_) {  // pushed again by a second variable that reads it
      pending.pop_back();
      continue;
    }
    bool readsCached = true;
    for (const int read : variables_->variables[k].readIndices) {
      if (computedIn_[static_cast<size_t>(read)] != generation_) {
        pending.push_back(static_cast<size_t>(read));
        readsCached = false;
      }
    }
    if (!readsCached) continue;
    pending.pop_back();
    const ReferenceVariable& variable = variables_->variables[k];
    values_[k] = variable.subroutine
                     ? callElementSubroutine(*variable.subroutine, ContextSubroutineState(model_, *this), false)[0]
                     : variable.expression.evaluate(*this);
    computedIn_[k] = generation_;
  }
}

std::optional<ContactLoads> ModelExpressionContext::contact(int id) const {
  return contacts_ ? contacts_->contactLoads(id) : std::nullopt;
}

double ModelExpressionContext::spline(SplineMethod method, int id, double x, double z, int order) const {
  const ReferenceSpline* found = data_ ? data_->spline(id) : nullptr;
  return found ? found->evaluate(method, x, z, order) : std::numeric_limits<double>::quiet_NaN();
}

double ModelExpressionContext::differentialState(int id, bool derivative) const {
  const int index = model_.differentials ? model_.differentials->indexOf(id) : -1;
  if (index < 0 || !differentialStates_) return std::numeric_limits<double>::quiet_NaN();
  const std::vector<double>& from = derivative ? differentialStates_->rates : differentialStates_->values;
  return static_cast<size_t>(index) < from.size() ? from[static_cast<size_t>(index)]
                                                  : std::numeric_limits<double>::quiet_NaN();
}

double ModelExpressionContext::sensorValue(int id) const {
  const int index = model_.sensorEvaluates ? model_.sensorEvaluates->indexOf(id) : -1;
  if (index < 0 || !sensorEvaluateValues_ || static_cast<size_t>(index) >= sensorEvaluateValues_->values.size()) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return sensorEvaluateValues_->values[static_cast<size_t>(index)];
}

double ModelExpressionContext::arrayValue(int id, int position) const {
  const ReferenceArray* found = data_ ? data_->array(id) : nullptr;
  // Only an X or Y array (states or outputs of a control system, no numbers in the deck) looks for its system: ARYVAL
  // of the deck's numbers costs the one lookup it did before the systems.
  if (found && (found->type == "X" || found->type == "Y")) {
    const ControlModel::ArrayOwner* owner = model_.controls ? model_.controls->ownerOf(id) : nullptr;
    return owner ? controlArrayValue(*owner, position) : std::numeric_limits<double>::quiet_NaN();
  }
  // Ids, types and positions were checked when the model was built; a bare lookup can still miss.
  if (!found || position < 1 || position > static_cast<int>(found->values.size())) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return found->values[static_cast<size_t>(position - 1)];
}

std::optional<std::span<const double>> ModelExpressionContext::controlStates(const ControlSystem& system) const {
  if (!differentialStates_) return std::nullopt;
  // The systems' states follow the Control_Diff states in the block the driver keeps.
  const size_t first = (model_.differentials ? model_.differentials->equations.size() : 0) +
                       static_cast<size_t>(system.stateOffset);
  const std::vector<double>& states = differentialStates_->values;
  if (first + static_cast<size_t>(system.stateCount()) > states.size()) return std::nullopt;
  return std::span<const double>(states.data() + first, static_cast<size_t>(system.stateCount()));
}

double ModelExpressionContext::controlArrayValue(const ControlModel::ArrayOwner& owner, int position) const {
  const ControlSystem& system = model_.controls->systems[static_cast<size_t>(owner.system)];
  const int row = position - 1;
  const std::optional<std::span<const double>> states = controlStates(system);
  if (!states || row < 0 || row >= (owner.outputs ? system.outputCount() : system.stateCount())) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (!owner.outputs) return (*states)[static_cast<size_t>(row)];
  if (system.general) return stateEquationValues(owner.system, false).output[static_cast<size_t>(row)];
  // y = C x + D u: the inputs read now, as the output is algebraic.
  double output = 0;
  for (int j = 0; j < system.stateCount(); ++j) output += system.c(row, j) * (*states)[static_cast<size_t>(j)];
  for (size_t i = 0; i < system.inputIndices.size(); ++i) {
    const double feedThrough = system.d(row, static_cast<int>(i));
    if (feedThrough != 0.0) output += feedThrough * variableAt(system.inputIndices[i]);
  }
  return output;
}

const StateEquationValues& ModelExpressionContext::stateEquationValues(int index, bool dflag) const {
  const ControlSystem& system = model_.controls->systems[static_cast<size_t>(index)];
  if (stateEquations_.size() <= static_cast<size_t>(index)) stateEquations_.resize(model_.controls->systems.size());
  StateEquationCache& cache = stateEquations_[static_cast<size_t>(index)];
  if (cache.computedIn == generation_) return cache.values;
  const std::optional<std::span<const double>> states = controlStates(system);
  if (!system.subroutine || !states) {  // `check` builds no subroutine; a context without states has none to read
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    cache.values = StateEquationValues{std::vector<double>(static_cast<size_t>(system.stateCount()), kNaN),
                                       std::vector<double>(static_cast<size_t>(system.outputCount()), kNaN)};
  } else {
    cache.inputs.resize(system.inputIndices.size());
    for (size_t i = 0; i < system.inputIndices.size(); ++i) cache.inputs[i] = variableAt(system.inputIndices[i]);
    cache.values = callStateEquationSubroutine(*system.subroutine, ContextSubroutineState(model_, *this), dflag,
                                               *states, cache.inputs);
  }
  cache.computedIn = generation_;
  return cache.values;
}

std::optional<MarkerLoads> ModelExpressionContext::elementLoads(LoadSource source, int id) const {
  if (!loads_) return std::nullopt;
  for (const MarkerPairLoad& load : *loads_) {
    if (load.source == source && load.id == id) {
      return MarkerLoads{load.forceOnI, load.torqueOnI, load.forceOnJ, load.torqueOnJ};
    }
  }
  return MarkerLoads{};  // an element of the deck switched off (the ids were checked when the model was built)
}

std::optional<FrictionMeasures> ModelExpressionContext::friction(int id) const {
  if (!frictions_) return std::nullopt;
  for (const FrictionMeasures& measures : *frictions_) {
    if (measures.id == id) return measures;
  }
  return std::nullopt;
}

std::optional<MarkerLoads> ModelExpressionContext::markerLoads(int markerI, int markerJ) const {
  if (!loads_) return std::nullopt;
  return loadOnMarker(*loads_, markerI, markerJ);
}

LoadSource loadSourceOfElement(std::string_view element) {
  if (element == "Constraint_Joint") return LoadSource::Joint;
  if (element == "Constraint_Jprim") return LoadSource::Jprim;
  if (element == "Motion_Joint") return LoadSource::Motion;
  if (element == "Force_Scalar_TwoBody") return LoadSource::ScalarForce;
  if (element == "Force_Vector_TwoBody" || element == "Force_Vector_OneBody") return LoadSource::VectorForce;
  if (element == "Force_Bushing") return LoadSource::Bushing;
  if (element == "Force_SpringDamper") return LoadSource::SpringDamper;
  if (element == "Force_Beam") return LoadSource::Beam;
  if (element == "Force_Field") return LoadSource::Field;
  return LoadSource::None;
}

MarkerLoads loadOnMarker(std::span<const MarkerPairLoad> loads, long markerI, long markerJ) {
  MarkerLoads sum;
  for (const MarkerPairLoad& load : loads) {
    if (load.markerI == markerI && (markerJ == 0 || load.markerJ == markerJ)) {
      sum.forceOnI += load.forceOnI;
      sum.torqueOnI += load.torqueOnI;
    }
    if (load.markerJ == markerI && (markerJ == 0 || load.markerI == markerJ)) {
      sum.forceOnI += load.forceOnJ;
      sum.torqueOnI += load.torqueOnJ;
    }
  }
  return sum;
}

}  // namespace lodestone
