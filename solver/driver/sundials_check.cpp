// Names and messages for SUNDIALS failures.
#include "sundials_check.h"

#include <cstdlib>

namespace lodestone {

std::string idasFlagName(int flag) {
  char* name = IDAGetReturnFlagName(flag);
  if (name == nullptr) return "IDAS flag " + std::to_string(flag);
  std::string text = name;
  std::free(name);
  return text;
}

SundialsError::SundialsError(std::string call, int flag)
    : std::runtime_error(call + " failed (" + idasFlagName(flag) + ")"), call_(std::move(call)), flag_(flag) {}

}  // namespace lodestone
