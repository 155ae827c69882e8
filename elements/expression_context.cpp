// Expressions in elements: compiling, reference checks, and evaluation from the bodies' kinematics.
#include "expression_context.h"

#include <algorithm>
#include <limits>

#include "elements/force_contact.h"
#include "elements/reference_variable.h"
#include "elements/subroutine_state.h"
#include "solver/core/excerpt.h"

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

namespace {

const ForceContact* contactOf(const Model& model, long id) {
  if (!model.contacts) return nullptr;
  for (const ForceContact& contact : model.contacts->elements) {
    if (contact.id == id) return &contact;
  }
  return nullptr;
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
  for (size_t k = 0; k < expression.contactIds().size(); ++k) {
    if (!contactOf(model, expression.contactIds()[k])) {
      missing("Force_Contact", expression.contactIds()[k], expression.contactColumns()[k]);
    }
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

ModelExpressionContext::ModelExpressionContext(const Model& model) : model_(model), variables_(model.variables.get()) {
  markers_.reserve(model.markers.size());
  for (const Marker& marker : model.markers) markers_.emplace(marker.id, &marker);
  if (variables_) {
    values_.resize(variables_->variables.size());
    computedIn_.resize(variables_->variables.size(), 0);
  }
}

void ModelExpressionContext::setState(double time, std::span<const BodyKinematics> bodies,
                                      const ContactMeasures* contacts) {
  time_ = time;
  bodies_ = bodies;
  contacts_ = contacts;
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

double ModelExpressionContext::variable(int id) const {
  const int index = variables_ ? variables_->indexOf(id) : -1;
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

}  // namespace lodestone
