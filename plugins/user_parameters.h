// The parameter strings of user subroutines: `USER(p1, p2, …)` in cnf_param_string, cff_param_string and
// cpost_param_string. The numbers reach the subroutine as `par`, their count as `npar`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lodestone {

struct UserParameters {
  std::vector<double> values;
  std::string error;  // empty when the text is valid
  int column = 0;     // 1-based column of the problem within the text
};

// "USER(500., 1.5, 0.5, 0.01)": case-insensitive, spaces anywhere between tokens, numbers in C or Fortran
// notation (1.5e3, 1.5D3), an empty list allowed. Anything else gives an error that says what was expected where.
UserParameters parseUserParameters(std::string_view text);

}  // namespace lodestone
