// Reference_Variable: attributes, checks, and the model's variables in dependency order.
#include "reference_variable.h"

#include <algorithm>
#include <set>

#include "elements/expression_context.h"
#include "elements/subroutine_state.h"
#include "solver/core/excerpt.h"

namespace lodestone {

using S = ReferenceVariableSpec;

const ElementSchema<ReferenceVariableSpec>& referenceVariableSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
      .element = "Reference_Variable",
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

void checkReferenceVariable(const ReferenceVariableSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    if (spec.expr) diagnostics.warning(spec.loc, "expr is ignored: type=\"USERSUB\" takes the value from VARSUB");
    checkSubroutineAttributes(spec.subroutine, "VARSUB", spec.loc, diagnostics);
    return;
  }
  if (spec.subroutine.any()) {
    warnUnusedSubroutineAttributes(spec.subroutine, "type is not USERSUB", spec.loc, diagnostics);
  }
  if (!spec.expr) {
    diagnostics.error(spec.loc, "type=\"EXPRESSION\" needs expr, the expression that gives the variable's value");
    return;
  }
  compileAttribute("expr", *spec.expr, spec.loc, diagnostics);
}

int VariableModel::indexOf(long id) const {
  const auto found = indexById.find(id);
  return found == indexById.end() ? -1 : found->second;
}

namespace {

// Depth-first walk of "reads" edges: each cycle is reported once, on the variable where the walk entered it, with
// the chain of ids and where each is; the variables of a cycle and those that read them are marked broken.
class CycleFinder {
 public:
  CycleFinder(VariableModel& variables, Diagnostics& diagnostics)
      : variables_(variables), diagnostics_(diagnostics), state_(variables.variables.size(), State::Unvisited) {}

  // False when some variable reads itself through a chain.
  bool run() {
    for (size_t k = 0; k < state_.size(); ++k) {
      if (state_[k] == State::Unvisited) visit(static_cast<int>(k));
    }
    return ok_;
  }

  // After run(): the variables' transitive reads, each computed from those of the variables it reads.
  void completeReads() {
    for (const int k : finished_) {
      ReferenceVariable& variable = variables_.variables[static_cast<size_t>(k)];
      variable.markersRead = variable.expression.markerIds();
      if (variable.subroutine) variable.markersRead = variable.subroutine->markersRead;
      variable.contactsRead = variable.expression.contactIds();
      variable.usesAcceleration = variable.expression.usesAcceleration();
      for (const int index : variable.readIndices) {
        const ReferenceVariable& read = variables_.variables[static_cast<size_t>(index)];
        variable.usesAcceleration = variable.usesAcceleration || read.usesAcceleration;
        std::vector<int>& markers = variable.markersRead;
        for (const int marker : read.markersRead) {
          if (std::find(markers.begin(), markers.end(), marker) == markers.end()) markers.push_back(marker);
        }
        std::vector<int>& contacts = variable.contactsRead;
        for (const int contact : read.contactsRead) {
          if (std::find(contacts.begin(), contacts.end(), contact) == contacts.end()) contacts.push_back(contact);
        }
      }
    }
  }

 private:
  enum class State { Unvisited, OnPath, Done };

  // Depth first with an explicit stack rather than recursion: a chain of VARVALs is as long as the deck makes it, and
  // a million links would overflow the call stack. `path_` holds the variables being walked, `nextRead_` for each
  // the position in its reads to go on from.
  void visit(int root) {
    enter(root);
    while (!path_.empty()) {
      const int k = path_.back();
      const std::vector<int>& reads = variables_.variables[static_cast<size_t>(k)].readIndices;
      size_t& position = nextRead_.back();
      if (position < reads.size()) {
        const int next = reads[position++];
        if (state_[static_cast<size_t>(next)] == State::OnPath) {
          reportCycle(next);
        } else if (state_[static_cast<size_t>(next)] == State::Unvisited) {
          enter(next);
        }
        continue;
      }
      path_.pop_back();
      nextRead_.pop_back();
      state_[static_cast<size_t>(k)] = State::Done;
      finished_.push_back(k);  // after everything it reads
    }
  }

  void enter(int k) {
    state_[static_cast<size_t>(k)] = State::OnPath;
    path_.push_back(k);
    nextRead_.push_back(0);
  }

  void reportCycle(int start) {
    ok_ = false;
    const auto from = std::find(path_.begin(), path_.end(), start);
    const ReferenceVariable& first = variables_.variables[static_cast<size_t>(start)];
    std::string chain = "id=" + std::to_string(first.id);
    for (auto it = from + 1; it != path_.end(); ++it) {
      const ReferenceVariable& variable = variables_.variables[static_cast<size_t>(*it)];
      chain += " -> id=" + std::to_string(variable.id) + " (" + variable.loc.position() + ")";
    }
    chain += " -> id=" + std::to_string(first.id);
    const std::string what = first.subroutine ? first.subroutine->routine.describe() + " (through c_varval)"
                                              : "expr=\"" + excerpt(first.expression.text()) + "\"";
    diagnostics_.error(first.loc, what + ": the variable depends on its own value through the variables it reads "
                                  "(VARVAL, PINVAL, POUVAL): " + excerpt(chain) + "; break the cycle so that one of "
                                  "these variables is computed without the others");
  }

  VariableModel& variables_;
  Diagnostics& diagnostics_;
  std::vector<State> state_;
  std::vector<int> path_;
  std::vector<size_t> nextRead_;
  std::vector<int> finished_;
  bool ok_ = true;
};

}  // namespace

std::shared_ptr<const VariableModel> buildVariableModel(const std::vector<ReferenceVariableSpec>& specs,
                                                        const Model& model, Diagnostics& diagnostics) {
  auto result = std::make_shared<VariableModel>();
  std::set<long> ids;
  for (const ReferenceVariableSpec& spec : specs) ids.insert(spec.id);
  const InitialSubroutineState initial(model, [&ids](int id) { return ids.count(id) > 0; });
  for (const ReferenceVariableSpec& spec : specs) {
    if (spec.type == "USERSUB") {
      std::optional<UserSubroutine> routine = loadSubroutine(spec.subroutine, "VARSUB", spec.loc, diagnostics);
      if (!routine) continue;
      ElementSubroutine subroutine{.routine = std::move(*routine), .id = spec.id,
                                   .element = spec.loc.subject() + " (" + spec.loc.position() + ")",
                                   .kind = spec.loc.element, .count = 1,
                                   .returns = "[value], the variable's value"};
      if (!setUpSubroutine(subroutine, initial, spec.loc, diagnostics)) continue;
      result->indexById[spec.id] = static_cast<int>(result->variables.size());
      // Its expression, never evaluated, reads nothing.
      result->variables.push_back(ReferenceVariable{.id = spec.id, .loc = spec.loc,
                                                    .expression = std::get<Expression>(Expression::compile("0")),
                                                    .subroutine = std::move(subroutine)});
      continue;
    }
    if (spec.type != "EXPRESSION" || !spec.expr) continue;  // reported by checkReferenceVariable
    // Compiled again: a command may have changed expr.
    std::optional<Expression> expression = compileModelAttribute("expr", *spec.expr, spec.loc, model, diagnostics);
    if (!expression) continue;
    result->indexById[spec.id] = static_cast<int>(result->variables.size());
    result->variables.push_back(
        ReferenceVariable{.id = spec.id, .loc = spec.loc, .expression = std::move(*expression)});
  }
  bool referencesExist = true;
  for (ReferenceVariable& variable : result->variables) {
    if (variable.subroutine) {
      for (const int id : variable.subroutine->variablesRead) {
        const int index = result->indexOf(id);
        if (index >= 0) variable.readIndices.push_back(index);
      }
      continue;
    }
    referencesExist =
        checkExpressionReferences(variable.expression, "expr", variable.loc, model, result.get(), diagnostics) &&
        referencesExist;
    for (const int id : variable.expression.variableIds()) {
      const int index = result->indexOf(id);
      if (index >= 0) variable.readIndices.push_back(index);
    }
  }
  CycleFinder cycles(*result, diagnostics);
  if (cycles.run() && referencesExist) cycles.completeReads();
  return result;
}

}  // namespace lodestone
