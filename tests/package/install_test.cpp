// The package from an install: `cmake --install` of this build to a temporary prefix, then a user's project
// (external_project/: find_package(lodestone) and lodestone_add_subroutine_library) configured and built against
// it with CMAKE_PREFIX_PATH alone, and its library loaded; and the same subroutine built without CMake, with the flags
// of `lodestone config` and of lodestone.pc, running a deck with LD_LIBRARY_PATH unset. Everything is written in a
// temporary folder (and the install manifests CMake keeps in the build folder).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli/temporary_folder.h"
#include "lodestone/usersub.h"
#include "support/text_files.h"

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
  for (const char* file : {"include/msolvsub_c_include.h", "include/lodestone/usersub.h", "lib/pkgconfig/lodestone.pc",
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
  ASSERT_EQ(run("readelf -d " + ::quoted(solver), folder / "readelf.log"), "");
  // One of the run path's folders (a clang sanitizer build puts its runtime's folder before it), as "Library runpath:
  // [...]" or "Library rpath: [...]".
  const std::string dynamic = readFile(folder / "readelf.log");
  const std::string opening = "path: [";
  const size_t begin = dynamic.find(opening);
  ASSERT_NE(begin, std::string::npos) << dynamic;
  const size_t end = dynamic.find(']', begin);
  ASSERT_NE(end, std::string::npos) << dynamic;
  const std::string runPath = ":" + dynamic.substr(begin + opening.size(), end - begin - opening.size()) + ":";
  EXPECT_NE(runPath.find(":$ORIGIN/../lib:"), std::string::npos) << dynamic;
}

// ---- without CMake: the flags of `lodestone config` and of lodestone.pc ------------------------------------------

const std::string kWithoutLibraryPath = "env -u LD_LIBRARY_PATH ";

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// Builds external_project/my_contact.c into `library` with `flags`; "" on success.
std::string buildWithFlags(const std::string& library, const std::string& flags, const TemporaryFolder& folder) {
  return run(kWithoutLibraryPath + quoted(LODESTONE_C_COMPILER) + " -shared -fPIC -o " + quoted(library) + " " +
                 quoted(std::string(LODESTONE_EXTERNAL_PROJECT_DIR) + "/my_contact.c") + " " + flags,
             folder / "compile.log");
}

// Where the dynamic loader finds liblodestone_usersub for `library` alone, without LD_LIBRARY_PATH (ldd's answer:
// a path, or "not found").
std::string usersubFoundBy(const std::string& library, const TemporaryFolder& folder) {
  const std::string log = folder / "ldd.log";
  const std::string failed = run(kWithoutLibraryPath + "ldd " + quoted(library), log);
  if (!failed.empty()) return failed;
  const std::string text = readFile(log);
  const std::string name = "liblodestone_usersub.so.0 => ";
  const size_t at = text.find(name);
  if (at == std::string::npos) return "ldd does not list liblodestone_usersub:\n" + text;
  const size_t start = at + name.size();
  if (text.compare(start, 9, "not found") == 0) return "not found";
  return text.substr(start, text.find_first_of(" \n", start) - start);
}

// The columns of impacts.csv, by name.
std::map<std::string, std::vector<double>> impactColumns(const std::string& path) {
  const std::vector<std::string> lines = lodestone::testing::readLines(path);
  std::map<std::string, std::vector<double>> columns;
  if (lines.empty()) return columns;
  std::vector<std::string> names;
  std::stringstream header(lines[0]);
  for (std::string name; std::getline(header, name, ',');) names.push_back(name);
  for (size_t row = 1; row < lines.size(); ++row) {
    const std::vector<double> values = lodestone::testing::csvFields(lines[row]);
    for (size_t k = 0; k < std::min(names.size(), values.size()); ++k) columns[names[k]].push_back(values[k]);
  }
  return columns;
}

// models/bouncing_ball.xml, its IMPACT law computed by a subroutine library's CNFSUB (external_project/my_contact.c
// calls c_impact with the same four parameters) when `library` is given.
std::string bouncingBall(const std::string& library) {
  std::string deck = readFile(std::string(LODESTONE_SOURCE_DIR) + "/models/bouncing_ball.xml");
  if (library.empty()) return deck;
  const std::string law = "cnf_type=\"IMPACT\" stiffness=\"463337.\" exponent=\"1.5\" damping=\"0.1\"\n"
                          "                   dmax=\"0.005\"";
  return deck.replace(deck.find(law), law.size(),
                      "cnf_type=\"USERCNF\" cnf_param_string=\"USER(463337., 1.5, 0.1, 0.005)\" cnf_dll_name=\"" +
                          library + "\"");
}

class PackageFlags : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(install("usersub", folder), "");
    ASSERT_EQ(install("solver", folder), "");
    prefix = fs::canonical(folder / "prefix");
    solver = (prefix / "bin/lodestone").string();
    fs::create_directories(folder / "decks");
  }
  // The library, loaded by the installed solver with LD_LIBRARY_PATH unset, gives the built-in law's first impact.
  // (c_impact's operations differ from the built-in's in order: the runs differ by 6e-11 at the first impact, and
  // by 1e-9 at the second, after IDAS's step choices have carried the round-off on.)
  void expectTheDeckRunsWithoutLibraryPath(const std::string& library) {
    const std::string deck = folder.write("decks/ball.xml", bouncingBall(library));
    const std::string builtIn = folder.write("decks/builtin.xml", bouncingBall(""));
    for (const std::string& each : {deck, builtIn}) {
      ASSERT_EQ(run(kWithoutLibraryPath + ::quoted(solver) + " run " + ::quoted(each), folder / "run.log"), "");
    }
    const auto withLibrary = impactColumns(folder / "decks/ball_results/impacts.csv");
    const auto reference = impactColumns(folder / "decks/builtin_results/impacts.csv");
    ASSERT_EQ(withLibrary.at("peak_fn").size(), 2u);
    ASSERT_EQ(reference.at("peak_fn").size(), 2u);
    for (const char* column : {"onset_time", "peak_fn", "max_penetration", "impulse", "restitution"}) {
      const double expected = reference.at(column)[0];
      EXPECT_NEAR(withLibrary.at(column)[0], expected, 1e-9 * std::fabs(expected)) << column;
    }
  }

  const TemporaryFolder folder;
  fs::path prefix;
  std::string solver;
};

TEST_F(PackageFlags, ALibraryBuiltWithTheConfigFlagsFindsTheUtilitiesWithoutLdLibraryPath) {
  ASSERT_EQ(run(::quoted(solver) + " config --cflags --libs", folder / "config.log"), "");
  const std::string flags = trimmed(readFile(folder / "config.log"));
  const std::string lib = (prefix / "lib").string();
  EXPECT_EQ(flags, "-I" + (prefix / "include").string() + " -L" + lib + " -Wl,-rpath," + lib + " -llodestone_usersub");

  const std::string library = folder / "decks/my_contact.so";
  ASSERT_EQ(buildWithFlags(library, flags, folder), "");
  EXPECT_EQ(usersubFoundBy(library, folder), lib + "/liblodestone_usersub.so.0");
  // Without the run path the library alone would not find this prefix's copy; under `lodestone run` it would still
  // load, since the solver has liblodestone_usersub loaded already, but a harness of the subroutine author's would
  // not. It may find another copy: `scripts/demo` installs one in /usr/local/lib, on the loader's default path.
  const std::string bare = folder / "bare.so";
  const std::string withoutRunPath = "-I" + (prefix / "include").string() + " -L" + lib + " -llodestone_usersub";
  ASSERT_EQ(buildWithFlags(bare, withoutRunPath, folder), "");
  const std::string foundBare = usersubFoundBy(bare, folder);
  std::error_code error;
  EXPECT_TRUE(foundBare == "not found" ||
              (foundBare.front() == '/' && !fs::equivalent(foundBare, prefix / "lib/liblodestone_usersub.so.0", error)))
      << foundBare;

  expectTheDeckRunsWithoutLibraryPath("my_contact");
}

TEST_F(PackageFlags, ALibraryBuiltWithThePkgConfigFileFindsTheUtilitiesWithoutLdLibraryPath) {
  if (std::system("pkg-config --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "pkg-config is not installed";
  ASSERT_EQ(run("PKG_CONFIG_PATH=" + quoted((prefix / "lib/pkgconfig").string()) +
                    " pkg-config --cflags --libs lodestone",
                folder / "pkg-config.log"),
            "");
  const std::string flags = trimmed(readFile(folder / "pkg-config.log"));
  const std::string library = folder / "decks/my_contact.so";
  ASSERT_EQ(buildWithFlags(library, flags, folder), "");
  const std::string found = usersubFoundBy(library, folder);
  std::error_code error;
  EXPECT_TRUE(fs::equivalent(found, prefix / "lib/liblodestone_usersub.so.0", error)) << found << "\nflags: " << flags;

  expectTheDeckRunsWithoutLibraryPath("my_contact");
}

// ---- the solver's modules (solver/core/modules.h) --------------------------------------------------------------

// They are installed in the lib folder beside the program's; without one, what needs it says which module it cannot
// load, and what does not need it still works.
TEST(PackageInstall, TheInstalledSolverSaysWhichModuleItCannotLoad) {
  const TemporaryFolder folder;
  ASSERT_EQ(install("usersub", folder), "");
  ASSERT_EQ(install("solver", folder), "");
  const fs::path lib = folder.path() / "prefix/lib";
  for (const char* module : {"liblodestone_deck_commands.so", "liblodestone_results_h5.so", "liblodestone_animation.so",
                             "liblodestone_python_engine.so"}) {
    EXPECT_TRUE(fs::exists(lib / module)) << module;
  }
  fs::remove(lib / "liblodestone_deck_commands.so");
  const std::string solver = quoted(folder / "prefix/bin/lodestone");
  EXPECT_EQ(run(kWithoutLibraryPath + solver + " --version", folder / "version.log"), "");
  const std::string deck = quoted(std::string(LODESTONE_SOURCE_DIR) + "/models/bouncing_ball.xml");
  EXPECT_NE(run(kWithoutLibraryPath + solver + " check " + deck, folder / "check.log"), "");
  const std::string said = readFile(folder / "check.log");
  EXPECT_EQ(said, "lodestone: cannot load the solver of run, check, batch and elements: " +
                      (fs::canonical(lib) / "liblodestone_deck_commands.so").string() +
                      ": cannot open shared object file: No such file or directory\n");
}

}  // namespace
