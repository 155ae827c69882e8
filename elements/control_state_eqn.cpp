// Control_StateEqn: attributes, checks, and the model's linear systems (Control_SISO's among them).
#include "control_state_eqn.h"

#include <algorithm>
#include <functional>

#include "elements/control_siso.h"
#include "elements/expression_context.h"
#include "elements/reference_array.h"
#include "elements/reference_matrix.h"
#include "elements/reference_variable.h"
#include "elements/subroutine_state.h"
#include "solver/core/excerpt.h"

namespace lodestone {

namespace {

using S = ControlStateEqnSpec;

// MotionSolve writes the arrays' ids under two names (x_array_id, and x_solver_array_id in exported decks).
Attribute<S> arrayReference(const char* name, std::optional<long> S::*field) {
  return attr::reference(name, field, "Reference_Array");
}

}  // namespace

const ElementSchema<ControlStateEqnSpec>& controlStateEqnSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{.element = "Control_StateEqn", .idField = &S::id, .attributes = {}};
    std::vector<Attribute<S>> rows = {
        attr::text("label", &S::label),
        attr::keyword("type", &S::type, {"LINEAR", "USERSUB"}).required(),
        arrayReference("x_array_id", &S::x_array_id),
        arrayReference("u_array_id", &S::u_array_id),
        arrayReference("y_array_id", &S::y_array_id),
        arrayReference("x_solver_array_id", &S::x_array_id),
        arrayReference("u_solver_array_id", &S::u_array_id),
        arrayReference("y_solver_array_id", &S::y_array_id),
        // 0 (as exported decks write it) means none: an integer, checked against the arrays when the model is built.
        attr::make<S>("ic_array_id", ValueKind::Integer,
                      [](S& spec, const Value& value) { spec.ic_array_id = std::get<long>(value); }),
        attr::make<S>("ic_solver_array_id", ValueKind::Integer,
                      [](S& spec, const Value& value) { spec.ic_array_id = std::get<long>(value); }),
        attr::reference("a_matrix_id", &S::a_matrix_id, "Reference_Matrix"),
        attr::reference("b_matrix_id", &S::b_matrix_id, "Reference_Matrix"),
        attr::reference("c_matrix_id", &S::c_matrix_id, "Reference_Matrix"),
        attr::reference("d_matrix_id", &S::d_matrix_id, "Reference_Matrix"),
        attr::integer("num_state", &S::num_state).atLeast(0),
        attr::integer("num_output", &S::num_output).atLeast(0),
        attr::boolean("is_static_hold", &S::is_static_hold).byDefault(false),
        attr::presentation<S>("full_label"),
    };
    addSubroutineRows(rows, &S::subroutine);
    for (const char* name : {"usrsub_der1_name", "usrsub_der2_name", "usrsub_der3_name", "usrsub_der4_name",
                             "fmu_communication_interval", "ip_address"}) {
      rows.push_back(attr::make<S>(name, ValueKind::Text, [name = std::string(name)](S& spec, const Value& value) {
        spec.unusedAttributes.emplace_back(name, std::get<std::string>(value));
      }));
    }
    made.attributes = std::move(rows);
    return made;
  }();
  return schema;
}

namespace {

// What a type never reads, said once each: the other type's attributes, the GSE's partial derivatives.
void warnUnusedAttributes(const ControlStateEqnSpec& spec, Diagnostics& diagnostics) {
  const bool general = spec.type == "USERSUB";
  if (!general) {
    warnUnusedSubroutineAttributes(spec.subroutine, "type=\"LINEAR\" takes its matrices, not a GSESUB", spec.loc,
                                   diagnostics);
  }
  std::string derivatives;
  for (const auto& [name, value] : spec.unusedAttributes) {
    if (name.rfind("usrsub_der", 0) == 0 && general) {
      derivatives += (derivatives.empty() ? "" : ", ") + name + "=\"" + excerpt(value) + "\"";
    } else if (name.rfind("usrsub_der", 0) == 0) {
      diagnostics.warning(spec.loc, name + " is ignored: type=\"LINEAR\" takes its matrices, not GSE subroutines");
    } else {
      diagnostics.warning(spec.loc, name + " is ignored: it belongs to a co-simulated system, which Lodestone does "
                                           "not run");
    }
  }
  if (!derivatives.empty()) {
    diagnostics.warning(spec.loc, derivatives + ": the partial derivatives (GSEXX, GSEXU, GSEYX, GSEYU) are not "
                                  "called; Lodestone differences GSESUB (dflag = 1) for its iteration matrix, as "
                                  "MotionSolve does when they are not given");
  }
  if (general) {
    const std::pair<const char*, const std::optional<long>*> matrices[] = {{"a_matrix_id", &spec.a_matrix_id},
                                                                           {"b_matrix_id", &spec.b_matrix_id},
                                                                           {"c_matrix_id", &spec.c_matrix_id},
                                                                           {"d_matrix_id", &spec.d_matrix_id}};
    for (const auto& [name, value] : matrices) {
      if (*value) diagnostics.warning(spec.loc, std::string(name) + " is ignored: type=\"USERSUB\" takes the "
                                                "states' rates and the outputs from GSESUB");
    }
  }
}

}  // namespace

void checkControlStateEqn(const ControlStateEqnSpec& spec, Diagnostics& diagnostics) {
  warnUnusedAttributes(spec, diagnostics);
  if (spec.type == "USERSUB") {
    checkSubroutineAttributes(spec.subroutine, "GSESUB", spec.loc, diagnostics);
    if (!spec.num_state) {
      diagnostics.error(spec.loc, "type=\"USERSUB\" needs num_state, the number of states GSESUB gives the rates of "
                                  "(0 for none)");
    } else if (*spec.num_state > 0 && !spec.x_array_id) {
      diagnostics.error(spec.loc, "num_state=\"" + std::to_string(*spec.num_state) + "\" needs x_array_id, a "
                                  "Reference_Array of type X that holds the states");
    }
    return;
  }
  if (!spec.x_array_id) diagnostics.error(spec.loc, "type=\"LINEAR\" needs x_array_id, a Reference_Array of type X "
                                                    "that holds its states");
  if (!spec.a_matrix_id) diagnostics.error(spec.loc, "type=\"LINEAR\" needs a_matrix_id, the Reference_Matrix A of "
                                                     "x' = A x + B u");
  if (spec.b_matrix_id && !spec.u_array_id) {
    diagnostics.error(spec.loc, "b_matrix_id needs u_array_id, the Reference_Array of type U whose variables B "
                                "multiplies");
  }
  if (spec.c_matrix_id && !spec.y_array_id) {
    diagnostics.error(spec.loc, "c_matrix_id needs y_array_id, the Reference_Array of type Y that holds the outputs");
  }
  if (spec.d_matrix_id && (!spec.y_array_id || !spec.u_array_id)) {
    diagnostics.error(spec.loc, "d_matrix_id needs u_array_id and y_array_id: D takes inputs to outputs");
  }
}

const ControlModel::ArrayOwner* ControlModel::ownerOf(long arrayId) const {
  const auto found = arrayOwners.find(arrayId);
  return found == arrayOwners.end() ? nullptr : &found->second;
}

namespace {

template <class Spec>
const Spec* byId(const std::vector<Spec>& specs, long id) {
  for (const Spec& spec : specs) {
    if (spec.id == id) return &spec;
  }
  return nullptr;
}

// Builds one system's arrays and sizes into `system` (its matrices set already); false after reporting.
class SystemBuilder {
 public:
  SystemBuilder(const std::vector<ReferenceArraySpec>& arrays, ControlModel& model, Diagnostics& diagnostics)
      : arrays_(arrays), model_(model), diagnostics_(diagnostics) {}

  // The array `id` named by `attribute`, of type `type`; nullptr after reporting.
  const ReferenceArraySpec* array(const SourceLoc& loc, const char* attribute, long id, const char* type) {
    const ReferenceArraySpec* found = byId(arrays_, id);
    if (!found) return nullptr;  // the reader reports a missing reference
    if (found->type.value_or("") != type) {
      diagnostics_.error(loc, std::string(attribute) + "=\"" + std::to_string(id) + "\" names Reference_Array id=" +
                                  std::to_string(id) + " (" + found->loc.position() + ") of type " +
                                  (found->type ? *found->type : std::string("IC (no type)")) + "; it must be of type " +
                                  type);
      return nullptr;
    }
    return found;
  }

  // Whether an X or Y array may hold a system's `size` states or outputs: no other system's; false after reporting.
  // Its num_element is not its size (MotionView writes "1" for a GSE of five states): a warning where it differs.
  bool mayOwn(const SourceLoc& loc, const char* attribute, const ReferenceArraySpec& array, int size, bool outputs) {
    if (const ControlModel::ArrayOwner* owner = model_.ownerOf(array.id)) {
      const ControlSystem& other = model_.systems[static_cast<size_t>(owner->system)];
      diagnostics_.error(loc, std::string(attribute) + "=\"" + std::to_string(array.id) + "\": Reference_Array id=" +
                                  std::to_string(array.id) + " holds the " + (owner->outputs ? "outputs" : "states") +
                                  " of " + other.element + " id=" + std::to_string(other.id) + " (" +
                                  other.loc.position() + ") already; each system needs arrays of its own");
      return false;
    }
    if (array.num_element && *array.num_element != size) {
      diagnostics_.warning(loc, std::string(attribute) + "=\"" + std::to_string(array.id) + "\": Reference_Array id=" +
                                    std::to_string(array.id) + " (" + array.loc.position() + ") has num_element=\"" +
                                    std::to_string(*array.num_element) + "\", and the system has " +
                                    std::to_string(size) + (outputs ? " outputs" : " states") + ", which it holds (as "
                                    "MotionSolve, the system sizes its arrays)");
    }
    return true;
  }

  // Adds `system` (its sizes and matrices set) owning its X array (null: none, for a GSE without states) and its Y
  // array (null: none), unless they may not be its or an error came since `errorsBefore`. Only a system added owns
  // its arrays: an owner is an index into the systems.
  void add(ControlSystem system, const ReferenceArraySpec* x, const ReferenceArraySpec* y, int errorsBefore) {
    if (x && !mayOwn(system.loc, "x_array_id", *x, system.stateCount(), false)) return;
    if (y && !mayOwn(system.loc, "y_array_id", *y, system.outputCount(), true)) return;
    if (diagnostics_.errorCount() != errorsBefore) return;
    const int index = static_cast<int>(model_.systems.size());
    if (x) model_.arrayOwners[x->id] = ControlModel::ArrayOwner{index, false};
    if (y) model_.arrayOwners[y->id] = ControlModel::ArrayOwner{index, true};
    system.xArray = x ? x->id : 0;
    system.yArray = y ? y->id : 0;
    system.stateOffset = model_.stateCount;
    model_.stateCount += system.stateCount();
    system.hasFeedThrough = system.general ? system.outputCount() > 0 : system.d.size() > 0 && !system.d.isZero(0.0);
    model_.systems.push_back(std::move(system));
  }

  // The variable ids of the U array `u` (null: none) into `system`, the ic array's values into its initial state
  // (zeros without one); a Control_StateEqn's. Reported on the element's line (add then refuses the system).
  void readInputsAndInitialState(const ControlStateEqnSpec& spec, const ReferenceArraySpec* u, ControlSystem& system) {
    if (u) {
      for (const double id : u->values) system.inputVariables.push_back(static_cast<int>(id));
    }
    const int n = system.stateCount();
    system.initialState = Eigen::VectorXd::Zero(n);
    if (!spec.ic_array_id || *spec.ic_array_id == 0) return;
    const ReferenceArraySpec* ic = byId(arrays_, *spec.ic_array_id);
    const std::string named = "ic_array_id=\"" + std::to_string(*spec.ic_array_id) + "\"";
    if (!ic) {
      diagnostics_.error(spec.loc, named + " names Reference_Array id=" + std::to_string(*spec.ic_array_id) +
                                       ", which the deck does not have");
    } else if (ic->type && *ic->type != "IC") {
      diagnostics_.error(spec.loc, named + " names Reference_Array id=" + std::to_string(ic->id) + " (" +
                                       ic->loc.position() + ") of type " + *ic->type +
                                       "; it must be of type IC (or have no type)");
    } else if (static_cast<int>(ic->values.size()) != n) {
      diagnostics_.error(spec.loc, named + ": Reference_Array id=" + std::to_string(ic->id) + " (" +
                                       ic->loc.position() + ") holds " + std::to_string(ic->values.size()) +
                                       " values, and the system has " + std::to_string(n) + " states");
    } else {
      system.initialState = Eigen::Map<const Eigen::VectorXd>(ic->values.data(), n);
    }
  }

 private:
  const std::vector<ReferenceArraySpec>& arrays_;
  ControlModel& model_;
  Diagnostics& diagnostics_;
};

// "a_matrix_id=\"3\" (Reference_Matrix id=3, deck.xml:9:3) is 2 x 3; A must be n x n = 2 x 2 (…)".
std::string sizeProblem(const char* attribute, const ReferenceMatrixSpec& matrix, int rows, int columns,
                        const std::string& why) {
  return std::string(attribute) + "=\"" + std::to_string(matrix.id) + "\" (Reference_Matrix id=" +
         std::to_string(matrix.id) + ", " + matrix.loc.position() + ") is " + std::to_string(matrix.values.rows()) +
         " x " + std::to_string(matrix.values.cols()) + "; it must be " + std::to_string(rows) + " x " +
         std::to_string(columns) + " (" + why + ")";
}

// A Control_StateEqn of type="USERSUB": its sizes and arrays, its GSESUB to come (setUpStateEquationSubroutines).
void addGeneralSystem(const ControlStateEqnSpec& spec, SystemBuilder& builder, Diagnostics& diagnostics) {
  if (!spec.num_state || (*spec.num_state > 0 && !spec.x_array_id)) return;  // reported by the check
  const int errorsBefore = diagnostics.errorCount();
  ControlSystem system{.id = spec.id, .loc = spec.loc, .element = "Control_StateEqn", .states = *spec.num_state,
                       .outputs = spec.num_output.value_or(0), .general = true};
  const ReferenceArraySpec* u = spec.u_array_id ? builder.array(spec.loc, "u_array_id", *spec.u_array_id, "U")
                                                : nullptr;
  builder.readInputsAndInitialState(spec, u, system);
  const ReferenceArraySpec* x = spec.x_array_id ? builder.array(spec.loc, "x_array_id", *spec.x_array_id, "X")
                                                : nullptr;
  const ReferenceArraySpec* y = spec.y_array_id ? builder.array(spec.loc, "y_array_id", *spec.y_array_id, "Y")
                                                : nullptr;
  if ((spec.u_array_id && !u) || (spec.x_array_id && !x) || (spec.y_array_id && !y)) return;
  builder.add(std::move(system), x, y, errorsBefore);
}

}  // namespace

std::shared_ptr<ControlModel> buildControlModel(const std::vector<ControlStateEqnSpec>& stateEquations,
                                                const std::vector<ControlSisoSpec>& sisos,
                                                const std::vector<ReferenceMatrixSpec>& matrices,
                                                const std::vector<ReferenceArraySpec>& arrays,
                                                Diagnostics& diagnostics) {
  auto result = std::make_shared<ControlModel>();
  SystemBuilder builder(arrays, *result, diagnostics);
  for (const ControlStateEqnSpec& spec : stateEquations) {
    const int errorsBefore = diagnostics.errorCount();
    if (spec.type == "USERSUB") {
      addGeneralSystem(spec, builder, diagnostics);
      continue;
    }
    if (!spec.x_array_id || !spec.a_matrix_id) continue;  // reported by the check
    const auto matrix = [&](const std::optional<long>& id) -> const ReferenceMatrixSpec* {
      const ReferenceMatrixSpec* found = id ? byId(matrices, *id) : nullptr;
      return found && found->values.size() > 0 ? found : nullptr;  // a missing or unread one is reported already
    };
    const ReferenceMatrixSpec* a = matrix(spec.a_matrix_id);
    if (!a) continue;
    const int n = static_cast<int>(a->values.rows());
    if (a->values.cols() != n) {
      diagnostics.error(spec.loc, sizeProblem("a_matrix_id", *a, n, n, "A is square, n x n for n states"));
      continue;
    }
    const ReferenceArraySpec* u = spec.u_array_id ? builder.array(spec.loc, "u_array_id", *spec.u_array_id, "U")
                                                  : nullptr;
    const int m = u ? static_cast<int>(u->values.size()) : 0;
    ControlSystem system{.id = spec.id, .loc = spec.loc, .element = "Control_StateEqn", .states = n};
    system.a = a->values;
    system.b = Eigen::MatrixXd::Zero(n, m);
    if (const ReferenceMatrixSpec* b = matrix(spec.b_matrix_id)) {
      if (b->values.rows() != n || b->values.cols() != m) {
        diagnostics.error(spec.loc, sizeProblem("b_matrix_id", *b, n, m, "n states by the U array's m inputs"));
      } else {
        system.b = b->values;
      }
    }
    int p = 0;
    const ReferenceMatrixSpec* c = matrix(spec.c_matrix_id);
    const ReferenceMatrixSpec* d = matrix(spec.d_matrix_id);
    if (c) p = static_cast<int>(c->values.rows());
    else if (d) p = static_cast<int>(d->values.rows());
    system.outputs = p;
    system.c = Eigen::MatrixXd::Zero(p, n);
    system.d = Eigen::MatrixXd::Zero(p, m);
    if (c) {
      if (c->values.cols() != n) {
        diagnostics.error(spec.loc, sizeProblem("c_matrix_id", *c, p, n, "p outputs by n states"));
      } else {
        system.c = c->values;
      }
    }
    if (d) {
      if (d->values.rows() != p || d->values.cols() != m) {
        diagnostics.error(spec.loc, sizeProblem("d_matrix_id", *d, p, m, "p outputs by the U array's m inputs"));
      } else {
        system.d = d->values;
      }
    }
    if (spec.num_state && *spec.num_state != n) {
      diagnostics.error(spec.loc, "num_state=\"" + std::to_string(*spec.num_state) + "\" but A (a_matrix_id=\"" +
                                      std::to_string(a->id) + "\") is " + std::to_string(n) + " x " +
                                      std::to_string(n));
    }
    if (spec.num_output && *spec.num_output != p) {
      diagnostics.error(spec.loc, "num_output=\"" + std::to_string(*spec.num_output) + "\" but C and D give " +
                                      std::to_string(p) + " outputs");
    }
    builder.readInputsAndInitialState(spec, u, system);
    const ReferenceArraySpec* x = builder.array(spec.loc, "x_array_id", *spec.x_array_id, "X");
    const ReferenceArraySpec* y = spec.y_array_id ? builder.array(spec.loc, "y_array_id", *spec.y_array_id, "Y")
                                                  : nullptr;
    if (spec.u_array_id && !u) continue;
    if (!x || (spec.y_array_id && !y)) continue;
    builder.add(std::move(system), x, y, errorsBefore);
  }
  for (const ControlSisoSpec& spec : sisos) {
    if (!spec.x_array_id || !spec.y_array_id || !spec.u_array_id) continue;  // reported by the check
    if (spec.numerator_coef.empty() || spec.denominator_coef.empty()) continue;
    const int errorsBefore = diagnostics.errorCount();
    const ReferenceArraySpec* x = builder.array(spec.loc, "x_array_id", *spec.x_array_id, "X");
    const ReferenceArraySpec* y = builder.array(spec.loc, "y_array_id", *spec.y_array_id, "Y");
    const ReferenceArraySpec* u = builder.array(spec.loc, "u_array_id", *spec.u_array_id, "U");
    if (!x || !y || !u) continue;
    if (u->values.size() != 1) {
      diagnostics.error(spec.loc, "u_array_id=\"" + std::to_string(u->id) + "\": Reference_Array id=" +
                                      std::to_string(u->id) + " (" + u->loc.position() + ") lists " +
                                      std::to_string(u->values.size()) + " variables; a single-input system reads one");
      continue;
    }
    const StateSpace realised = realiseTransferFunction(spec.numerator_coef, spec.denominator_coef);
    ControlSystem system{.id = spec.id, .loc = spec.loc, .element = "Control_SISO",
                         .states = static_cast<int>(realised.a.rows()), .outputs = static_cast<int>(realised.c.rows())};
    system.a = realised.a;
    system.b = realised.b;
    system.c = realised.c;
    system.d = realised.d;
    system.initialState = Eigen::VectorXd::Zero(system.a.rows());
    system.inputVariables = {static_cast<int>(u->values[0])};
    builder.add(std::move(system), x, y, errorsBefore);
  }
  return result;
}

namespace {

// The Y arrays of systems with feed-through that `variable` reads, itself or through the variables it reads.
void addFeedThroughOutputsRead(const ControlModel& controls, const VariableModel& variables, int variableIndex,
                               std::vector<int>& systems) {
  std::vector<char> visited(variables.variables.size(), 0);
  std::vector<int> pending{variableIndex};
  while (!pending.empty()) {
    const int index = pending.back();
    pending.pop_back();
    if (index < 0 || visited[static_cast<size_t>(index)]) continue;
    visited[static_cast<size_t>(index)] = 1;
    const ReferenceVariable& read = variables.variables[static_cast<size_t>(index)];
    for (const DataReference& reference : read.expression.dataReferences()) {
      if (reference.kind != DataReference::Kind::Array) continue;
      const ControlModel::ArrayOwner* owner = controls.ownerOf(reference.id);
      if (!owner || !owner->outputs) continue;
      if (!controls.systems[static_cast<size_t>(owner->system)].hasFeedThrough) continue;
      if (std::find(systems.begin(), systems.end(), owner->system) == systems.end()) systems.push_back(owner->system);
    }
    pending.insert(pending.end(), read.readIndices.begin(), read.readIndices.end());
  }
}

}  // namespace

void addBodiesReadThroughOutputs(const Expression& expression, const Model& model, std::vector<int>& bodies) {
  const ControlModel* controls = model.controls.get();
  const VariableModel* variables = model.variables.get();
  if (!controls || controls->systems.empty()) return;
  std::vector<char> visitedVariable(variables ? variables->variables.size() : 0, 0);
  std::vector<char> visitedSystem(controls->systems.size(), 0);
  std::vector<const Expression*> pending{&expression};
  const auto pushVariable = [&](int id) {
    const int index = variables ? variables->indexOf(id) : -1;
    if (index < 0 || visitedVariable[static_cast<size_t>(index)]) return;
    visitedVariable[static_cast<size_t>(index)] = 1;
    pending.push_back(&variables->variables[static_cast<size_t>(index)].expression);
  };
  while (!pending.empty()) {
    const Expression* read = pending.back();
    pending.pop_back();
    for (const DataReference& reference : read->dataReferences()) {
      if (reference.kind != DataReference::Kind::Array) continue;
      const ControlModel::ArrayOwner* owner = controls->ownerOf(reference.id);
      if (!owner || !owner->outputs || visitedSystem[static_cast<size_t>(owner->system)]) continue;
      const ControlSystem& system = controls->systems[static_cast<size_t>(owner->system)];
      if (!system.hasFeedThrough) continue;
      visitedSystem[static_cast<size_t>(owner->system)] = 1;
      if (system.subroutine) addSubroutineBodies(*system.subroutine, model, bodies);  // its own c_sysfnc reads
      for (const int input : system.inputVariables) {
        const int index = variables ? variables->indexOf(input) : -1;
        if (index >= 0) addBodiesRead(variables->variables[static_cast<size_t>(index)].expression, model, bodies);
        pushVariable(input);
      }
    }
    for (const int id : read->variableIds()) pushVariable(id);
  }
}

void setUpStateEquationSubroutines(ControlModel& controls, const std::vector<ControlStateEqnSpec>& specs,
                                   const Model& model, Diagnostics& diagnostics) {
  for (ControlSystem& system : controls.systems) {
    if (!system.general) continue;
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const auto& s) { return s.id == system.id; });
    if (spec == specs.end()) continue;
    const ElementSubroutine::StateEquationSizes sizes{system.stateCount(),
                                                      static_cast<int>(system.inputVariables.size()),
                                                      system.outputCount()};
    system.subroutine = buildElementSubroutine(spec->subroutine, "GSESUB", 0, "[stated, output]", false, spec->loc,
                                               model, diagnostics, sizes);
    if (!system.subroutine) continue;
    // Its rows are evaluated before the loads exist, as its inputs' (resolveControlInputs); and its outputs, which
    // forces may read, would read accelerations at the same instant.
    const OutputReads reads = subroutineReads(*system.subroutine, model);
    if (reads.contacts || reads.loads || (reads.acceleration && system.hasFeedThrough)) {
      diagnostics.error(spec->loc, system.subroutine->routine.describe() + " reads, through c_varval, a variable "
                                   "that reads " + (reads.contacts || reads.loads ? "loads" : "accelerations, and "
                                   "its outputs would read them at the same instant") + "; a control system may read "
                                   "positions, velocities, time, variables and states, and accelerations where its "
                                   "outputs do not read its inputs");
    }
  }
}

void resolveControlInputs(ControlModel& controls, const Model& model, Diagnostics& diagnostics) {
  const VariableModel* variables = model.variables.get();
  // Which feed-through systems each feed-through system's outputs read at the same instant, through its inputs.
  std::vector<std::vector<int>> readsOutputsOf(controls.systems.size());
  for (size_t s = 0; s < controls.systems.size(); ++s) {
    ControlSystem& system = controls.systems[s];
    for (size_t k = 0; k < system.inputVariables.size(); ++k) {
      const int id = system.inputVariables[k];
      const int index = variables ? variables->indexOf(id) : -1;
      system.inputIndices.push_back(index);
      const std::string input = "input " + std::to_string(k + 1) + " (u_array_id's Reference_Variable id=" +
                                std::to_string(id) + ")";
      if (index < 0) {
        diagnostics.error(system.loc, input + " is not in the deck");
        continue;
      }
      const ReferenceVariable& variable = variables->variables[static_cast<size_t>(index)];
      const std::string where = input + " (" + variable.loc.position() + ") ";
      // The rows read accelerations from the rates being evaluated; an output that reads its inputs would make the
      // forces and motions that read it read accelerations too, which they cannot.
      if (system.hasFeedThrough && readsAcceleration(variable.expression, variables)) {
        diagnostics.error(system.loc, where + "reads accelerations (ACCX…, WDTX…), itself or through VARVAL, and the "
                                              "system's outputs read its inputs at the same instant (" +
                                              (system.general ? std::string("a GSESUB with outputs")
                                                              : std::string("D is not 0")) +
                                              "), which forces and motions cannot; the inputs of a system without "
                                              "feed-through may read accelerations");
      }
      if (readsContacts(variable.expression, variables)) {
        diagnostics.error(system.loc, where + "reads a Force_Contact's loads (CONTACT), which the inputs of a control "
                                              "system cannot read yet");
      }
      if (readsLoads(variable.expression, variables)) {
        diagnostics.error(system.loc, where + "reads an element's loads (JOINT, SFORCE, FX…), which the inputs of "
                                              "a control system cannot read yet: its rows are evaluated before the "
                                              "loads");
      }
      if (system.hasFeedThrough) addFeedThroughOutputsRead(controls, *variables, index, readsOutputsOf[s]);
    }
    // A GSESUB reads at the same instant the variables its set-up call read through c_varval, as it reads its inputs.
    if (system.hasFeedThrough && system.subroutine && variables) {
      for (const int id : system.subroutine->variablesRead) {
        const int index = variables->indexOf(id);
        if (index >= 0) addFeedThroughOutputsRead(controls, *variables, index, readsOutputsOf[s]);
      }
    }
  }
  // A cycle among feed-through systems would make an output read itself at the same instant: depth first, each
  // system reported once.
  std::vector<int> mark(controls.systems.size(), 0);  // 0 unseen, 1 on the path, 2 done
  std::function<bool(int, std::vector<int>&)> visit = [&](int s, std::vector<int>& path) {
    mark[static_cast<size_t>(s)] = 1;
    path.push_back(s);
    for (const int next : readsOutputsOf[static_cast<size_t>(s)]) {
      if (mark[static_cast<size_t>(next)] == 1) {
        std::string loop;
        for (auto at = std::find(path.begin(), path.end(), next); at != path.end(); ++at) {
          const ControlSystem& member = controls.systems[static_cast<size_t>(*at)];
          loop += member.element + " id=" + std::to_string(member.id) + " -> ";
        }
        loop += controls.systems[static_cast<size_t>(next)].element + " id=" +
                std::to_string(controls.systems[static_cast<size_t>(next)].id);
        const ControlSystem& system = controls.systems[static_cast<size_t>(next)];
        const char* how = system.general ? "through its inputs or its GSESUB's c_varval (a GSESUB's outputs may read "
                                           "them)"
                                         : "through its inputs (D is not 0)";
        diagnostics.error(system.loc, std::string("its outputs read themselves at the same instant ") + how +
                                          ", an algebraic loop: " + loop + "; break it with a state (a Control_Diff "
                                          "or a strictly proper system)");
        return true;
      }
      if (mark[static_cast<size_t>(next)] == 0 && visit(next, path)) return true;
    }
    path.pop_back();
    mark[static_cast<size_t>(s)] = 2;
    return false;
  };
  for (size_t s = 0; s < controls.systems.size(); ++s) {
    std::vector<int> path;
    if (mark[s] == 0) visit(static_cast<int>(s), path);
  }
}

}  // namespace lodestone
