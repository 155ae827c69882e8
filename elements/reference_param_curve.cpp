#include "reference_param_curve.h"

#include "solver/core/text.h"

namespace lodestone {

namespace {
using S = ReferenceParamCurveSpec;
}  // namespace

const ElementSchema<ReferenceParamCurveSpec>& referenceParamCurveSchema() {
  static const std::string kTextOnly = "give the curve's points in the element's text, x y z per point";
  static const ElementSchema<S> schema{
      .element = "Reference_ParamCurve",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::boolean("is_u_closed", &S::is_u_closed).byDefault(false),
          attr::boolean("is_curve_points", &S::is_curve_points).byDefault(true),
          attr::ignored<S>("quintic", "the curve is a C² cubic spline through the points (collision/curve2d.h), "
                                      "fourth-order accurate in their spacing"),
          attr::unsupported<S>("matrix_id", "Reference_Matrix is not available yet; " + kTextOnly),
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

void completeParamCurve(ReferenceParamCurveSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  if (!spec.is_curve_points) {
    diagnostics.error(spec.loc, "is_curve_points=\"FALSE\" (control points the curve only approaches) is not available "
                                "yet; give points on the curve with is_curve_points=\"TRUE\"");
    return;
  }
  const std::vector<std::string> items = splitList(elementText);
  if (items.size() % 3 != 0) {
    diagnostics.error(spec.loc, "the text holds " + std::to_string(items.size()) +
                                    " numbers, which is not three per point (x y z)");
    return;
  }
  std::vector<Vector3> points;
  for (size_t i = 0; i < items.size(); i += 3) {
    Vector3 point;
    for (int k = 0; k < 3; ++k) {
      const std::optional<double> value = parseReal(items[i + static_cast<size_t>(k)]);
      if (!value) {
        diagnostics.error(spec.loc, "point " + std::to_string(i / 3 + 1) + " has coordinate '" +
                                        items[i + static_cast<size_t>(k)] + "', which is not a finite number");
        return;
      }
      point[k] = *value;
    }
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
                                    std::to_string(needed) + " distinct points; the text gives " +
                                    std::to_string(distinct));
    return;
  }
  spec.points = std::move(points);
}

}  // namespace lodestone
