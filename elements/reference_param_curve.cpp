#include "reference_param_curve.h"

#include <algorithm>

#include "solver/core/text.h"

namespace lodestone {

namespace {
using S = ReferenceParamCurveSpec;
}  // namespace

const ElementSchema<ReferenceParamCurveSpec>& referenceParamCurveSchema() {
  static const std::string kTextOnly = "give the curve's points in the element's text, x y z per point, or a "
                                       "Reference_Matrix of them (matrix_id)";
  static const ElementSchema<S> schema{
      .element = "Reference_ParamCurve",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::boolean("is_u_closed", &S::is_u_closed).byDefault(false),
          attr::boolean("is_curve_points", &S::is_curve_points).byDefault(true),
          attr::ignored<S>("quintic", "the curve is a C² cubic spline through the points (collision/curve2d.h), "
                                      "fourth-order accurate in their spacing"),
          attr::reference("matrix_id", &S::matrix_id, "Reference_Matrix"),
          attr::unsupported<S>("u_start", "analytical curves (CURSUB) are not available yet; " + kTextOnly),
          attr::unsupported<S>("u_end", "analytical curves (CURSUB) are not available yet; " + kTextOnly),
          attr::unsupported<S>("usrsub_param_string", "analytical curves (CURSUB) are not available yet; " + kTextOnly),
          attr::unsupported<S>("usrsub_dll_name", "analytical curves (CURSUB) are not available yet; " + kTextOnly),
          attr::unsupported<S>("usrsub_fnc_name", "analytical curves (CURSUB) are not available yet; " + kTextOnly),
          attr::unsupported<S>("script_name", "analytical curves (CURSUB) are not available yet; " + kTextOnly),
          attr::unsupported<S>("interpreter", "analytical curves (CURSUB) are not available yet; " + kTextOnly),
      }};
  return schema;
}

namespace {

// The curve's points from `numbers` (x y z per point, from `source`: "the text", "Reference_Matrix id=5"), checked.
void setCurvePoints(ReferenceParamCurveSpec& spec, const std::vector<double>& numbers, const std::string& source,
                    Diagnostics& diagnostics) {
  std::vector<Vector3> points;
  for (size_t i = 0; i + 2 < numbers.size(); i += 3) {
    const Vector3 point(numbers[i], numbers[i + 1], numbers[i + 2]);
    if (!points.empty() && point == points.back()) {
      diagnostics.error(spec.loc, "point " + std::to_string(i / 3 + 1) + " repeats the point before it; a spline "
                                  "through the points needs each to differ from the one before");
      return;
    }
    points.push_back(point);
  }
  // A closed curve's last point may repeat its first (MotionSolve asks for it); the spline closes it either way.
  const size_t distinct = spec.is_u_closed && points.size() > 1 && points.front() == points.back() ? points.size() - 1
                                                                                                     : points.size();
  const size_t needed = spec.is_u_closed ? 3 : 2;
  if (distinct < needed) {
    diagnostics.error(spec.loc, std::string(spec.is_u_closed ? "a closed" : "an open") + " curve needs at least " +
                                    std::to_string(needed) + " distinct points; " + source + " gives " +
                                    std::to_string(distinct));
    return;
  }
  spec.points = std::move(points);
}

}  // namespace

void completeParamCurve(ReferenceParamCurveSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  if (!spec.is_curve_points) {
    diagnostics.error(spec.loc, "is_curve_points=\"FALSE\" (control points the curve only approaches) is not available "
                                "yet; give points on the curve with is_curve_points=\"TRUE\"");
    return;
  }
  const std::vector<std::string> items = splitList(elementText);
  if (spec.matrix_id) {
    if (!items.empty()) diagnostics.warning(spec.loc, "the text is ignored: matrix_id gives the curve's points");
    return;
  }
  if (items.size() % 3 != 0) {
    diagnostics.error(spec.loc, "the text holds " + std::to_string(items.size()) +
                                    " numbers, which is not three per point (x y z)");
    return;
  }
  std::vector<double> numbers;
  for (size_t i = 0; i < items.size(); ++i) {
    const std::optional<double> value = parseReal(items[i]);
    if (!value) {
      diagnostics.error(spec.loc, "point " + std::to_string(i / 3 + 1) + " has coordinate '" + items[i] +
                                      "', which is not a finite number");
      return;
    }
    numbers.push_back(*value);
  }
  setCurvePoints(spec, numbers, "the text", diagnostics);
}

void fillCurvesFromMatrices(std::vector<ReferenceParamCurveSpec>& curves,
                            const std::vector<ReferenceMatrixSpec>& matrices, Diagnostics& diagnostics) {
  for (ReferenceParamCurveSpec& curve : curves) {
    if (!curve.matrix_id || !curve.is_curve_points) continue;
    const auto matrix = std::find_if(matrices.begin(), matrices.end(),
                                     [&](const ReferenceMatrixSpec& m) { return m.id == *curve.matrix_id; });
    if (matrix == matrices.end() || matrix->values.size() == 0) continue;  // reported: missing, or its text is bad
    const std::string named = "Reference_Matrix id=" + std::to_string(matrix->id) + " (" + matrix->loc.position() + ")";
    if (matrix->values.cols() != 3) {
      diagnostics.error(curve.loc, "matrix_id=\"" + std::to_string(matrix->id) + "\": " + named + " is " +
                                       std::to_string(matrix->values.rows()) + " x " +
                                       std::to_string(matrix->values.cols()) + "; a curve's matrix holds one point "
                                       "per row, x y z: it must have 3 columns");
      continue;
    }
    std::vector<double> numbers;
    for (Eigen::Index row = 0; row < matrix->values.rows(); ++row) {
      for (Eigen::Index column = 0; column < 3; ++column) numbers.push_back(matrix->values(row, column));
    }
    setCurvePoints(curve, numbers, named, diagnostics);
  }
}

}  // namespace lodestone
