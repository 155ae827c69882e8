// Modules are found beside liblodestone_usersub (here the build tree's lib folder), and one that cannot be loaded, or
// lacks its function, is an error that says what the module is for, its path and why.
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

const std::string kLibraryFolder = std::string(LODESTONE_BINARY_DIR) + "/lib/";

TEST(Modules, AMissingModuleIsAnErrorSayingWhatItIsForItsPathAndWhy) {
  EXPECT_EQ(failureOf("liblodestone_no_such_module.so", "lodestone_entry"),
            "cannot load the writer of nothing: " + kLibraryFolder +
                "liblodestone_no_such_module.so: cannot open shared object file: No such file or directory");
}

TEST(Modules, AModuleWithoutTheFunctionIsAnError) {
  EXPECT_EQ(failureOf(kResultsH5Module, "lodestone_no_such_entry"),
            "cannot use the writer of nothing: " + kLibraryFolder +
                "liblodestone_results_h5.so has no function lodestone_no_such_entry (a module of another Lodestone "
                "version?)");
}

}  // namespace
}  // namespace lodestone
