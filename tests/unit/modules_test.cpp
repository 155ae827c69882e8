// Modules are found beside liblodestone_usersub through the run path of what loads them (here this test program),
// and one that cannot be loaded, or lacks its function, is an error that says which module, what it is for and why.
#include "solver/core/modules.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "solver/output/results_h5_store.h"

namespace lodestone {
namespace {

std::string failureOf(const char* file, const char* entry) {
  try {
    moduleEntry(file, entry, "the writer of nothing");
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "(loaded)";
}

TEST(Modules, AModuleIsFoundBesideTheUtilitiesLibrary) {
  EXPECT_NE(moduleEntry(kResultsH5Module, kOpenResultsH5Store, "the HDF5 writer of results.h5"), nullptr);
}

TEST(Modules, AMissingModuleIsAnErrorNamingItWhatItIsForAndWhy) {
  const std::string message = failureOf("liblodestone_no_such_module.so", "lodestone_entry");
  EXPECT_EQ(message.rfind("cannot load the writer of nothing, liblodestone_no_such_module.so (installed beside "
                          "liblodestone_usersub): liblodestone_no_such_module.so: cannot open shared object file",
                          0),
            0u)
      << message;
}

TEST(Modules, AModuleWithoutTheFunctionIsAnError) {
  EXPECT_EQ(failureOf(kResultsH5Module, "lodestone_no_such_entry"),
            "cannot use the writer of nothing: liblodestone_results_h5.so has no function lodestone_no_such_entry (a "
            "module of another Lodestone version?)");
}

}  // namespace
}  // namespace lodestone
