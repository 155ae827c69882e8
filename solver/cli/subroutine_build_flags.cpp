// Where this Lodestone's subroutine headers and liblodestone_usersub are.
#include "subroutine_build_flags.h"

namespace lodestone::cli {

namespace fs = std::filesystem;

namespace {

bool holdsSubroutineBuild(const fs::path& includeDir, const fs::path& libDir) {
  std::error_code error;
  return fs::exists(includeDir / "lodestone/usersub.h", error) && fs::exists(libDir / "liblodestone_usersub.so", error);
}

}  // namespace

std::variant<SubroutineBuildPaths, std::string> findSubroutineBuildPaths(const fs::path& executable) {
  std::error_code error;
  const fs::path program = fs::canonical(executable, error);
  if (error) return "cannot tell where this lodestone is (" + executable.string() + ": " + error.message() + ")";
  const fs::path prefix = program.parent_path().parent_path();
  if (holdsSubroutineBuild(prefix / "include", prefix / "lib")) {
    return SubroutineBuildPaths{prefix / "include", prefix / "lib"};
  }
  const fs::path sourceHeaders = LODESTONE_SOURCE_INCLUDE_DIR;
  if (holdsSubroutineBuild(sourceHeaders, prefix / "lib")) return SubroutineBuildPaths{sourceHeaders, prefix / "lib"};
  return "the subroutine headers and liblodestone_usersub are not beside " + program.string() + " (looked in " +
         (prefix / "include").string() + " and " + (prefix / "lib").string() +
         "): install them with cmake --install BUILD --component usersub";
}

std::string compileFlags(const SubroutineBuildPaths& paths) { return "-I" + paths.includeDir.string(); }

std::string linkFlags(const SubroutineBuildPaths& paths) {
  const std::string lib = paths.libDir.string();
  return "-L" + lib + " -Wl,-rpath," + lib + " -llodestone_usersub";
}

}  // namespace lodestone::cli
