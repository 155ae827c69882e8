// Control_SISO: attributes, checks, and the transfer function's state-space realisation.
#include "control_siso.h"

#include "solver/core/excerpt.h"

namespace lodestone {

namespace {
using S = ControlSisoSpec;

// The coefficients without their trailing zeros (the polynomial's true order).
std::vector<double> trimmed(std::vector<double> coefficients) {
  while (!coefficients.empty() && coefficients.back() == 0.0) coefficients.pop_back();
  return coefficients;
}
}  // namespace

const ElementSchema<ControlSisoSpec>& controlSisoSchema() {
  static const ElementSchema<S> schema{
      .element = "Control_SISO",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("x_array_id", &S::x_array_id, "Reference_Array"),
          attr::reference("y_array_id", &S::y_array_id, "Reference_Array"),
          attr::reference("u_array_id", &S::u_array_id, "Reference_Array"),
          attr::boolean("is_static_hold", &S::is_static_hold).byDefault(false),
          attr::integer("num_numerator_coef", &S::num_numerator_coef).atLeast(1),
          attr::realList("numerator_coef", &S::numerator_coef),
          attr::integer("num_denominator_coef", &S::num_denominator_coef).atLeast(1),
          attr::realList("denominator_coef", &S::denominator_coef),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

void checkControlSiso(const ControlSisoSpec& spec, Diagnostics& diagnostics) {
  for (const auto& [name, value] : {std::pair{"x_array_id", &spec.x_array_id},
                                    std::pair{"y_array_id", &spec.y_array_id},
                                    std::pair{"u_array_id", &spec.u_array_id}}) {
    if (!*value) diagnostics.error(spec.loc, std::string("needs ") + name + ", a Reference_Array of type " +
                                                 std::string(1, static_cast<char>(std::toupper(name[0]))));
  }
  const auto countMatches = [&](const char* countName, const std::optional<int>& count, const char* listName,
                                const std::vector<double>& list) {
    if (list.empty()) {
      diagnostics.error(spec.loc, std::string("needs ") + listName + ", the coefficients in ascending powers of s");
      return false;
    }
    if (count && static_cast<size_t>(*count) != list.size()) {
      diagnostics.error(spec.loc, std::string(countName) + "=\"" + std::to_string(*count) + "\" but " + listName +
                                      " holds " + std::to_string(list.size()) + " coefficients");
      return false;
    }
    return true;
  };
  const bool numeratorRead = countMatches("num_numerator_coef", spec.num_numerator_coef, "numerator_coef",
                                          spec.numerator_coef);
  const bool denominatorRead = countMatches("num_denominator_coef", spec.num_denominator_coef, "denominator_coef",
                                            spec.denominator_coef);
  if (!numeratorRead || !denominatorRead) return;
  const std::vector<double> numerator = trimmed(spec.numerator_coef), denominator = trimmed(spec.denominator_coef);
  if (denominator.empty()) {
    diagnostics.error(spec.loc, "denominator_coef are all 0: the transfer function has no denominator");
    return;
  }
  if (numerator.size() > denominator.size()) {
    diagnostics.error(spec.loc, "the numerator's order (" + std::to_string(numerator.size() - 1) +
                                    ") is above the denominator's (" + std::to_string(denominator.size() - 1) +
                                    "): the transfer function must be proper (m <= n), as its output would otherwise "
                                    "read derivatives of its input");
  }
}

StateSpace realiseTransferFunction(const std::vector<double>& numeratorGiven,
                                   const std::vector<double>& denominatorGiven) {
  const std::vector<double> denominator = trimmed(denominatorGiven);
  std::vector<double> numerator = trimmed(numeratorGiven);
  const int n = static_cast<int>(denominator.size()) - 1;
  numerator.resize(static_cast<size_t>(n) + 1, 0.0);
  const double leading = denominator[static_cast<size_t>(n)];
  StateSpace system{Eigen::MatrixXd::Zero(n, n), Eigen::MatrixXd::Zero(n, 1), Eigen::MatrixXd::Zero(1, n),
                    Eigen::MatrixXd::Zero(1, 1)};
  // D(s) z = u with x(k+1) = z^(k): ẋk = x(k+1), and ẋn = (u − Σ ai x(i+1)) / an.
  for (int k = 0; k + 1 < n; ++k) system.a(k, k + 1) = 1.0;
  for (int i = 0; i < n; ++i) system.a(n - 1, i) = -denominator[static_cast<size_t>(i)] / leading;
  if (n > 0) system.b(n - 1, 0) = 1.0 / leading;
  // y = N(s) z = Σ bi x(i+1) + bn z^(n), with z^(n) = ẋn from the row above.
  const double last = numerator[static_cast<size_t>(n)];
  for (int i = 0; i < n; ++i) {
    system.c(0, i) = numerator[static_cast<size_t>(i)] - last * denominator[static_cast<size_t>(i)] / leading;
  }
  system.d(0, 0) = last / leading;
  return system;
}

}  // namespace lodestone
