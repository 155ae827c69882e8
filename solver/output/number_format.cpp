// Shortest round-trip and scientific number text.
#include "number_format.h"

#include <charconv>
#include <cstdio>

namespace lodestone {

void appendRoundTrip(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

std::string roundTrip(double value) {
  std::string text;
  appendRoundTrip(text, value);
  return text;
}

std::string scientific(double value, int digitsAfterPoint) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*E", digitsAfterPoint, value);
  return buffer;
}

}  // namespace lodestone
