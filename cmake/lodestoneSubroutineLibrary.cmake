# lodestone_add_subroutine_library(<name> <source>...)
#
# Builds the user-subroutine library <name>.so (CNFSUB, CFFSUB, CONTACTPOST... written in C or C++ against
# msolvsub_c_include.h or lodestone/usersub.h) for Lodestone to load with dlopen. The file is named after the
# target WITHOUT CMake's usual "lib" prefix — lodestone_add_subroutine_library(my_contact ...) gives my_contact.so,
# the name a deck gives in cnf_dll_name="my_contact" — and without a version suffix. Symbols keep the default
# (exported) visibility even in a project that hides them by default, so a CNFSUB written without DLLFUNC is
# still found. Further libraries: target_link_libraries(<name> PRIVATE ...) (keyword form).
function(lodestone_add_subroutine_library name)
  if(ARGC LESS 2)
    message(FATAL_ERROR "lodestone_add_subroutine_library(${name}): no source files given")
  endif()
  if(NOT TARGET lodestone::usersub)
    message(FATAL_ERROR "lodestone_add_subroutine_library: lodestone::usersub is missing (find_package(lodestone) first)")
  endif()
  add_library(${name} SHARED ${ARGN})
  target_link_libraries(${name} PRIVATE lodestone::usersub)
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET default
    CXX_VISIBILITY_PRESET default
    VISIBILITY_INLINES_HIDDEN OFF)
endfunction()
