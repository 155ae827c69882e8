// Simscape's Grid Surface: heights z(x, y) sampled on a rectangular grid in the xy plane of its frame, the material
// below the surface; smooth between the samples: the tensor-product cubic spline through them (not-a-knot ends in
// both directions, as MATLAB's spline and griddedInterpolant's "spline" method), C² everywhere on the grid's
// rectangle, which is where the surface is (nothing beyond its edges).
#pragma once

#include <optional>
#include <vector>

#include <Eigen/Core>

#include "solver/core/rotation.h"

namespace lodestone {

class GridSurface {
 public:
  // `heights[i + xs.size()·j]` is the height at (xs[i], ys[j]). Throws std::invalid_argument unless both grid vectors
  // have at least 4 strictly increasing values (a not-a-knot cubic needs 4) and every height is finite.
  GridSurface(std::vector<double> xs, std::vector<double> ys, std::vector<double> heights);

  // The surface's height and its derivatives at (x, y) on the grid's rectangle (clamped onto it).
  struct Sample {
    double z = 0;
    Eigen::Vector2d gradient = Eigen::Vector2d::Zero();   // ∂z/∂x, ∂z/∂y
    Eigen::Matrix2d hessian = Eigen::Matrix2d::Zero();    // second derivatives
  };
  Sample at(double x, double y) const;

  // The point of the surface nearest `point` (in the surface's frame), searched from the samples within `reach` of
  // it across the grid and refined by Newton's method on the squared distance. `distance` is signed: > 0 above the
  // surface (outside its material). Nothing when the nearest point lies on the rectangle's edge: the surface ends
  // there, and what lies beyond it touches nothing.
  struct Nearest {
    Vector3 point = Vector3::Zero();
    Vector3 normal = Vector3::UnitZ();  // unit, upward (out of the material)
    double distance = 0;
  };
  std::optional<Nearest> nearest(const Vector3& point, double reach) const;

  const std::vector<double>& xs() const { return xs_; }
  const std::vector<double>& ys() const { return ys_; }
  double lowest() const { return lowest_; }
  double highest() const { return highest_; }

 private:
  int nx() const { return static_cast<int>(xs_.size()); }
  int ny() const { return static_cast<int>(ys_.size()); }
  int index(int i, int j) const { return i + nx() * j; }
  std::vector<double> xs_, ys_;
  std::vector<double> z_, zx_, zy_, zxy_;  // at the nodes: the spline's value, slopes and twist
  double lowest_ = 0, highest_ = 0;
};

}  // namespace lodestone
