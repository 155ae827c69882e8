// Reference_Spline: measured data y(x), or a family of curves y(x, z), that AKISPL, CUBSPL and INTERP interpolate
// in expressions (docs/expressions.md). The deck element with its checks, the splines fitted once when the model is
// built, and the model's data elements (splines, Reference_Array, Reference_String) that expressions read by id.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elements/reference_array.h"
#include "elements/reference_string.h"
#include "solver/core/diagnostics.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct ReferenceSplineSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<int> num_xy_pair;  // one curve: x y per point
  std::optional<int> num_x;        // with num_z: a family of num_z curves over the same num_x values of x
  std::optional<int> num_z;
  bool linear_extrap = false;
  std::optional<std::string> file_name;  // the same numbers as the text, read from a plain-text file
  // From the text or the file: x strictly increasing; z strictly increasing (one value, 0, for a single curve);
  // y[k] the curve at z[k], one value per x.
  std::vector<double> x, z;
  std::vector<std::vector<double>> y;
};

const ElementSchema<ReferenceSplineSpec>& referenceSplineSchema();
// Reads the numbers from the element's text or from file_name (relative to the deck's folder) and checks them:
// one of num_xy_pair and num_x, as many numbers as the counts say, at least 2 values of x, x and z strictly
// increasing, every number finite.
void completeReferenceSpline(ReferenceSplineSpec& spec, const std::string& elementText, Diagnostics& diagnostics);

// One curve's interpolants, fitted once: Akima's slopes at the knots and the natural cubic spline's second
// derivatives there.
struct SplineCurve {
  std::vector<double> y;
  std::vector<double> akimaSlopes;
  std::vector<double> cubicSecondDerivatives;
};

struct ReferenceSpline {
  long id = 0;
  SourceLoc loc;
  std::vector<double> x, z;
  std::vector<SplineCurve> curves;  // one per z
  bool linearExtrapolate = false;

  bool isFamily() const { return curves.size() > 1; }
  // The `order`-th derivative (0, 1 or 2) with respect to x at (x, z). A family is linear in z between its curves
  // (and beyond the first and last, along the two nearest); a single curve ignores z. Outside [x₀, xₙ] the end
  // segment's polynomial goes on, or with linearExtrapolate the tangent line at the end knot.
  double evaluate(SplineMethod method, double x, double z, int order) const;
  // What the utilities c_akispl and c_cubspl return (MotionSolve's and Adams' ARRAY): order 0, {y, 0, 0}; 1,
  // {∂y/∂x, ∂y/∂z, 0}; 2, {∂²y/∂x², ∂²y/∂x∂z, ∂²y/∂z²}. Linear in z, a family's ∂²y/∂z² is 0 and its ∂/∂z that of
  // the segment between the two curves evaluate uses; a single curve's z-derivatives are 0.
  std::array<double, 3> partials(SplineMethod method, double x, double z, int order) const;

 private:
  // A family's curves k and k + 1 that z lies between (or the two nearest, beyond the ends).
  size_t segmentOf(double z) const;
};

// Akima's slopes (Akima 1970, J. ACM 17(4)) at the knots x (n ≥ 2) of the values y: exposed for the unit tests.
std::vector<double> akimaSlopes(const std::vector<double>& x, const std::vector<double>& y);
// The natural cubic spline's second derivatives at the knots (zero at both ends).
std::vector<double> naturalCubicSecondDerivatives(const std::vector<double>& x, const std::vector<double>& y);

// The model's data elements, by id.
struct DataModel {
  std::vector<ReferenceSpline> splines;
  std::vector<ReferenceArray> arrays;
  std::vector<ReferenceString> strings;
  std::map<long, int> splineIndex, arrayIndex, stringIndex;

  const ReferenceSpline* spline(long id) const;
  const ReferenceArray* array(long id) const;
  const ReferenceString* string(long id) const;
};

// Never null; the specs were checked when read.
std::shared_ptr<const DataModel> buildDataModel(const std::vector<ReferenceSplineSpec>& splines,
                                                const std::vector<ReferenceArraySpec>& arrays,
                                                const std::vector<ReferenceStringSpec>& strings);

}  // namespace lodestone
