// A small hand-written scanner: the grammar is one keyword, parentheses and a comma-separated list of numbers.
#include "user_parameters.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace lodestone {

UserParameters parseUserParameters(std::string_view text) {
  UserParameters result;
  size_t at = 0;
  const auto skipSpaces = [&] {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  };
  const auto fail = [&](const std::string& message) {
    result.values.clear();
    result.error = message;
    result.column = static_cast<int>(at) + 1;
    return result;
  };
  const auto found = [&] { return at < text.size() ? "'" + std::string(1, text[at]) + "'" : std::string("the end"); };

  skipSpaces();
  static constexpr std::string_view kKeyword = "USER";
  for (size_t k = 0; k < kKeyword.size(); ++k, ++at) {
    if (at >= text.size() || std::toupper(static_cast<unsigned char>(text[at])) != kKeyword[k]) {
      return fail("expected USER(p1, p2, ...), found " + found());
    }
  }
  skipSpaces();
  if (at >= text.size() || text[at] != '(') return fail("expected '(' after USER, found " + found());
  ++at;
  skipSpaces();
  if (at < text.size() && text[at] == ')') {
    ++at;
  } else {
    while (true) {
      skipSpaces();
      // A number: copy its characters, turning a Fortran D exponent into E.
      const size_t start = at;
      std::string number;
      while (at < text.size() && (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '.' ||
                                  text[at] == '+' || text[at] == '-')) {
        const char c = text[at];
        number += (c == 'd' || c == 'D') ? 'e' : c;
        ++at;
      }
      char* end = nullptr;
      const double value = number.empty() ? 0 : std::strtod(number.c_str(), &end);
      if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(value)) {
        at = start;
        return fail(number.empty() ? "expected a number, found " + found()
                                   : "'" + std::string(text.substr(start, number.size())) + "' is not a number");
      }
      result.values.push_back(value);
      skipSpaces();
      if (at < text.size() && text[at] == ',') {
        ++at;
        continue;
      }
      if (at < text.size() && text[at] == ')') {
        ++at;
        break;
      }
      return fail("expected ',' or ')' after a number, found " + found());
    }
  }
  skipSpaces();
  if (at != text.size()) return fail("unexpected text after USER(...): " + found());
  return result;
}

}  // namespace lodestone
