# cmake/install.cmake — the package files a downstream project uses, installed next to the
# libraries (whose install rules are in src/CMakeLists.txt) and the tools (tools/*/):
#   <libdir>/cmake/loom/loomConfig.cmake, loomConfigVersion.cmake, loomTargets*.cmake
#   <libdir>/pkgconfig/loom.pc, loom-cxx.pc, and loom-fort.pc with the Fortran bindings
# Included once from the top-level CMakeLists.txt, after every target exists.
include(CMakePackageConfigHelpers)

set(LOOM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/loom)
install(EXPORT loomTargets NAMESPACE loom:: DESTINATION ${LOOM_CMAKE_DIR})
# What the config file says of the optional parts: the plugin's file name (empty without it)
# and whether the Fortran bindings are installed.
set(LOOM_CONFIG_PLUGIN "")
if(LOOM_PRIVATIZE_PLUGIN)
  set(LOOM_CONFIG_PLUGIN "loom_privatize.so")
endif()
if(LOOM_FORTRAN)
  set(LOOM_CONFIG_FORTRAN ON)
else()
  set(LOOM_CONFIG_FORTRAN OFF)
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/loomConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/loomConfig.cmake INSTALL_DESTINATION ${LOOM_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
# 0.x: a minor release may change the interface, so only the same major.minor matches.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/loomConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/loomConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/loomConfigVersion.cmake
        DESTINATION ${LOOM_CMAKE_DIR})

# The Fortran bindings (docs/fortran.md): mpif.h, the files it and the modules were made
# from, mpi.mod and mpi_f08.mod, beside mpi.h (gfortran finds all of them with -I).
if(LOOM_FORTRAN)
  install(FILES ${LOOM_FORTRAN_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()

# The .pc files name absolute paths, so they are written at install time, when the prefix is
# known (`cmake --install build --prefix P` changes it after configuration):
# cmake/install_pc.cmake runs inside the install script, with the values of this build set
# just before it.
set(loom_pc_names loom loom-cxx)
if(LOOM_FORTRAN)
  list(APPEND loom_pc_names loom-fort)
endif()
install(CODE "
  set(LOOM_PC_TEMPLATE_DIR \"${CMAKE_CURRENT_LIST_DIR}\")
  set(LOOM_PC_OUTPUT_DIR \"${PROJECT_BINARY_DIR}/cmake\")
  set(LOOM_PC_NAMES \"${loom_pc_names}\")
  set(LOOM_PC_PLUGIN \"${LOOM_CONFIG_PLUGIN}\")
  set(LOOM_PC_INCDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(LOOM_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(LOOM_PC_VERSION \"${PROJECT_VERSION}\")")
install(SCRIPT ${CMAKE_CURRENT_LIST_DIR}/install_pc.cmake)
