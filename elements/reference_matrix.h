// Reference_Matrix: a constant real matrix given in the deck's text (dense in column or row order, or sparse as
// row/column/value triples), which a linear Control_StateEqn names for its A, B, C and D.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "solver/core/diagnostics.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ReferenceMatrixSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<int> nrow, ncol, nval;
  bool isroworder = false;  // dense text: row after row (TRUE) or column after column (FALSE, MotionSolve's default)
  bool issparse = false;    // text: nval triples "row col value", 1-based, entries not named are 0
  Eigen::MatrixXd values;   // from the text, once read
};

const ElementSchema<ReferenceMatrixSpec>& referenceMatrixSchema();
// Reads the text into `values`: nrow·ncol numbers (dense), or nval triples (sparse) whose indices are within the
// matrix and name no entry twice. Errors on the element's line.
void completeReferenceMatrix(ReferenceMatrixSpec& spec, const std::string& elementText, Diagnostics& diagnostics);

}  // namespace lodestone
