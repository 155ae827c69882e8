// Control_Diff: a user-defined first-order differential equation whose state the integrator carries beside the
// bodies' (type="EXPRESSION": ẏ = expr, or with is_implicit="TRUE" the residual expr = 0), read elsewhere with
// DIF(id) and DIF1(id); type="USERSUB": the same with the value a DIFSUB returns in place of expr. The deck element,
// its checks, and the model's equations.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugins/element_subroutine.h"
#include "solver/core/diagnostics.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct ControlDiffSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  std::optional<std::string> expr;
  bool is_implicit = false;
  double ic = 0;
  std::optional<double> ic_dot;
  bool is_static_hold = false;
  SubroutineAttributeValues subroutine;  // type="USERSUB": DIFSUB
};

const ElementSchema<ControlDiffSpec>& controlDiffSchema();
// The expression compiles (errors point at its column); a USERSUB equation names its DIFSUB.
void checkControlDiff(const ControlDiffSpec& spec, Diagnostics& diagnostics);

struct ControlDiff {
  long id = 0;
  SourceLoc loc;
  Expression expression;
  bool implicit = false;  // expression is the residual F(y, ẏ, …) = 0, not ẏ
  double initialValue = 0;
  double initialRate = 0;  // ic_dot; for an explicit equation only a first guess (the expression gives ẏ)
  std::optional<ElementSubroutine> subroutine;  // DIFSUB, set up, in place of the expression (then "0")
};

struct DifferentialModel {
  std::vector<ControlDiff> equations;  // deck order: state k of the block the driver keeps for them
  std::map<long, int> indexById;

  // Index into `equations`; -1 when the model has no Control_Diff with this id.
  int indexOf(long id) const;
};

// The deck's equations, compiled (their references are checked by checkDifferentialReferences, once the model's
// variables exist). Never null.
std::shared_ptr<DifferentialModel> buildDifferentialModel(const std::vector<ControlDiffSpec>& specs,
                                                          const Model& model, Diagnostics& diagnostics);
// The DIFSUBs of USERSUB equations loaded and set up, once the model's markers and variables are built; a DIFSUB that
// reads accelerations or loads through the variables it reads (c_varval) is refused as such an expression is.
void setUpDifferentialSubroutines(DifferentialModel& equations, const std::vector<ControlDiffSpec>& specs,
                                  const Model& model, Diagnostics& diagnostics);
// Every marker, variable, contact, datum and Control_Diff each equation's expression names exists (each one missing
// is an error with its column).
void checkDifferentialReferences(const DifferentialModel& equations, const Model& model, Diagnostics& diagnostics);

}  // namespace lodestone
