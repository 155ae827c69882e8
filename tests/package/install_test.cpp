// The package from an install: `cmake --install` of this build to a temporary prefix, then a user's project
// (external_project/: find_package(lodestone) and lodestone_add_subroutine_library) configured and built against
// it with CMAKE_PREFIX_PATH alone, and its library loaded. Everything is written in a temporary folder (and the
// install manifests CMake keeps in the build folder).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "cli/temporary_folder.h"
#include "lodestone/usersub.h"

namespace {

namespace fs = std::filesystem;
using lodestone::cli::testing::readFile;
using lodestone::cli::testing::TemporaryFolder;

std::string quoted(const std::string& text) { return "'" + text + "'"; }

// Runs `command` with its output in `log`; returns "" on success, else the command and its output.
std::string run(const std::string& command, const std::string& log) {
  const int status = std::system((command + " > " + quoted(log) + " 2>&1").c_str());
  if (status == 0) return "";
  return "`" + command + "` failed (status " + std::to_string(status) + "):\n" + readFile(log);
}

std::string install(const std::string& component, const TemporaryFolder& folder) {
  return run(quoted(LODESTONE_CMAKE_COMMAND) + " --install " + quoted(LODESTONE_BINARY_DIR) + " --prefix " +
                 quoted(folder / "prefix") + " --component " + component,
             folder / ("install-" + component + ".log"));
}

TEST(PackageInstall, InstallsTheUtilitiesLibraryHeadersAndPackageFiles) {
  const TemporaryFolder folder;
  ASSERT_EQ(install("usersub", folder), "");
  const fs::path prefix = folder / "prefix";
  for (const char* file : {"include/msolvsub_c_include.h", "include/lodestone/usersub.h",
                           "include/lodestone/contact_law.h", "lib/liblodestone_usersub.so",
                           "lib/cmake/lodestone/lodestoneConfig.cmake",
                           "lib/cmake/lodestone/lodestoneConfigVersion.cmake", "lib/cmake/lodestone/lodestoneTargets.cmake",
                           "lib/cmake/lodestone/lodestoneSubroutineLibrary.cmake"}) {
    EXPECT_TRUE(fs::exists(prefix / file)) << file;
  }
  EXPECT_FALSE(fs::exists(prefix / "bin/lodestone")) << "the solver is its own component";
}

TEST(PackageInstall, AUserProjectBuildsASubroutineLibraryWithFindPackage) {
  const TemporaryFolder folder;
  ASSERT_EQ(install("usersub", folder), "");
  const std::string build = folder / "build";
  ASSERT_EQ(run(quoted(LODESTONE_CMAKE_COMMAND) + " -S " + quoted(LODESTONE_EXTERNAL_PROJECT_DIR) + " -B " +
                    quoted(build) + " -G " + quoted(LODESTONE_CMAKE_GENERATOR) + " -DCMAKE_MAKE_PROGRAM=" +
                    quoted(LODESTONE_MAKE_PROGRAM) + " -DCMAKE_C_COMPILER=" + quoted(LODESTONE_C_COMPILER) +
                    " -DCMAKE_PREFIX_PATH=" + quoted(folder / "prefix"),
                folder / "configure.log"),
            "");
  EXPECT_NE(readFile(build + "/CMakeCache.txt").find("lodestone_DIR:PATH=" + (folder / "prefix/lib/cmake/lodestone")),
            std::string::npos)
      << "the package must come from the temporary prefix";
  ASSERT_EQ(run(quoted(LODESTONE_CMAKE_COMMAND) + " --build " + quoted(build), folder / "build.log"), "");

  // my_contact.so: named after the target, without a "lib" prefix.
  const std::string library = build + "/my_contact.so";
  ASSERT_TRUE(fs::exists(library)) << readFile(folder / "build.log");
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  const auto cnfsub = reinterpret_cast<lodestone_cnfsub>(dlsym(handle, "CNFSUB"));
  EXPECT_NE(cnfsub, nullptr) << "CNFSUB is not exported";
  if (cnfsub) {
    int id = 1, npar = 4, dflag = 0, iflag = 0;
    double time = 0, par[] = {1e5, 1.5, 10, 0.01}, loci[3] = {}, ni[3] = {}, locj[3] = {}, nj[3] = {};
    double gap = -0.001, gapdot = -0.1, gapdotdot = 0, result = -1;
    cnfsub(&id, &time, par, &npar, loci, ni, locj, nj, &gap, &gapdot, &gapdotdot, &dflag, &iflag, &result);
    EXPECT_NEAR(result, 3.1902776601683795, 1e-9);
  }
  // Its utilities come from the installed liblodestone_usersub, found through the library's own run path.
  const char* libraryPath = std::getenv("LD_LIBRARY_PATH");
  if (!libraryPath || !*libraryPath) {
    Dl_info info{};
    void* impact = dlsym(handle, "c_impact");
    ASSERT_NE(impact, nullptr);
    ASSERT_NE(dladdr(impact, &info), 0);
    EXPECT_EQ(fs::path(info.dli_fname).parent_path().lexically_normal(), (folder.path() / "prefix/lib").lexically_normal());
  }
  dlclose(handle);
}

TEST(PackageInstall, TheInstalledSolverLooksForLibrariesInTheSiblingLibFolder) {
  if (std::system("readelf --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "readelf (binutils) is not installed";
  const TemporaryFolder folder;
  ASSERT_EQ(install("solver", folder), "");
  const std::string solver = folder / "prefix/bin/lodestone";
  ASSERT_TRUE(fs::exists(solver));
  ASSERT_EQ(run("readelf -d " + quoted(solver), folder / "readelf.log"), "");
  EXPECT_NE(readFile(folder / "readelf.log").find("[$ORIGIN/../lib]"), std::string::npos) << readFile(folder / "readelf.log");
}

}  // namespace
