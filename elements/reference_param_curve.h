// Reference_ParamCurve: a curve through points, which a Post_Graphic of type ParamCurve (or Curve) lays in the xy
// plane of its reference marker as 2D contact geometry (MotionSolve's "Using a 2D representation" of
// Force_Contact). The points are the element's text, x y z per point, as MotionSolve writes curve data in the XML
// file; MotionSolve fits a spline through them, and so does Lodestone (collision/curve2d.h), whatever the graphic's
// nseg.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "elements/reference_matrix.h"
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
  std::optional<long> matrix_id;  // a Reference_Matrix of one point per row (x y z), instead of the text
  std::vector<Vector3> points;    // from the element's text, or from its matrix once the deck is read
};

const ElementSchema<ReferenceParamCurveSpec>& referenceParamCurveSchema();
// Reads the points from the element's text and checks them: three numbers per point, at least two points (three
// for a closed curve), no point repeating the one before it. With matrix_id the text is not read (a warning when it
// holds anything): fillCurvesFromMatrices gives the points.
void completeParamCurve(ReferenceParamCurveSpec& spec, const std::string& elementText, Diagnostics& diagnostics);
// Once the whole deck is read (a matrix may come after its curve): each curve's points from its matrix_id's rows,
// checked as the text's are; a matrix that has not three columns is an error on the curve's line.
void fillCurvesFromMatrices(std::vector<ReferenceParamCurveSpec>& curves,
                            const std::vector<ReferenceMatrixSpec>& matrices, Diagnostics& diagnostics);

}  // namespace lodestone
