// A user subroutine as a Force_Contact calls it: the function found in its shared library, and the numbers of
// its USER(...) parameter string.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "user_library.h"

namespace lodestone {

struct UserSubroutine {
  std::string function;                      // the symbol, as the deck names it ("CNFSUB")
  std::string library;                       // path of the library it came from
  std::vector<double> parameters;            // par; npar is their count
  std::shared_ptr<SharedLibrary> keepLoaded; // the library stays loaded while any model uses it
  void* address = nullptr;

  // The function with the prototype the caller knows it has (lodestone_cnfsub, …).
  template <class Function>
  Function as() const {
    return reinterpret_cast<Function>(address);
  }
  // "CNFSUB in /path/libcontact.so", for messages.
  std::string describe() const { return function + " in " + library; }
};

}  // namespace lodestone
