// Reference_Matrix: attributes, and the numbers of its text read into the matrix.
#include "reference_matrix.h"

#include <cmath>
#include <set>
#include <utility>

#include "solver/core/text.h"

namespace lodestone {

namespace {
using S = ReferenceMatrixSpec;
constexpr const char* kNoMatrixSubroutine =
    "matrices computed by a user subroutine (MATRIX_READ) are not available; give the values in the element's text";
}  // namespace

const ElementSchema<ReferenceMatrixSpec>& referenceMatrixSchema() {
  static const ElementSchema<S> schema{
      .element = "Reference_Matrix",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::integer("nrow", &S::nrow).atLeast(1),
          attr::integer("ncol", &S::ncol).atLeast(1),
          attr::integer("nval", &S::nval).atLeast(0),
          attr::boolean("isroworder", &S::isroworder).byDefault(false),
          attr::boolean("issparse", &S::issparse).byDefault(false),
          attr::unsupported<S>("usrsub_dll_name", kNoMatrixSubroutine),
          attr::unsupported<S>("usrsub_fnc_name", kNoMatrixSubroutine),
          attr::unsupported<S>("usrsub_param_string", kNoMatrixSubroutine),
          attr::unsupported<S>("script_name", kNoMatrixSubroutine),
          attr::unsupported<S>("interpreter", kNoMatrixSubroutine),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

void completeReferenceMatrix(ReferenceMatrixSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  if (!spec.nrow || !spec.ncol) {
    diagnostics.error(spec.loc, "needs nrow and ncol, the matrix's numbers of rows and columns");
    return;
  }
  const int rows = *spec.nrow, columns = *spec.ncol;
  const std::vector<std::string> items = splitList(elementText);
  std::vector<double> numbers;
  for (size_t k = 0; k < items.size(); ++k) {
    const std::optional<double> value = parseReal(items[k]);
    if (!value) {
      diagnostics.error(spec.loc, "item " + std::to_string(k + 1) + " of the text, '" + items[k] +
                                      "', is not a finite number");
      return;
    }
    numbers.push_back(*value);
  }
  Eigen::MatrixXd matrix = Eigen::MatrixXd::Zero(rows, columns);
  if (!spec.issparse) {
    const size_t expected = static_cast<size_t>(rows) * static_cast<size_t>(columns);
    if (numbers.size() != expected) {
      diagnostics.error(spec.loc, "nrow=\"" + std::to_string(rows) + "\" and ncol=\"" + std::to_string(columns) +
                                      "\" need " + std::to_string(expected) + " values in the text; it holds " +
                                      std::to_string(numbers.size()));
      return;
    }
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < columns; ++c) {
        matrix(r, c) = numbers[static_cast<size_t>(spec.isroworder ? r * columns + c : c * rows + r)];
      }
    }
    spec.values = std::move(matrix);
    return;
  }
  if (!spec.nval) {
    diagnostics.error(spec.loc, "issparse=\"TRUE\" needs nval, the number of (row, column, value) triples");
    return;
  }
  if (numbers.size() != 3 * static_cast<size_t>(*spec.nval)) {
    diagnostics.error(spec.loc, "nval=\"" + std::to_string(*spec.nval) + "\" needs " + std::to_string(3 * *spec.nval) +
                                    " numbers in the text (row, column, value for each); it holds " +
                                    std::to_string(numbers.size()));
    return;
  }
  std::set<std::pair<int, int>> named;
  for (size_t k = 0; k < numbers.size(); k += 3) {
    const double row = numbers[k], column = numbers[k + 1];
    const size_t triple = k / 3 + 1;
    if (row != std::floor(row) || column != std::floor(column) || row < 1 || row > rows || column < 1 ||
        column > columns) {
      diagnostics.error(spec.loc, "triple " + std::to_string(triple) + " of the text names entry (" + items[k] + ", " +
                                      items[k + 1] + "), which is not in a " + std::to_string(rows) + " x " +
                                      std::to_string(columns) + " matrix (indices count from 1)");
      return;
    }
    const int r = static_cast<int>(row) - 1, c = static_cast<int>(column) - 1;
    if (!named.insert({r, c}).second) {
      diagnostics.error(spec.loc, "triple " + std::to_string(triple) + " of the text names entry (" + items[k] + ", " +
                                      items[k + 1] + ") again");
      return;
    }
    matrix(r, c) = numbers[k + 2];
  }
  spec.values = std::move(matrix);
}

}  // namespace lodestone
