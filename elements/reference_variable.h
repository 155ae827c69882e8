// Reference_Variable: a named value defined by an expression (type="EXPRESSION" expr=…) or by a VARSUB user
// subroutine (type="USERSUB"), read elsewhere with VARVAL(id). Adams and MotionSolve treat a variable as an
// algebraic state; Lodestone evaluates it on demand from the current kinematics (elements/expression_context.h),
// which gives the same values, since a variable's expression (or VARSUB) may read only time, markers, contacts'
// loads (CONTACT) and other variables. The deck element, its
// checks, and the model's variables with the order they depend on each other (a cycle is an error).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "solver/core/diagnostics.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "plugins/element_subroutine.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct ReferenceVariableSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  std::optional<std::string> expr;
  SubroutineAttributeValues subroutine;  // type="USERSUB": VARSUB
};

const ElementSchema<ReferenceVariableSpec>& referenceVariableSchema();
// The expression compiles (errors point at its column); a USERSUB variable names its VARSUB's library or script.
void checkReferenceVariable(const ReferenceVariableSpec& spec, Diagnostics& diagnostics);

struct ReferenceVariable {
  long id = 0;
  SourceLoc loc;
  Expression expression;                         // type="EXPRESSION" (for USERSUB, the constant 0, never read)
  std::optional<ElementSubroutine> subroutine;   // type="USERSUB": VARSUB, whose set-up call gave what it reads
  // The variables its expression reads directly (VARVAL), as indices into VariableModel::variables; those the deck
  // does not have are left out (they are reported).
  std::vector<int> readIndices;
  // Every marker its value reads, itself or through the variables it reads (for the Jacobian's dependencies).
  std::vector<int> markersRead;
  // Every Force_Contact id CONTACT reads in it, itself or through the variables it reads (for the Jacobian's
  // dependencies and the elements that cannot read contacts).
  std::vector<int> contactsRead;
  bool usesAcceleration = false;  // itself or through the variables it reads
};

struct VariableModel {
  std::vector<ReferenceVariable> variables;  // deck order
  std::map<long, int> indexById;

  // Index into `variables`; -1 when the model has no variable with this id.
  int indexOf(long id) const;
};

// The deck's variables on a model whose markers are built. Reports expressions that name markers or variables the
// deck does not have, and variables that read themselves through a chain of VARVAL, naming every element of the
// chain. Never null.
std::shared_ptr<const VariableModel> buildVariableModel(const std::vector<ReferenceVariableSpec>& specs,
                                                        const Model& model, Diagnostics& diagnostics);

}  // namespace lodestone
