# C++ and Fortran units privatized by the same plugin (docs/privatize.md), included by
# CMakeLists.txt once the plugin is known to be built: loomcc with LOOMCC_CC set to g++ and to
# gfortran. The plugin loads only into the GCC it was built for, so each must be that version
# (the C compiler's); otherwise its tests report SKIPPED with the reason.

# loom_priv_gcc_driver(VAR NAME): VAR = the GCC driver NAME (g++, gfortran) of the C
# compiler's version, or empty; VAR_why says why not.
function(loom_priv_gcc_driver var name)
  string(REGEX MATCH "^[0-9]+" major "${CMAKE_C_COMPILER_VERSION}")
  get_filename_component(cc_dir ${CMAKE_C_COMPILER} DIRECTORY)
  string(MAKE_C_IDENTIFIER "LOOM_PRIV_${name}" cache) # LOOM_PRIV_g__, LOOM_PRIV_gfortran
  find_program(${cache} NAMES ${name}-${major} ${name} HINTS ${cc_dir})
  set(driver ${${cache}})
  set(${var} "" PARENT_SCOPE)
  if(NOT driver)
    set(${var}_why "no ${name} found (Debian: apt-get install ${name}-${major})" PARENT_SCOPE)
    return()
  endif()
  execute_process(COMMAND ${driver} -dumpfullversion OUTPUT_VARIABLE v
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT v VERSION_EQUAL CMAKE_C_COMPILER_VERSION)
    set(${var}_why "${driver} is GCC ${v}, the plugin is built for ${CMAKE_C_COMPILER_VERSION}"
        PARENT_SCOPE)
    return()
  endif()
  set(${var} ${driver} PARENT_SCOPE)
endfunction()

loom_priv_gcc_driver(cxx_driver g++)
loom_priv_gcc_driver(fc_driver gfortran)
set(priv_cxx ${CMAKE_COMMAND} -E env LOOMCC_CC=${cxx_driver} ${LOOMCC})
set(priv_fc ${CMAKE_COMMAND} -E env LOOMCC_CC=${fc_driver} ${LOOMCC})
set(priv_deps ${LOOMCC} ${LOOM_PRIVATIZE_PLUGIN} ${PROJECT_SOURCE_DIR}/include/mpi.h loom_bindings
    ${CMAKE_CURRENT_SOURCE_DIR}/own_address.h ${PROJECT_SOURCE_DIR}/tests/support/check.h)

# loom_priv_build(OBJECT SOURCE COMPILER... FLAGS flags...): SOURCE -> OBJECT with the given
# loomcc command line (priv_cc, priv_cxx or priv_fc).
function(loom_priv_build obj src)
  cmake_parse_arguments(A "" "" "COMPILER;FLAGS;DEPENDS" ${ARGN})
  add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${obj}
    COMMAND ${A_COMPILER} ${priv_cflags} ${A_FLAGS} -c ${CMAKE_CURRENT_SOURCE_DIR}/${src}
            -o ${CMAKE_CURRENT_BINARY_DIR}/${obj}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${src} ${priv_deps} ${A_DEPENDS}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} COMMENT "loomcc ${src}" VERBATIM)
endfunction()

# loom_priv_link(NAME COMPILER... OBJECTS objects...)
function(loom_priv_link name)
  cmake_parse_arguments(A "" "" "COMPILER;OBJECTS" ${ARGN})
  set(objs)
  foreach(o ${A_OBJECTS})
    list(APPEND objs ${CMAKE_CURRENT_BINARY_DIR}/${o})
  endforeach()
  add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${name}
    COMMAND ${A_COMPILER} ${priv_cflags} -o ${CMAKE_CURRENT_BINARY_DIR}/${name} ${objs}
    DEPENDS ${objs} loom loom_main COMMENT "loomcc -o ${name}" VERBATIM)
  set(priv_outputs ${priv_outputs} ${CMAKE_CURRENT_BINARY_DIR}/${name} PARENT_SCOPE)
endfunction()

set(cxx_tests cxx.np1 cxx.np2 cxx.np4 cxx.np8 cxx_exit.np1 cxx_exit.np4 cxx_O0.np4
    cxx_threads.np1 cxx_threads.np2 cxx_threads.np4 bad_shared_ctor bad_shared_ctor_names_all)
if(NOT cxx_driver)
  foreach(t ${cxx_tests})
    add_test(NAME privatize_${t}
             COMMAND sh -c "echo 'SKIPPED: C++ units cannot be privatized here: ${cxx_driver_why}'; exit 77")
    set_tests_properties(privatize_${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS "privatize")
  endforeach()
else()
  # C++: every kind of variable across two units, the second built with -Wall -Wextra -Werror
  # (a C++ unit gets no warning from the plugin); the constructions and destructions counted.
  loom_priv_build(cxx.o cxx.cc COMPILER ${priv_cxx} FLAGS -std=c++17
                  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cxx.h)
  loom_priv_build(cxx_other.o cxx_other.cc COMPILER ${priv_cxx}
                  FLAGS -std=c++17 -Wall -Wextra -Werror DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cxx.h)
  loom_priv_link(priv_cxx COMPILER ${priv_cxx} OBJECTS cxx.o cxx_other.o)
  loom_priv_test(cxx priv_cxx EXPECT_STDOUT "each read their own values")
  # std::threads of a rank share its globals, and build its function-local static once.
  loom_priv_build(cxx_threads.o cxx_threads.cc COMPILER ${priv_cxx} FLAGS -std=c++17)
  loom_priv_link(priv_cxx_threads COMPILER ${priv_cxx} OBJECTS cxx_threads.o)
  loom_priv_test(cxx_threads priv_cxx_threads NP 1 2 4 LABELS thread
                 EXPECT_STDOUT "share their rank's globals")

  # The ranks end with exit() (after MPI_Finalize): their destructors run all the same.
  loom_priv_build(cxx_exit.o cxx.cc COMPILER ${priv_cxx} FLAGS -std=c++17 -DEND_WITH_EXIT
                  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cxx.h)
  loom_priv_link(priv_cxx_exit COMPILER ${priv_cxx} OBJECTS cxx_exit.o cxx_other.o)
  loom_priv_test(cxx_exit priv_cxx_exit NP 1 4 EXPECT_STDOUT "constructions and destructions")
  # The same at -O0.
  loom_priv_build(cxx_O0.o cxx.cc COMPILER ${priv_cxx} FLAGS -std=c++17 -O0
                  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cxx.h)
  loom_priv_build(cxx_other_O0.o cxx_other.cc COMPILER ${priv_cxx} FLAGS -std=c++17 -O0
                  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cxx.h)
  loom_priv_link(priv_cxx_O0 COMPILER ${priv_cxx} OBJECTS cxx_O0.o cxx_other_O0.o)
  loom_priv_test(cxx_O0 priv_cxx_O0 NP 4 EXPECT_STDOUT "each read their own values")
  # A shared variable the per-rank static initialization would initialize: an error names it.
  add_test(NAME privatize_bad_shared_ctor
           COMMAND sh ${LOOM_EXPECT} 1 ""
                   "shared variable .Limits::width. is initialized at run time"
                   ${priv_cxx} -c ${CMAKE_CURRENT_SOURCE_DIR}/bad_shared_ctor.cc -o /dev/null)
  add_test(NAME privatize_bad_shared_ctor_names_all
           COMMAND sh ${LOOM_EXPECT} 1 ""
                   "shared variable .shared_name. is initialized at run time"
                   ${priv_cxx} -c ${CMAKE_CURRENT_SOURCE_DIR}/bad_shared_ctor.cc -o /dev/null)
  set_tests_properties(privatize_bad_shared_ctor privatize_bad_shared_ctor_names_all PROPERTIES
                       LABELS "privatize" TIMEOUT ${LOOM_TEST_TIMEOUT})
endif()

# loom_f_* variables (loom's Fortran bindings) stay shared, in C as in Fortran.
add_test(NAME privatize_loom_f_shared_c
         COMMAND sh ${LOOM_EXPECT} 0 ""
                 "loom_f_c_sentinel.* stays shared: a variable of loom.s Fortran bindings"
                 ${priv_cc} -fplugin-arg-loom_privatize-verbose -c
                 ${CMAKE_CURRENT_SOURCE_DIR}/loom_f_shared.c -o /dev/null)
set_tests_properties(privatize_loom_f_shared_c PROPERTIES LABELS "privatize"
                     TIMEOUT ${LOOM_TEST_TIMEOUT})

# Fortran: a COMMON block, module variables, SAVE and DATA locals, the main program's
# variables, across two units; gfortran's main is the rank's. MPI through a C shim
# (fortran_shim.c).
set(fortran_tests fortran.np1 fortran.np2 fortran.np4 loom_f_shared_fortran)
if(NOT fc_driver)
  foreach(t ${fortran_tests})
    add_test(NAME privatize_${t}
             COMMAND sh -c "echo 'SKIPPED: Fortran units cannot be privatized here: ${fc_driver_why}'; exit 77")
    set_tests_properties(privatize_${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS "privatize")
  endforeach()
else()
  # fortran_mod.f90 writes fmod2.mod, which fortran.F90 reads (both in the build folder).
  loom_priv_build(fortran_mod.o fortran_mod.f90 COMPILER ${priv_fc})
  loom_priv_build(fortran.o fortran.F90 COMPILER ${priv_fc}
                  DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/fortran_mod.o)
  loom_priv_build(fortran_shim.o fortran_shim.c COMPILER ${priv_cc})
  loom_priv_link(priv_fortran COMPILER ${priv_fc}
                 OBJECTS fortran.o fortran_mod.o fortran_shim.o)
  loom_priv_test(fortran priv_fortran NP 1 2 4 EXPECT_STDOUT "each read their own values")
  loom_fortran_runtime(privatize_fortran.np1 privatize_fortran.np2 privatize_fortran.np4)
  add_test(NAME privatize_loom_f_shared_fortran
           COMMAND sh ${LOOM_EXPECT} 0 ""
                   "loom_f_x.* stays shared: a variable of loom.s Fortran bindings"
                   ${priv_fc} -fplugin-arg-loom_privatize-verbose -c
                   ${CMAKE_CURRENT_SOURCE_DIR}/fortran.F90 -o /dev/null)
  set_tests_properties(privatize_loom_f_shared_fortran PROPERTIES LABELS "privatize"
                       TIMEOUT ${LOOM_TEST_TIMEOUT})
endif()
