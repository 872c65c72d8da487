# cmake/install_pc.cmake — runs inside `cmake --install` (see cmake/install.cmake): writes
# loom.pc for the prefix being installed to and installs it under <libdir>/pkgconfig.
# Inputs, set by the install script: LOOM_PC_TEMPLATE, LOOM_PC_OUTPUT, LOOM_PC_INCDIR,
# LOOM_PC_LIBDIR (relative to the prefix, or absolute), LOOM_PC_VERSION, CMAKE_INSTALL_PREFIX.
set(prefix "${CMAKE_INSTALL_PREFIX}")
foreach(v INCDIR LIBDIR)
  if(IS_ABSOLUTE "${LOOM_PC_${v}}")
    set(pc_${v} "${LOOM_PC_${v}}")
    set(abs_${v} "${LOOM_PC_${v}}")
  else()
    set(pc_${v} "\${prefix}/${LOOM_PC_${v}}")
    set(abs_${v} "${prefix}/${LOOM_PC_${v}}")
  endif()
endforeach()
# pkg-config reads a space in a value as the end of a flag unless it is escaped ('\ '), and
# prints it escaped, so a shell that evaluates the flags gets the path back whole.
foreach(v prefix pc_INCDIR pc_LIBDIR)
  string(REPLACE " " "\\ " ${v} "${${v}}")
endforeach()
set(LOOM_PC_PREFIX "${prefix}")
set(LOOM_PC_INCLUDEDIR "${pc_INCDIR}")
set(LOOM_PC_LIBDIR "${pc_LIBDIR}")
set(PROJECT_VERSION "${LOOM_PC_VERSION}")
configure_file("${LOOM_PC_TEMPLATE}" "${LOOM_PC_OUTPUT}" @ONLY)
# file(INSTALL) prepends $DESTDIR and records the file in install_manifest.txt.
file(INSTALL DESTINATION "${abs_LIBDIR}/pkgconfig" TYPE FILE FILES "${LOOM_PC_OUTPUT}")
