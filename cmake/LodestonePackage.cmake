# Installation and the `lodestone` CMake package, for users who build their own subroutine libraries:
#   find_package(lodestone REQUIRED)
#   lodestone_add_subroutine_library(my_contact my_contact.c)
# or, without CMake, the flags of lodestone.pc (pkg-config --cflags --libs lodestone).
# Component "usersub": liblodestone_usersub, its headers, the package files and lodestone.pc (all a subroutine
# build needs); component "solver": the lodestone executable (solver/cli), whose `lodestone config --cflags --libs`
# gives lodestone.pc's flags too, and the modules it and the Python package load (cmake/LodestoneModules.cmake). A
# plain `cmake --install` installs both.
include(CMakePackageConfigHelpers)

set(LODESTONE_INSTALL_CMAKEDIR lib/cmake/lodestone)

# The same name in the build tree as from the package, so the build's own subroutine libraries (tests) use the
# same function as users do.
add_library(lodestone::usersub ALIAS lodestone_usersub)
set_target_properties(lodestone_usersub PROPERTIES EXPORT_NAME usersub)
include(${CMAKE_CURRENT_LIST_DIR}/lodestoneSubroutineLibrary.cmake)

install(TARGETS lodestone_usersub EXPORT lodestoneTargets
  LIBRARY DESTINATION lib COMPONENT usersub NAMELINK_COMPONENT usersub
  RUNTIME DESTINATION bin COMPONENT usersub
  INCLUDES DESTINATION include)
install(FILES ${PROJECT_SOURCE_DIR}/plugins/include/msolvsub_c_include.h
  DESTINATION include COMPONENT usersub)
install(FILES ${PROJECT_SOURCE_DIR}/plugins/include/lodestone/usersub.h
              ${PROJECT_SOURCE_DIR}/plugins/include/lodestone/contact_law.h
              ${PROJECT_SOURCE_DIR}/plugins/include/lodestone/analysis_control.h
  DESTINATION include/lodestone COMPONENT usersub)
install(EXPORT lodestoneTargets NAMESPACE lodestone::
  DESTINATION ${LODESTONE_INSTALL_CMAKEDIR} COMPONENT usersub)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/lodestoneConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/lodestoneConfig.cmake
  INSTALL_DESTINATION ${LODESTONE_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the interface, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/lodestoneConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/lodestoneConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/lodestoneConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/lodestoneSubroutineLibrary.cmake
  DESTINATION ${LODESTONE_INSTALL_CMAKEDIR} COMPONENT usersub)

configure_file(${CMAKE_CURRENT_LIST_DIR}/lodestone.pc.in ${PROJECT_BINARY_DIR}/cmake/lodestone.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/lodestone.pc DESTINATION lib/pkgconfig COMPONENT usersub)
