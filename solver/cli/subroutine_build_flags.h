// `lodestone config --cflags --libs`: the flags that build a user-subroutine library against this Lodestone, for a
// subroutine author who does not use CMake's find_package(lodestone). The paths are found from where the running
// `lodestone` is, so an installed tree can be moved, and a build tree (build/bin/lodestone) works without an install.
#pragma once

#include <filesystem>
#include <string>
#include <variant>

namespace lodestone::cli {

struct SubroutineBuildPaths {
  std::filesystem::path includeDir;  // holds msolvsub_c_include.h and lodestone/usersub.h
  std::filesystem::path libDir;      // holds liblodestone_usersub.so
};

// From the executable `lodestone` (a path or a link to it, such as /proc/self/exe): an install, <prefix>/bin/lodestone
// beside <prefix>/include and <prefix>/lib; else the build tree it was built in, build/bin/lodestone beside build/lib
// with the headers in the source tree. Why not, when neither has the headers and the library.
std::variant<SubroutineBuildPaths, std::string> findSubroutineBuildPaths(const std::filesystem::path& executable);

// "-I<include>"
std::string compileFlags(const SubroutineBuildPaths& paths);
// "-L<lib> -Wl,-rpath,<lib> -llodestone_usersub": the run path lets the library find liblodestone_usersub wherever
// it is loaded from, without LD_LIBRARY_PATH.
std::string linkFlags(const SubroutineBuildPaths& paths);

}  // namespace lodestone::cli
