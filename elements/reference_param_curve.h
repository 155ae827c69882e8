// Reference_ParamCurve: a curve through points, which a Post_Graphic of type ParamCurve (or Curve) lays in the xy
// plane of its reference marker as 2D contact geometry (MotionSolve's "Using a 2D representation" of
// Force_Contact). The points are the element's text, x y z per point, as MotionSolve writes curve data in the XML
// file; MotionSolve fits a spline through them, and so does Lodestone (collision/curve2d.h), whatever the graphic's
// nseg.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "solver/core/diagnostics.h"
#include "solver/core/rotation.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ReferenceParamCurveSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  bool is_u_closed = false;
  bool is_curve_points = true;
  std::vector<Vector3> points;  // from the element's text
};

const ElementSchema<ReferenceParamCurveSpec>& referenceParamCurveSchema();
// Reads the points from the element's text and checks them: three numbers per point, at least two points (three
// for a closed curve), no point repeating the one before it.
void completeParamCurve(ReferenceParamCurveSpec& spec, const std::string& elementText, Diagnostics& diagnostics);

}  // namespace lodestone
