// Control_SISO: a single-input single-output transfer function N(s)/D(s), coefficients in ascending powers of s,
// realised as a linear state-space system (the controllable canonical form) whose states the integrator carries.
// The deck element, its checks, and the realisation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "solver/core/diagnostics.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ControlSisoSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<long> x_array_id, y_array_id, u_array_id;
  bool is_static_hold = false;
  std::optional<int> num_numerator_coef, num_denominator_coef;
  std::vector<double> numerator_coef, denominator_coef;
};

const ElementSchema<ControlSisoSpec>& controlSisoSchema();
// The arrays are named, the coefficient counts match their lists, the denominator's leading coefficient is not 0
// and the numerator's order is not above the denominator's (a proper transfer function).
void checkControlSiso(const ControlSisoSpec& spec, Diagnostics& diagnostics);

// N(s)/D(s), N = b0 + b1 s + …, D = a0 + a1 s + … + an s^n (an ≠ 0, trailing zero coefficients dropped), as
// ẋ = A x + B u, y = C x + D u with n states: x1 the output of 1/D(s), x(k+1) = ẋk.
struct StateSpace {
  Eigen::MatrixXd a, b, c, d;
};
StateSpace realiseTransferFunction(const std::vector<double>& numerator, const std::vector<double>& denominator);

}  // namespace lodestone
