// Numerical integration of a function of one variable: adaptive Gauss–Kronrod (7–15 points) of a number or a vector,
// used where an integral has no closed form for every law that may ask for it (the elastic energy a contact law
// stores) and for the frustum magnet's mantle (magnetics/frustum_field.cpp); and the n-point
// Gauss–Legendre rule, for tensor rules over magnets (magnetics/magnet_pair.cpp, the magnet tests' references).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

#include <Eigen/Eigenvalues>

namespace lodestone {

struct GaussLegendreRule {
  std::vector<double> nodes, weights;  // on [−1, 1]; the weights sum to 2
};

// The n-point rule by Golub and Welsch: the nodes are the eigenvalues of the Legendre polynomials' Jacobi matrix, the
// weights twice the squared first components of its eigenvectors.
inline GaussLegendreRule gaussLegendreRule(int n) {
  Eigen::MatrixXd jacobi = Eigen::MatrixXd::Zero(n, n);
  for (int k = 1; k < n; ++k) jacobi(k, k - 1) = jacobi(k - 1, k) = k / std::sqrt(4.0 * k * k - 1);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(jacobi);
  GaussLegendreRule rule;
  for (int k = 0; k < n; ++k) {
    rule.nodes.push_back(solver.eigenvalues()(k));
    rule.weights.push_back(2 * solver.eigenvectors()(0, k) * solver.eigenvectors()(0, k));
  }
  return rule;
}

namespace gauss_kronrod {
// Kronrod nodes on [−1, 1] (the positive half; x[1], x[3], x[5], x[7] are the 7-point Gauss nodes) and weights.
inline constexpr std::array<double, 8> kNodes = {
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851, 0.864864423359769072789712788640926,
    0.741531185599394439863864773280788, 0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.0};
inline constexpr std::array<double, 8> kKronrodWeights = {
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204, 0.104790010322250183839876322541518,
    0.140653259715525918745189590510238, 0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
inline constexpr std::array<double, 4> kGaussWeights = {
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780, 0.381830050505118944950369775488975,
    0.417959183673469387755102040816327};

// The size an error estimate is measured by: |x| for a number, the Euclidean norm for a vector.
inline double magnitude(double value) { return std::fabs(value); }
template <class Derived>
double magnitude(const Eigen::MatrixBase<Derived>& value) {
  return value.norm();
}
inline bool allFinite(double value) { return std::isfinite(value); }
template <class Derived>
bool allFinite(const Eigen::MatrixBase<Derived>& value) {
  return value.allFinite();
}

template <class Value>
struct Panel {
  double from = 0, to = 0;
  Value value{};          // Kronrod's estimate
  double difference = 0;  // the size of Kronrod's − Gauss's: the error estimate
};

template <class Value, class F>
Panel<Value> panel(F& f, double from, double to) {
  const double centre = 0.5 * (from + to), half = 0.5 * (to - from);
  const Value middle = f(centre);
  Value kronrod = kKronrodWeights[7] * middle;
  Value gauss = kGaussWeights[3] * middle;
  for (size_t k = 0; k < 7; ++k) {
    const Value pair = f(centre - half * kNodes[k]) + f(centre + half * kNodes[k]);
    kronrod += kKronrodWeights[k] * pair;
    if (k % 2 == 1) gauss += kGaussWeights[k / 2] * pair;
  }
  return {from, to, Value(half * kronrod), half * magnitude(Value(kronrod - gauss))};
}

// The value type of f: double for a function returning a number, else what it returns (an Eigen vector).
template <class F>
using ValueOf = std::conditional_t<std::is_arithmetic_v<std::decay_t<std::invoke_result_t<F&, double>>>, double,
                                   std::decay_t<std::invoke_result_t<F&, double>>>;
}  // namespace gauss_kronrod

// When integrateAdaptive stops: once the sizes of the panels' error estimates add up to at most absoluteTolerance +
// relativeTolerance·|∫ f|, or it has maxPanels panels (at most kMaxAdaptivePanels). It starts from `pieces` equal panels.
struct QuadratureControl {
  double relativeTolerance = 0;
  double absoluteTolerance = 0;
  int pieces = 1;
  int maxPanels = 64;
};
inline constexpr int kMaxAdaptivePanels = 256;

// ∫ f over [from, to] for f of a number or a vector (Eigen) value, adaptive Gauss–Kronrod (7–15 points): the panel
// with the largest error estimate is halved until `control` says stop, or the sum is not finite. A polynomial of
// degree up to 13 takes one panel (15 evaluations of f).
template <class F>
gauss_kronrod::ValueOf<F> integrateAdaptive(F&& f, double from, double to, const QuadratureControl& control) {
  using Value = gauss_kronrod::ValueOf<F>;
  using gauss_kronrod::Panel;
  const int maxPanels = std::clamp(control.maxPanels, 1, kMaxAdaptivePanels);
  const int pieces = std::clamp(control.pieces, 1, maxPanels);
  std::array<Panel<Value>, kMaxAdaptivePanels> panels;
  for (int k = 0; k < pieces; ++k) {
    const double begin = from + (to - from) * k / pieces;
    const double end = k + 1 == pieces ? to : from + (to - from) * (k + 1) / pieces;
    panels[static_cast<size_t>(k)] = gauss_kronrod::panel<Value>(f, begin, end);
  }
  size_t count = static_cast<size_t>(pieces);
  for (;;) {
    Value value = panels[0].value;
    double difference = panels[0].difference;
    size_t worst = 0;
    for (size_t k = 1; k < count; ++k) {
      value += panels[k].value;
      difference += panels[k].difference;
      if (panels[k].difference > panels[worst].difference) worst = k;
    }
    if (difference <= control.absoluteTolerance + control.relativeTolerance * gauss_kronrod::magnitude(value) ||
        count == static_cast<size_t>(maxPanels) || !gauss_kronrod::allFinite(value)) {
      return value;
    }
    const Panel<Value> split = panels[worst];
    const double middle = 0.5 * (split.from + split.to);
    panels[worst] = gauss_kronrod::panel<Value>(f, split.from, middle);
    panels[count++] = gauss_kronrod::panel<Value>(f, middle, split.to);
  }
}

// ∫ f over [from, to] for a number-valued f, to `relativeTolerance` of the integral (at most 64 panels).
template <class F>
double integrate(F&& f, double from, double to, double relativeTolerance = 1e-12) {
  return integrateAdaptive(f, from, to, {.relativeTolerance = relativeTolerance});
}

}  // namespace lodestone
