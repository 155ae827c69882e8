// Reference_Spline: attributes, reading and checking its numbers, the Akima and natural cubic fits, and the model's
// data elements.
#include "reference_spline.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "solver/core/text.h"

namespace lodestone {

namespace {

using S = ReferenceSplineSpec;

const char* const kNoSplineRead =
    "SPLINE_READ user subroutines are not available yet; give the numbers in the element's text, or in a "
    "plain-text file named by file_name, which Lodestone reads itself";

// The file's numbers as one text, each '#' to the end of its line left out (a comment).
std::optional<std::string> readDataFile(const ReferenceSplineSpec& spec, Diagnostics& diagnostics) {
  std::filesystem::path path(*spec.file_name);
  // Relative to the deck's folder, so that a deck and its data move together.
  if (path.is_relative()) path = std::filesystem::path(spec.loc.file).parent_path() / path;
  const std::string attribute = "file_name=\"" + *spec.file_name + "\"";
  std::error_code status;
  if (std::filesystem::is_directory(path, status)) {
    diagnostics.error(spec.loc, attribute + ": '" + path.string() + "' is a folder, not a file of numbers");
    return std::nullopt;
  }
  std::ifstream file(path);
  if (!file) {
    diagnostics.error(spec.loc, attribute + ": cannot open '" + path.string() + "': " + std::strerror(errno));
    return std::nullopt;
  }
  std::string text, line;
  while (std::getline(file, line)) {
    const size_t comment = line.find('#');
    text += line.substr(0, comment);
    text += '\n';
  }
  if (file.bad()) {
    diagnostics.error(spec.loc, attribute + ": reading '" + path.string() + "' failed: " + std::strerror(errno));
    return std::nullopt;
  }
  return text;
}

// `values` strictly increasing; else an error naming the first pair out of order.
bool checkIncreasing(const std::vector<double>& values, const char* name, const SourceLoc& loc,
                     Diagnostics& diagnostics) {
  for (size_t k = 1; k < values.size(); ++k) {
    if (!(values[k] > values[k - 1])) {
      diagnostics.error(loc, std::string(name) + " must be strictly increasing: value " + std::to_string(k + 1) +
                                 " is " + formatReal(values[k]) + " after " + formatReal(values[k - 1]));
      return false;
    }
  }
  return true;
}

}  // namespace

const ElementSchema<ReferenceSplineSpec>& referenceSplineSchema() {
  static const ElementSchema<S> schema{
      .element = "Reference_Spline",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::integer("num_xy_pair", &S::num_xy_pair).atLeast(2),
          attr::integer("num_x", &S::num_x).atLeast(2),
          attr::integer("num_z", &S::num_z).atLeast(1),
          attr::boolean("linear_extrap", &S::linear_extrap).byDefault(false),
          attr::text("file_name", &S::file_name),
          attr::presentation<S>("full_label"),
          attr::unsupported<S>("block_name", kNoSplineRead),
          attr::unsupported<S>("usrsub_dll_name", kNoSplineRead),
          attr::unsupported<S>("usrsub_fnc_name", kNoSplineRead),
          attr::unsupported<S>("usrsub_param_string", kNoSplineRead),
          attr::unsupported<S>("script_name", kNoSplineRead),
          attr::unsupported<S>("interpreter", kNoSplineRead),
      }};
  return schema;
}

void completeReferenceSpline(ReferenceSplineSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  if (spec.num_xy_pair.has_value() == spec.num_x.has_value()) {
    diagnostics.error(spec.loc, spec.num_xy_pair ? "give num_xy_pair (one curve) or num_x (with num_z, a family of "
                                                   "curves), not both"
                                                 : "needs num_xy_pair (the points of one curve) or num_x and num_z "
                                                   "(a family of curves)");
    return;
  }
  if (spec.num_z && !spec.num_x) {
    diagnostics.error(spec.loc, "num_z counts the curves of a family, which num_x goes with; write num_x, not "
                                "num_xy_pair");
    return;
  }
  std::string source = "the text";
  std::string text = elementText;
  if (spec.file_name) {
    if (!trim(elementText).empty()) {
      diagnostics.error(spec.loc, "file_name=\"" + *spec.file_name + "\" gives the numbers, so the element's text "
                                  "must be empty; remove one of them");
      return;
    }
    const std::optional<std::string> read = readDataFile(spec, diagnostics);
    if (!read) return;
    text = *read;
    source = "file_name=\"" + *spec.file_name + "\"";
  }
  const std::vector<std::string> items = splitList(text);
  std::vector<double> numbers;
  for (size_t k = 0; k < items.size(); ++k) {
    const std::optional<double> value = parseReal(items[k]);
    if (!value) {
      diagnostics.error(spec.loc, "number " + std::to_string(k + 1) + " of " + source + ", '" + items[k] +
                                      "', is not a finite number");
      return;
    }
    numbers.push_back(*value);
  }
  const size_t nx = static_cast<size_t>(spec.num_xy_pair ? *spec.num_xy_pair : *spec.num_x);
  const bool family = spec.num_z.has_value();
  const size_t nz = family ? static_cast<size_t>(*spec.num_z) : 1;
  const size_t expected = family ? nz + nx * (1 + nz) : 2 * nx;
  if (numbers.size() != expected) {
    const std::string numX = "num_x=\"" + std::to_string(nx) + "\"";
    const std::string counts = spec.num_xy_pair ? "num_xy_pair=\"" + std::to_string(nx) + "\""
                               : family         ? numX + " and num_z=\"" + std::to_string(nz) + "\""
                                                : numX;
    const std::string layout = family ? " (the " + std::to_string(nz) + " values of z, then per x: x and y at each z)"
                                      : " (x y per point)";
    diagnostics.error(spec.loc, counts + " needs " + std::to_string(expected) + " numbers" + layout + "; " + source +
                                    " holds " + std::to_string(numbers.size()));
    return;
  }
  std::vector<double> x(nx), z(nz, 0.0);
  std::vector<std::vector<double>> y(nz, std::vector<double>(nx));
  size_t at = 0;
  if (family) {
    for (size_t k = 0; k < nz; ++k) z[k] = numbers[at++];
  }
  for (size_t i = 0; i < nx; ++i) {
    x[i] = numbers[at++];
    for (size_t k = 0; k < nz; ++k) y[k][i] = numbers[at++];
  }
  if (!checkIncreasing(x, "x", spec.loc, diagnostics) || !checkIncreasing(z, "z", spec.loc, diagnostics)) return;
  spec.x = std::move(x);
  spec.z = std::move(z);
  spec.y = std::move(y);
}

std::vector<double> akimaSlopes(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size();
  if (n < 3) {
    const double slope = n == 2 ? (y[1] - y[0]) / (x[1] - x[0]) : 0.0;
    return std::vector<double>(n, slope);
  }
  // m[k + 2] is the slope of segment k; two more on each side continue the end slopes linearly, which is Akima's
  // rule for the points he adds beyond the ends (they lie on the parabola through the last three points).
  std::vector<double> m(n + 3);
  for (size_t k = 0; k + 1 < n; ++k) m[k + 2] = (y[k + 1] - y[k]) / (x[k + 1] - x[k]);
  m[1] = 2 * m[2] - m[3];
  m[0] = 2 * m[1] - m[2];
  m[n + 1] = 2 * m[n] - m[n - 1];
  m[n + 2] = 2 * m[n + 1] - m[n];
  std::vector<double> slopes(n);
  for (size_t i = 0; i < n; ++i) {
    // Knot i lies between segments i-1 and i (m[i+1], m[i+2]); the weights are the changes of slope beyond them.
    const double after = std::fabs(m[i + 3] - m[i + 2]);
    const double before = std::fabs(m[i + 1] - m[i]);
    slopes[i] = after + before == 0 ? 0.5 * (m[i + 1] + m[i + 2])
                                    : (after * m[i + 1] + before * m[i + 2]) / (after + before);
  }
  return slopes;
}

std::vector<double> naturalCubicSecondDerivatives(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size();
  std::vector<double> second(n, 0.0);
  if (n < 3) return second;
  // The tridiagonal system for M₁…Mₙ₋₂ (M₀ = Mₙ₋₁ = 0), solved by elimination without pivoting, which is stable
  // here because the matrix is diagonally dominant.
  const size_t inner = n - 2;
  std::vector<double> diagonal(inner), upper(inner), right(inner);
  for (size_t k = 0; k < inner; ++k) {
    const size_t i = k + 1;
    const double before = x[i] - x[i - 1], after = x[i + 1] - x[i];
    diagonal[k] = 2 * (before + after);
    upper[k] = after;
    right[k] = 6 * ((y[i + 1] - y[i]) / after - (y[i] - y[i - 1]) / before);
  }
  for (size_t k = 1; k < inner; ++k) {
    const double lower = x[k + 1] - x[k];  // the sub-diagonal entry of row k: h of the segment before knot k+1
    const double factor = lower / diagonal[k - 1];
    diagonal[k] -= factor * upper[k - 1];
    right[k] -= factor * right[k - 1];
  }
  for (size_t k = inner; k-- > 0;) {
    const double next = k + 1 < inner ? second[k + 2] : 0.0;
    second[k + 1] = (right[k] - upper[k] * next) / diagonal[k];
  }
  return second;
}

namespace {

// One segment's polynomial y_i + c1·s + c2·s² + c3·s³ in s = x − x_i.
struct Segment {
  double y0 = 0, c1 = 0, c2 = 0, c3 = 0;

  double at(double s, int order) const {
    switch (order) {
      case 0: return y0 + s * (c1 + s * (c2 + s * c3));
      case 1: return c1 + s * (2 * c2 + 3 * c3 * s);
      default: return 2 * c2 + 6 * c3 * s;
    }
  }
};

Segment segmentOf(const std::vector<double>& x, const SplineCurve& curve, SplineMethod method, size_t i) {
  const double h = x[i + 1] - x[i];
  const double slope = (curve.y[i + 1] - curve.y[i]) / h;
  Segment segment{.y0 = curve.y[i]};
  switch (method) {
    case SplineMethod::Akima: {
      const double t0 = curve.akimaSlopes[i], t1 = curve.akimaSlopes[i + 1];
      segment.c1 = t0;
      segment.c2 = (3 * slope - 2 * t0 - t1) / h;
      segment.c3 = (t0 + t1 - 2 * slope) / (h * h);
      break;
    }
    case SplineMethod::Cubic: {
      const double m0 = curve.cubicSecondDerivatives[i], m1 = curve.cubicSecondDerivatives[i + 1];
      segment.c1 = slope - h * (2 * m0 + m1) / 6;
      segment.c2 = m0 / 2;
      segment.c3 = (m1 - m0) / (6 * h);
      break;
    }
    case SplineMethod::Linear: segment.c1 = slope; break;
  }
  return segment;
}

double evaluateCurve(const std::vector<double>& x, const SplineCurve& curve, bool linearExtrapolate,
                     SplineMethod method, double at, int order) {
  const size_t n = x.size();
  if (at == x.back() && order == 0) return curve.y.back();  // the end knot exactly, not through its segment
  const bool before = at < x.front(), after = at > x.back();
  if (linearExtrapolate && (before || after)) {
    const size_t i = before ? 0 : n - 2;
    const Segment segment = segmentOf(x, curve, method, i);
    const double slope = segment.at(before ? 0.0 : x[n - 1] - x[n - 2], 1);
    if (order == 2) return 0.0;
    if (order == 1) return slope;
    return before ? curve.y.front() + slope * (at - x.front()) : curve.y.back() + slope * (at - x.back());
  }
  const size_t upper = static_cast<size_t>(std::upper_bound(x.begin(), x.end(), at) - x.begin());
  const size_t i = std::min(upper == 0 ? 0 : upper - 1, n - 2);
  return segmentOf(x, curve, method, i).at(at - x[i], order);
}

}  // namespace

size_t ReferenceSpline::segmentOf(double atZ) const {
  const size_t upper = static_cast<size_t>(std::upper_bound(z.begin(), z.end(), atZ) - z.begin());
  return std::min(upper == 0 ? 0 : upper - 1, z.size() - 2);
}

double ReferenceSpline::evaluate(SplineMethod method, double at, double atZ, int order) const {
  if (std::isnan(at) || std::isnan(atZ)) return std::numeric_limits<double>::quiet_NaN();
  if (!isFamily()) return evaluateCurve(x, curves.front(), linearExtrapolate, method, at, order);
  const size_t k = segmentOf(atZ);
  const double weight = (atZ - z[k]) / (z[k + 1] - z[k]);
  const double low = evaluateCurve(x, curves[k], linearExtrapolate, method, at, order);
  if (weight == 0) return low;
  const double high = evaluateCurve(x, curves[k + 1], linearExtrapolate, method, at, order);
  return low + weight * (high - low);
}

std::array<double, 3> ReferenceSpline::partials(SplineMethod method, double at, double atZ, int order) const {
  if (order == 0) return {evaluate(method, at, atZ, 0), 0, 0};
  double alongZ = 0;  // ∂/∂z of the (order − 1)-th x-derivative
  if (isFamily() && !std::isnan(atZ)) {
    const size_t k = segmentOf(atZ);
    const double low = evaluateCurve(x, curves[k], linearExtrapolate, method, at, order - 1);
    const double high = evaluateCurve(x, curves[k + 1], linearExtrapolate, method, at, order - 1);
    alongZ = (high - low) / (z[k + 1] - z[k]);
  }
  return {evaluate(method, at, atZ, order), alongZ, 0};
}

const ReferenceSpline* DataModel::spline(long id) const {
  const auto found = splineIndex.find(id);
  return found == splineIndex.end() ? nullptr : &splines[static_cast<size_t>(found->second)];
}

const ReferenceArray* DataModel::array(long id) const {
  const auto found = arrayIndex.find(id);
  return found == arrayIndex.end() ? nullptr : &arrays[static_cast<size_t>(found->second)];
}

const ReferenceString* DataModel::string(long id) const {
  const auto found = stringIndex.find(id);
  return found == stringIndex.end() ? nullptr : &strings[static_cast<size_t>(found->second)];
}

std::shared_ptr<const DataModel> buildDataModel(const std::vector<ReferenceSplineSpec>& splines,
                                                const std::vector<ReferenceArraySpec>& arrays,
                                                const std::vector<ReferenceStringSpec>& strings) {
  auto data = std::make_shared<DataModel>();
  for (const ReferenceSplineSpec& spec : splines) {
    if (spec.x.size() < 2) continue;  // its numbers were refused, and said
    ReferenceSpline spline{.id = spec.id, .loc = spec.loc, .x = spec.x, .z = spec.z,
                           .linearExtrapolate = spec.linear_extrap};
    for (const std::vector<double>& y : spec.y) {
      spline.curves.push_back(SplineCurve{.y = y, .akimaSlopes = akimaSlopes(spec.x, y),
                                          .cubicSecondDerivatives = naturalCubicSecondDerivatives(spec.x, y)});
    }
    data->splineIndex[spec.id] = static_cast<int>(data->splines.size());
    data->splines.push_back(std::move(spline));
  }
  for (const ReferenceArraySpec& spec : arrays) {
    const std::string type = spec.type.value_or("");
    const int size = type == "X" || type == "Y" ? spec.num_element.value_or(0) : static_cast<int>(spec.values.size());
    data->arrayIndex[spec.id] = static_cast<int>(data->arrays.size());
    data->arrays.push_back(ReferenceArray{.id = spec.id, .loc = spec.loc, .type = type, .size = size,
                                          .values = spec.values});
  }
  for (const ReferenceStringSpec& spec : strings) {
    data->stringIndex[spec.id] = static_cast<int>(data->strings.size());
    data->strings.push_back(ReferenceString{.id = spec.id, .loc = spec.loc, .text = spec.string.value_or("")});
  }
  return data;
}

}  // namespace lodestone
