// The tensor-product spline as a bicubic Hermite patch per cell: a bicubic on a rectangle is fixed by z, z_x, z_y
// and z_xy at its corners, and along each grid line the tensor-product spline is the 1-D spline of that line's data
// (z_x along a row, z_y along a column, and z_xy the spline along y of the z_x values), so the patches built from
// those corner values are the tensor-product spline exactly, C² across cells.
#include "grid_surface.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Sparse>
#include <Eigen/SparseLU>

namespace lodestone {

namespace {

// The slopes at the knots of the not-a-knot cubic spline through (x_k, y_k) (MATLAB's spline's system: interior
// rows equal the second derivatives from either side; the end rows make the third derivative continuous at the
// second and last-but-one knots). n ≥ 4.
std::vector<double> splineSlopes(const std::vector<double>& x, const std::vector<double>& y) {
  const int n = static_cast<int>(x.size());
  std::vector<double> h(n - 1), slope(n - 1);
  for (int k = 0; k + 1 < n; ++k) {
    h[k] = x[k + 1] - x[k];
    slope[k] = (y[k + 1] - y[k]) / h[k];
  }
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::VectorXd rhs(n);
  const double first = h[0] + h[1];
  entries.emplace_back(0, 0, h[1]);
  entries.emplace_back(0, 1, first);
  rhs(0) = ((h[0] + 2 * first) * h[1] * slope[0] + h[0] * h[0] * slope[1]) / first;
  for (int k = 1; k + 1 < n; ++k) {
    entries.emplace_back(k, k - 1, h[k]);
    entries.emplace_back(k, k, 2 * (h[k] + h[k - 1]));
    entries.emplace_back(k, k + 1, h[k - 1]);
    rhs(k) = 3 * (h[k] * slope[k - 1] + h[k - 1] * slope[k]);
  }
  const double last = h[n - 2] + h[n - 3];
  entries.emplace_back(n - 1, n - 2, last);
  entries.emplace_back(n - 1, n - 1, h[n - 3]);
  rhs(n - 1) = (h[n - 2] * h[n - 2] * slope[n - 3] + (2 * last + h[n - 2]) * h[n - 3] * slope[n - 2]) / last;
  Eigen::SparseMatrix<double> matrix(n, n);
  matrix.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> solver;
  solver.compute(matrix);
  const Eigen::VectorXd slopes = solver.solve(rhs);
  return std::vector<double>(slopes.data(), slopes.data() + n);
}

void checkGrid(const std::vector<double>& values, const char* name) {
  if (values.size() < 4) {
    throw std::invalid_argument(std::string(name) + " has " + std::to_string(values.size()) +
                                " values; a smooth surface needs at least 4 in each direction");
  }
  for (size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k])) throw std::invalid_argument(std::string(name) + " has a value that is not finite");
    if (k > 0 && !(values[k] > values[k - 1])) {
      throw std::invalid_argument(std::string(name) + " must increase strictly; value " + std::to_string(k + 1) +
                                  " does not");
    }
  }
}

// The cubic Hermite basis on a cell of width h at u ∈ [0, 1], for the corner data (left value, left slope, right
// value, right slope), and its first and second derivatives in the cell's own coordinate x.
struct HermiteBasis {
  double value[4], first[4], second[4];
  HermiteBasis(double u, double h) {
    const double u2 = u * u, u3 = u2 * u;
    value[0] = 2 * u3 - 3 * u2 + 1;
    value[1] = h * (u3 - 2 * u2 + u);
    value[2] = -2 * u3 + 3 * u2;
    value[3] = h * (u3 - u2);
    first[0] = (6 * u2 - 6 * u) / h;
    first[1] = 3 * u2 - 4 * u + 1;
    first[2] = (-6 * u2 + 6 * u) / h;
    first[3] = 3 * u2 - 2 * u;
    second[0] = (12 * u - 6) / (h * h);
    second[1] = (6 * u - 4) / h;
    second[2] = (-12 * u + 6) / (h * h);
    second[3] = (6 * u - 2) / h;
  }
};

// The cell holding v (the last cell for the last knot) and where in it, u ∈ [0, 1].
std::pair<int, double> cellOf(const std::vector<double>& knots, double v) {
  const double clamped = std::clamp(v, knots.front(), knots.back());
  int cell = static_cast<int>(std::upper_bound(knots.begin(), knots.end(), clamped) - knots.begin()) - 1;
  cell = std::clamp(cell, 0, static_cast<int>(knots.size()) - 2);
  return {cell, (clamped - knots[cell]) / (knots[cell + 1] - knots[cell])};
}

}  // namespace

GridSurface::GridSurface(std::vector<double> xs, std::vector<double> ys, std::vector<double> heights)
    : xs_(std::move(xs)), ys_(std::move(ys)), z_(std::move(heights)) {
  checkGrid(xs_, "the x grid");
  checkGrid(ys_, "the y grid");
  if (z_.size() != xs_.size() * ys_.size()) {
    throw std::invalid_argument("the grid of " + std::to_string(xs_.size()) + " × " + std::to_string(ys_.size()) +
                                " points needs as many heights, not " + std::to_string(z_.size()));
  }
  if (!std::all_of(z_.begin(), z_.end(), [](double z) { return std::isfinite(z); })) {
    throw std::invalid_argument("a height is not finite");
  }
  const size_t count = z_.size();
  zx_.assign(count, 0);
  zy_.assign(count, 0);
  zxy_.assign(count, 0);
  std::vector<double> line;
  for (int j = 0; j < ny(); ++j) {  // along x, row by row
    line.assign(z_.begin() + index(0, j), z_.begin() + index(0, j) + nx());
    const std::vector<double> slopes = splineSlopes(xs_, line);
    for (int i = 0; i < nx(); ++i) zx_[index(i, j)] = slopes[i];
  }
  for (int i = 0; i < nx(); ++i) {  // along y, column by column: z's slopes, and z_x's (the twist)
    std::vector<double> column(ny()), columnX(ny());
    for (int j = 0; j < ny(); ++j) {
      column[j] = z_[index(i, j)];
      columnX[j] = zx_[index(i, j)];
    }
    const std::vector<double> slopes = splineSlopes(ys_, column), twists = splineSlopes(ys_, columnX);
    for (int j = 0; j < ny(); ++j) {
      zy_[index(i, j)] = slopes[j];
      zxy_[index(i, j)] = twists[j];
    }
  }
  lowest_ = *std::min_element(z_.begin(), z_.end());
  highest_ = *std::max_element(z_.begin(), z_.end());
}

GridSurface::Sample GridSurface::at(double x, double y) const {
  const auto [i, u] = cellOf(xs_, x);
  const auto [j, v] = cellOf(ys_, y);
  const HermiteBasis bx(u, xs_[i + 1] - xs_[i]), by(v, ys_[j + 1] - ys_[j]);
  // Corner data as the basis orders it: [x slot][y slot], slots (left value, left slope, right value, right slope).
  double data[4][4];
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) {
      const int node = index(i + a, j + b);
      data[2 * a][2 * b] = z_[node];
      data[2 * a + 1][2 * b] = zx_[node];
      data[2 * a][2 * b + 1] = zy_[node];
      data[2 * a + 1][2 * b + 1] = zxy_[node];
    }
  }
  Sample sample;
  for (int p = 0; p < 4; ++p) {
    for (int q = 0; q < 4; ++q) {
      const double d = data[p][q];
      sample.z += bx.value[p] * by.value[q] * d;
      sample.gradient.x() += bx.first[p] * by.value[q] * d;
      sample.gradient.y() += bx.value[p] * by.first[q] * d;
      sample.hessian(0, 0) += bx.second[p] * by.value[q] * d;
      sample.hessian(1, 1) += bx.value[p] * by.second[q] * d;
      sample.hessian(0, 1) += bx.first[p] * by.first[q] * d;
    }
  }
  sample.hessian(1, 0) = sample.hessian(0, 1);
  return sample;
}

std::optional<GridSurface::Nearest> GridSurface::nearest(const Vector3& point, double reach) const {
  const Eigen::Vector2d low(xs_.front(), ys_.front()), high(xs_.back(), ys_.back());
  const auto squaredDistance = [&](const Eigen::Vector2d& at) {
    return (point - Vector3(at.x(), at.y(), this->at(at.x(), at.y()).z)).squaredNorm();
  };
  // Start at the best of the point's own place (clamped onto the grid) and the grid's nodes within reach of it.
  Eigen::Vector2d best = point.head<2>().cwiseMax(low).cwiseMin(high);
  double bestValue = squaredDistance(best);
  const auto nodesWithin = [&](const std::vector<double>& knots, double centre) {
    return std::pair{static_cast<int>(std::lower_bound(knots.begin(), knots.end(), centre - reach) - knots.begin()),
                     static_cast<int>(std::upper_bound(knots.begin(), knots.end(), centre + reach) - knots.begin())};
  };
  const auto [iFrom, iTo] = nodesWithin(xs_, point.x());
  const auto [jFrom, jTo] = nodesWithin(ys_, point.y());
  for (int i = iFrom; i < iTo; ++i) {
    for (int j = jFrom; j < jTo; ++j) {
      const double value = (point - Vector3(xs_[i], ys_[j], z_[index(i, j)])).squaredNorm();
      if (value < bestValue) {
        bestValue = value;
        best = Eigen::Vector2d(xs_[i], ys_[j]);
      }
    }
  }
  // Newton on f = ½|p − S|², S = (x, y, z(x, y)): ∇f = −J'(p − S), ∇²f = J'J − (p − S)_z·∇²z, J = [I; ∇z'],
  // a step halved until f decreases, kept on the rectangle.
  for (int iteration = 0; iteration < 50; ++iteration) {
    const Sample s = at(best.x(), best.y());
    const Vector3 offset = point - Vector3(best.x(), best.y(), s.z);
    const Eigen::Vector2d gradient = -(offset.head<2>() + offset.z() * s.gradient);
    Eigen::Matrix2d hessian = Eigen::Matrix2d::Identity() + s.gradient * s.gradient.transpose() -
                              offset.z() * s.hessian;
    Eigen::Vector2d step = -gradient;  // steepest descent where the Hessian is not positive definite
    const Eigen::LLT<Eigen::Matrix2d> factor(hessian);
    if (factor.info() == Eigen::Success) step = factor.solve(-gradient);
    double scale = 1;
    Eigen::Vector2d next = (best + step).cwiseMax(low).cwiseMin(high);
    while (squaredDistance(next) > squaredDistance(best) && scale > 1e-10) {
      scale *= 0.5;
      next = (best + scale * step).cwiseMax(low).cwiseMin(high);
    }
    const double moved = (next - best).norm();
    best = next;
    if (moved <= 1e-14 * (1 + (high - low).norm())) break;
  }
  const double edgeTolerance = 1e-12 * (high - low).norm();
  if ((best - low).minCoeff() <= edgeTolerance || (high - best).minCoeff() <= edgeTolerance) return std::nullopt;
  const Sample s = at(best.x(), best.y());
  Nearest result;
  result.point = Vector3(best.x(), best.y(), s.z);
  result.normal = Vector3(-s.gradient.x(), -s.gradient.y(), 1).normalized();
  result.distance = (point - result.point).dot(result.normal);
  return result;
}

}  // namespace lodestone
