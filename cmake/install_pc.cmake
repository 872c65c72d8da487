# cmake/install_pc.cmake — runs inside `cmake --install` (see cmake/install.cmake): writes
# loom.pc, loom-cxx.pc and (with the Fortran bindings) loom-fort.pc for the prefix being
# installed to and installs them under <libdir>/pkgconfig.
# Inputs, set by the install script: LOOM_PC_TEMPLATE_DIR, LOOM_PC_OUTPUT_DIR, LOOM_PC_NAMES,
# LOOM_PC_INCDIR, LOOM_PC_LIBDIR (relative to the prefix, or absolute), LOOM_PC_PLUGIN (the
# plugin's file name under <libdir>/loom, or empty), LOOM_PC_VERSION, CMAKE_INSTALL_PREFIX.
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
set(LOOM_PC_PRIVATIZE "")
if(LOOM_PC_PLUGIN)
  set(LOOM_PC_PRIVATIZE "-fplugin=\${libdir}/loom/${LOOM_PC_PLUGIN} -fplugin-arg-loom_privatize-shared-dir=\${includedir}")
endif()
foreach(name ${LOOM_PC_NAMES})
  configure_file("${LOOM_PC_TEMPLATE_DIR}/${name}.pc.in" "${LOOM_PC_OUTPUT_DIR}/${name}.pc" @ONLY)
  # file(INSTALL) prepends $DESTDIR and records the file in install_manifest.txt.
  file(INSTALL DESTINATION "${abs_LIBDIR}/pkgconfig" TYPE FILE FILES "${LOOM_PC_OUTPUT_DIR}/${name}.pc")
endforeach()
