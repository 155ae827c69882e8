# Modules (solver/core/modules.h): shared libraries that the code loads with dlopen when a process first needs them,
# so that a process that does not never maps the heavy libraries they link (HDF5, VTK, ...). Each is built into lib/
# beside liblodestone_usersub and installed there, Lodestone's library folder, where modules.cpp looks for it; its
# own run path finds liblodestone_usersub there too.
function(lodestone_add_module target)
  add_library(${target} MODULE ${ARGN})
  lodestone_compile_as_module_code(${target})
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
    INSTALL_RPATH "$ORIGIN")
  # Only the module's entry function (LODESTONE_MODULE_ENTRY) is exported: the static libraries linked into it stay
  # inside, so that the module and the process that loads it, which may have the same code built in, never mix them;
  # and every symbol it needs is found when it is linked, not when a run first loads it.
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL -Wl,--no-undefined)
  install(TARGETS ${target} LIBRARY DESTINATION lib COMPONENT solver)
endfunction()

# How a module's code is compiled: the project's headers, and symbols hidden unless marked LODESTONE_MODULE_ENTRY.
# Also for an OBJECT library whose objects a module shares with another target (plugins/CMakeLists.txt).
function(lodestone_compile_as_module_code target)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
  set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
endfunction()
