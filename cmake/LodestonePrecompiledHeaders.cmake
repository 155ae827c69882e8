# Precompiled headers for the library targets with many source files: the standard library and Eigen are parsed once
# per target instead of once per file. scripts/test turns them on for its sanitizer build and scripts/fuzz for the
# fuzz build, the two -O1 builds, where parsing is the larger part of compiling: measured in the Release build they
# took 602 s to 526 s, but there GCC 12 then reports some 30 false -Wstringop-overflow and -Warray-bounds inside
# libstdc++'s char_traits (its system-header silence does not carry through a precompiled header), which would bury a
# real warning; so they are off by default. The test folders, compiled at -Og where GCC reports none of them, always
# precompile these and GoogleTest (tests/CMakeLists.txt). Only system headers: Lodestone's own change too often, and
# each change would rebuild the whole target.
option(LODESTONE_PRECOMPILED_HEADERS "Precompile the standard and Eigen headers per library target" OFF)

set(LODESTONE_PRECOMPILED <algorithm> <array> <cmath> <filesystem> <functional> <map> <memory> <optional> <span>
    <string> <string_view> <utility> <vector> <Eigen/Dense> <Eigen/Geometry>)

# lodestone_precompile_headers(TARGET [HEADER...]): the common headers and any more given. TARGET must be C++ only
# (CMake would precompile them as C for a C file too).
function(lodestone_precompile_headers target)
  if(LODESTONE_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${LODESTONE_PRECOMPILED} ${ARGN})
  endif()
endfunction()
