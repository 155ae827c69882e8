// Scientific number text for the run log.
#include "number_format.h"

#include <cstdio>

namespace lodestone {

std::string scientific(double value, int digitsAfterPoint) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*E", digitsAfterPoint, value);
  return buffer;
}

}  // namespace lodestone
