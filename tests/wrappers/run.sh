#!/bin/sh
# tests/wrappers/run.sh STEP — one test of the MPI wrappers (registered by
# tests/wrappers/CMakeLists.txt, which sets the LOOMWR_* variables: source and build folders, a
# scratch folder, the C compiler, cmake, its generator, sanitizer flags, whether loom has its
# Fortran bindings and its plugin, the prefix tests/install installs to).
#   flags      mpicc, mpicxx, mpic++, mpifort, mpif90, mpif77: -show, -compile_info,
#              -link_info, -showme:compile/link, -show-compile-info; the compiler each runs
#              (-cc=, MPICH_CC, LOOMCC_CC, defaults) and which wins; -fno-privatize, -shared,
#              -v, -help, the error for the Fortran names without Fortran bindings
#   mpiexec    mpiexec/mpirun -n and -np, ignored options, -x/-env, -host, unknown options
#              refused, the job's exit status passed on, --version and -help
#   sharedlib  a library built with mpicc -fPIC -shared: its global is per rank under mpiexec
#              -n 4 (and is a TLS symbol in the library)
#   strict     a C and a C++ program including mpi.h, -Wall -Wextra -Werror -pedantic through
#              mpicc and mpicxx; they run with 3 ranks
#   fortran    a Fortran program through mpifort runs with 4 ranks (SKIPPED without bindings)
#   findmpi    a CMake project with find_package(MPI COMPONENTS C CXX [Fortran]), loom's
#              wrappers first in PATH and a plain compiler: it finds them, builds, and its
#              programs run under the mpiexec it found with 4 ranks (through ctest); Fortran
#              when loom has the bindings and mpifort renames a Fortran main
#   autotools  configure.ac + Makefile.am: autoreconf -i, CC=mpicc ./configure, make; the
#              program runs with mpiexec -n 4
#   installed  the installed tree: every wrapper name, the installed mpicc's flags name the
#              prefix, mpicxx and mpiexec work from there, pkg-config loom-cxx
# Prints what it runs; on failure says what it got and what it expected; exits nonzero
# (77: skipped, with the reason).
set -eu

step=${1:?usage: run.sh STEP}
src=$LOOMWR_SRC/tests/wrappers
bin=$LOOMWR_BUILD/bin
work=$LOOMWR_WORK/$step
san=${LOOMWR_SANFLAGS:-}
rm -rf "$work"
mkdir -p "$work"
cd "$work"
# Nothing from the caller's environment picks another compiler or MPI.
unset MPICH_CC MPICH_CXX MPICH_FC MPICH_F90 MPICH_F77 LOOMCC_CC LOOMCC_CXX LOOMCC_FC \
  LOOM_WRAPPER_ACTIVE MPI_HOME MPI_ROOT LOOM_NP 2>/dev/null || true
. "$LOOMWR_SRC/tests/support/script_lib.sh" # q, fail, skip, run, expect_ranks

# has WHAT TEXT WANT...: TEXT contains every WANT.
has() {
  what=$1 text=$2
  shift 2
  for want do
    case $text in *"$want"*) ;; *) fail "$what printed '$text', expected it to contain '$want'" ;; esac
  done
}
# hasnt WHAT TEXT NOT...: TEXT contains none of NOT.
hasnt() {
  what=$1 text=$2
  shift 2
  for no do
    case $text in *"$no"*) fail "$what printed '$text', expected no '$no'" ;; esac
  done
}
# starts WHAT TEXT PREFIX: TEXT starts with PREFIX.
starts() {
  case $2 in
    "$3"*) ;;
    *) fail "$1 printed '$2', expected it to start with '$3'" ;;
  esac
}
# The C compiler loom was built with, with its sanitizer: what the programs here are built by.
cc_san="$LOOMWR_CC${san:+ $san}"
need_cxx() {
  command -v c++ >/dev/null 2>&1 || skip "no C++ compiler (c++) on this machine"
}
inc=$(q "-I$LOOMWR_BUILD/include")

case $step in
flags)
  # The C names: the whole command, with and without linking.
  for w in loomcc mpicc; do
    out=$("$bin/$w" -show -o 'my prog' a.c)
    has "$w -show" "$out" "cc $inc " " -o 'my prog' a.c " " -lloom-main -lloom -lpthread" "-Wl,-rpath,"
    starts "$w -show" "$out" "cc "
  done
  # -compile_info and -link_info of each C and C++ name: its compiler, -I, the libraries.
  for w in mpicc:cc mpicxx:c++ mpic++:c++; do
    out=$("$bin/${w%%:*}" -compile_info)
    starts "${w%%:*} -compile_info" "$out" "${w#*:} $inc"
    hasnt "${w%%:*} -compile_info" "$out" -lloom -L
    out=$("$bin/${w%%:*}" -link_info)
    starts "${w%%:*} -link_info" "$out" "${w#*:} $inc"
    has "${w%%:*} -link_info" "$out" " -L" "-lloom-main -lloom -lpthread"
  done
  out=$("$bin/mpicc" -compile-info -O2 x.c)
  has "mpicc -compile-info -O2 x.c" "$out" " -O2 x.c"
  hasnt "mpicc -compile-info -O2 x.c" "$out" -lloom
  out=$("$bin/mpicc" -link_info)
  has "mpicc -link_info" "$out" "cc $inc" "-lloom-main -lloom -lpthread"
  out=$("$bin/mpicc" -showme:compile)
  has "mpicc -showme:compile" "$out" "$inc"
  starts "mpicc -showme:compile (only flags)" "$out" "$inc"
  hasnt "mpicc -showme:compile" "$out" -lloom
  for o in -show-compile-info --showme:compile; do
    [ "$("$bin/mpicc" $o)" = "$out" ] || fail "mpicc $o differs from -showme:compile"
  done
  out=$("$bin/mpicc" -showme:link)
  libdir=$("$bin/mpicc" -showme:libdirs)
  [ -f "$libdir/libloom.so" ] && [ -f "$libdir/libloom-main.a" ] ||
    fail "mpicc -showme:libdirs printed '$libdir', which holds no libloom.so and libloom-main.a"
  has "mpicc -showme:link" "$out" "-lloom-main -lloom -lpthread" "$(q "-L$libdir")"
  starts "mpicc -showme:link (only flags)" "$out" "$(q "-L$libdir")"
  [ "$("$bin/mpicc" -show-link-info)" = "$out" ] ||
    fail "mpicc -show-link-info differs from -showme:link"
  [ "$("$bin/mpicc" -showme:incdirs)" = "$(q "$LOOMWR_BUILD/include")" ] || fail "mpicc -showme:incdirs"
  out=$("$bin/mpicc" -showme:libs)
  [ "$out" = "loom-main loom pthread" ] || fail "mpicc -showme:libs printed '$out'"
  for flag in -c -S -E -M -MM -fsyntax-only; do
    out=$("$bin/mpicc" -show $flag a.c)
    hasnt "mpicc -show $flag" "$out" -lloom -rpath
    has "mpicc -show $flag" "$out" "$inc"
  done
  # A library: no loom main.
  out=$("$bin/mpicc" -show -fPIC -shared -o libx.so x.c)
  has "mpicc -show -shared" "$out" " -lloom -lpthread"
  hasnt "mpicc -show -shared" "$out" -lloom-main

  # The plugin: on by default, off with -fno-privatize, and the -show family says so.
  if [ -n "${LOOMWR_PLUGIN:-}" ]; then
    for w in mpicc mpicxx mpic++; do
      has "$w -show" "$("$bin/$w" -show a.c)" "-fplugin=" "-fplugin-arg-loom_privatize-shared-dir="
      has "$w -showme:compile" "$("$bin/$w" -showme:compile)" "-fplugin="
    done
  fi
  for w in mpicc mpicxx; do
    hasnt "$w -fno-privatize -show" "$("$bin/$w" -fno-privatize -show a.c)" -fplugin
    hasnt "$w -fno-privatize -showme:compile" "$("$bin/$w" -fno-privatize -showme:compile)" -fplugin
  done

  # Which compiler: -cc= over MPICH_CC over LOOMCC_CC over cc.
  out=$(LOOMCC_CC="lcc -O1" "$bin/mpicc" -show a.c)
  starts "LOOMCC_CC='lcc -O1' mpicc -show" "$out" "lcc -O1 $inc "
  out=$(MPICH_CC=mcc LOOMCC_CC=lcc "$bin/mpicc" -show a.c)
  starts "MPICH_CC=mcc LOOMCC_CC=lcc mpicc -show" "$out" "mcc $inc "
  out=$(MPICH_CC=mcc LOOMCC_CC=lcc "$bin/mpicc" -cc=xcc -show a.c)
  starts "mpicc -cc=xcc" "$out" "xcc $inc "
  out=$(MPICH_CC=mcc "$bin/loomcc" -show a.c)
  starts "MPICH_CC=mcc loomcc -show" "$out" "mcc "
  # C++: c++ by default, MPICH_CXX over LOOMCC_CXX, -cxx= over both; the C variables do not
  # reach it.
  for w in mpicxx mpic++; do
    out=$(MPICH_CC=mcc LOOMCC_CC=lcc "$bin/$w" -show a.cpp)
    starts "$w -show" "$out" "c++ $inc "
    has "$w -show" "$out" "-lloom-main -lloom -lpthread"
    out=$(LOOMCC_CXX=lxx "$bin/$w" -show a.cpp)
    starts "LOOMCC_CXX=lxx $w -show" "$out" "lxx "
    out=$(MPICH_CXX=mxx LOOMCC_CXX=lxx "$bin/$w" -show a.cpp)
    starts "MPICH_CXX=mxx LOOMCC_CXX=lxx $w -show" "$out" "mxx "
    out=$(MPICH_CXX=mxx "$bin/$w" -cxx=xxx -show a.cpp)
    starts "$w -cxx=xxx -show" "$out" "xxx "
  done
  # A wrapper's compiler option belongs to its language.
  if err=$("$bin/mpicc" -cxx=g++ -show a.c 2>&1); then fail "mpicc -cxx=g++ was accepted"; fi
  has "mpicc -cxx=g++" "$err" "mpicc: '-cxx=g++' is for mpicxx"
  # The Fortran names: the Fortran compiler and libloom-fortran, or a one-line refusal. The
  # flags are checked on the real wrappers when loom has Fortran bindings, else on a copy that
  # believes it has (the names' logic is the same).
  fbin=$bin
  if [ "$LOOMWR_FORTRAN" != 1 ]; then
    for w in mpifort mpif90 mpif77; do
      if err=$("$bin/$w" -show a.f90 2>&1); then
        fail "$w -show worked without Fortran bindings: '$err'"
      fi
      want="loom was built without Fortran bindings (no mpif.h, mpi module or libloom-fortran)"
      [ "$err" = "$w: $want" ] ||
        fail "$w without Fortran bindings said '$err'"
    done
    fbin=$work/fbin
    mkdir -p "$fbin"
    sed 's/^loom_fortran=0$/loom_fortran=1/' "$bin/loomcc" >"$fbin/loomcc"
    chmod +x "$fbin/loomcc"
    for w in mpifort mpif90 mpif77; do ln -s loomcc "$fbin/$w"; done
  fi
  for w in mpifort mpif90 mpif77; do
    out=$(MPICH_CC=mcc MPICH_CXX=mxx "$fbin/$w" -show a.f90)
    starts "$w -show" "$out" "gfortran $inc -fallow-argument-mismatch "
    has "$w -show" "$out" "-lloom-fortran -lloom-main -lloom -lpthread"
    out=$("$fbin/$w" -show -shared -o libf.so a.f90)
    has "$w -show -shared" "$out" "-lloom-fortran -lloom -lpthread"
    hasnt "$w -show -shared" "$out" "-lloom-main"
    [ "$("$fbin/$w" -showme:libs)" = "loom-fortran loom-main loom pthread" ] ||
      fail "$w -showme:libs printed '$("$fbin/$w" -showme:libs)'"
    out=$(LOOMCC_FC=lfc "$fbin/$w" -show a.f90)
    starts "LOOMCC_FC=lfc $w -show" "$out" "lfc "
    hasnt "LOOMCC_FC=lfc $w -show" "$out" "-fallow-argument-mismatch" # gfortran's flag only
    out=$(MPICH_F90=m90 LOOMCC_FC=lfc "$fbin/$w" -show a.f90)
    starts "MPICH_F90=m90 $w -show" "$out" "m90 "
    out=$(MPICH_FC=mfc MPICH_F90=m90 "$fbin/$w" -show a.f90)
    starts "MPICH_FC=mfc $w -show" "$out" "mfc "
    out=$(MPICH_FC=mfc "$fbin/$w" -fc=xfc -show a.f90)
    starts "$w -fc=xfc -show" "$out" "xfc "
    if [ -n "${LOOMWR_PLUGIN:-}" ]; then
      has "$w -show" "$("$fbin/$w" -show a.f90)" "-fplugin="
    fi
    hasnt "$w -fno-privatize -show" "$("$fbin/$w" -fno-privatize -show a.f90)" -fplugin
  done

  # -v: the wrapper's line, then the compiler's own -v; --version is the compiler's.
  out=$("$bin/mpicc" -v 2>&1)
  has "mpicc -v" "$out" "mpicc for loom version " "gcc version"
  out=$("$bin/mpicxx" -v 2>&1)
  has "mpicxx -v" "$out" "mpicxx for loom version "
  out=$("$bin/mpicc" --version)
  [ "$out" = "$(cc --version)" ] ||
    fail "mpicc --version printed '$out', expected what cc --version prints"
  has "mpicc -showme:version" "$("$bin/mpicc" -showme:version)" "loom "
  "$bin/mpicc" -help | grep -q '^usage: mpicc' || fail "mpicc -help printed no usage line"
  "$bin/mpicxx" --help | grep -q 'C++ MPI programs' || fail "mpicxx --help does not speak of C++"
  # No arguments, or a wrapper named as its own compiler: one line and a failure.
  if err=$("$bin/mpicc" 2>&1); then fail "mpicc without arguments succeeded"; fi
  has "mpicc without arguments" "$err" "mpicc: no arguments"
  if err=$(MPICH_CC="$bin/mpicc" "$bin/mpicc" -c a.c 2>&1); then
    fail "MPICH_CC=mpicc mpicc succeeded"
  fi
  has "MPICH_CC=mpicc mpicc" "$err" "the compiler variable names a wrapper itself"
  # -show never runs the compiler.
  MPICH_CC=/nonexistent/cc "$bin/mpicc" -show a.c >/dev/null || fail "mpicc -show ran the compiler"
  ;;

mpiexec)
  run env MPICH_CC="$cc_san" "$bin/mpicc" -o ranks "$src/ranks.c"
  for launcher in mpiexec mpirun; do
    for n in -n -np; do
      run "$bin/$launcher" $n 4 ./ranks >out.txt || fail "$launcher $n 4 ./ranks exited with status $?"
      expect_ranks out.txt 4 wrapped
    done
  done
  # Options that build systems and test drivers pass, accepted and ignored; -- ends the options.
  run "$bin/mpiexec" --oversubscribe --allow-run-as-root -host localhost -np 3 -- ./ranks >out.txt ||
    fail "mpiexec with ignored options exited with status $?"
  expect_ranks out.txt 3 wrapped
  # loomrun's own options pass through.
  run "$bin/mpiexec" -n 2 --bind-to compact --topology "package:1 core:4 pu:1" ./ranks >out.txt ||
    fail "mpiexec --bind-to --topology exited with status $?"
  expect_ranks out.txt 2 wrapped
  # Environment for the program: Open MPI's -x, MPICH's -env.
  run "$bin/mpiexec" -x LOOMWR_X=forty-two -n 1 ./ranks 0 LOOMWR_X >out.txt
  grep -qx 'LOOMWR_X=forty-two' out.txt || fail "mpiexec -x did not set LOOMWR_X: $(cat out.txt)"
  run "$bin/mpirun" -env LOOMWR_Y 'a b' -n 1 ./ranks 0 LOOMWR_Y >out.txt
  grep -qx 'LOOMWR_Y=a b' out.txt || fail "mpirun -env did not set LOOMWR_Y: $(cat out.txt)"
  # The job's exit status is the program's.
  set +e
  "$bin/mpiexec" -n 4 ./ranks 3 >out.txt
  st=$?
  set -e
  [ $st = 3 ] || fail "mpiexec -n 4 ./ranks 3 exited with status $st, expected 3"
  expect_ranks out.txt 4 wrapped
  # Refusals: one line naming the option, status 2, the program not run.
  for bad in "--map-by core" "-ppn 2" "-n" "-n 0" "-np x" "-host elsewhere.example" "-x 1BAD"; do
    # shellcheck disable=SC2086
    if err=$("$bin/mpiexec" $bad ./ranks 2>&1); then
      fail "mpiexec $bad ./ranks was accepted"
    else
      st=$?
    fi
    [ $st = 2 ] || fail "mpiexec $bad ./ranks exited with $st, expected 2"
    case $err in "mpiexec: "*) ;; *) fail "mpiexec $bad said '$err', expected 'mpiexec: ...'" ;; esac
    case $err in *wrapped*) fail "mpiexec $bad ran the program: $err" ;; esac
  done
  err=$("$bin/mpiexec" --map-by core ./ranks 2>&1) || true
  [ "$err" = "mpiexec: unknown option '--map-by' (mpiexec --help lists the options)" ] ||
    fail "mpiexec --map-by said '$err'"
  if err=$("$bin/mpiexec" -n 2 2>&1); then fail "mpiexec without a program succeeded"; fi
  has "mpiexec without a program" "$err" "mpiexec: no program given"
  # What CMake and test drivers ask.
  out=$("$bin/mpiexec" --version)
  has "mpiexec --version" "$out" "mpiexec (loom) " "MPI 4.1"
  has "mpirun -V" "$("$bin/mpirun" -V)" "mpirun (loom) "
  "$bin/mpiexec" -help | grep -q '^usage: mpiexec ' || fail "mpiexec -help printed no usage line"
  "$bin/mpirun" --help | grep -q -- '-np' || fail "mpirun --help does not list -np"
  ;;

sharedlib)
  [ -n "${LOOMWR_PLUGIN:-}" ] || skip "loom was built without its privatization plugin"
  run env MPICH_CC="$cc_san" "$bin/mpicc" -O2 -fPIC -shared -o libglob.so "$src/libglob.c"
  run env MPICH_CC="$cc_san" "$bin/mpicc" -O2 -o useglob "$src/useglob.c" -L. -lglob \
    "-Wl,-rpath,$work"
  # What tells a library compiled by loom's wrappers (docs/wrappers.md): its globals are TLS
  # symbols, reached through loom_privatize_delta.
  readelf -sW libglob.so | grep -E 'TLS +GLOBAL .* glob_value$' >/dev/null ||
    fail "glob_value is not a TLS symbol of libglob.so: $(readelf -sW libglob.so | grep glob_value)"
  nm -D libglob.so | grep -E ' U loom_privatize_delta$' >/dev/null ||
    fail "libglob.so does not use loom_privatize_delta"
  run "$bin/mpiexec" -n 4 ./useglob >out.txt || fail "useglob exited with status $?: $(cat out.txt)"
  cat out.txt
  grep -qx "the library's global is per rank in 4 ranks" out.txt || fail "no success line"
  # The same library built by a plain compiler: the program (which reaches the global as
  # thread-local) fails, so the test can tell. It may die of a signal, which the sanitizers'
  # handlers are not checked with: plain builds only.
  if [ -z "$san" ]; then
    run "$LOOMWR_CC" -O2 -fPIC -shared -o libglob.so "$src/libglob.c"
    if "$bin/mpiexec" -n 4 ./useglob >out.txt 2>&1; then
      fail "useglob passed with a library compiled without the plugin: the test cannot tell"
    fi
  fi
  ;;

strict)
  need_cxx
  run env MPICH_CC="$cc_san" "$bin/mpicc" -std=c11 -Wall -Wextra -Werror -pedantic -o strict_c \
    "$src/strict.c"
  # With the privatization plugin (the default): neither mpi.h nor the plugin may warn.
  run env MPICH_CXX="c++${san:+ $san}" "$bin/mpicxx" -std=c++17 -Wall -Wextra \
    -Werror -pedantic -o strict_cxx "$src/strict.cpp"
  run "$bin/mpiexec" -n 3 ./strict_c >out.txt || fail "strict_c exited with status $?"
  expect_ranks out.txt 3 "strict c"
  run "$bin/mpiexec" -n 3 ./strict_cxx >out.txt || fail "strict_cxx exited with status $?"
  expect_ranks out.txt 3 "strict c++"
  ;;

fortran)
  [ "$LOOMWR_FORTRAN" = 1 ] || skip "loom was built without Fortran bindings (LOOM_FORTRAN off)"
  command -v gfortran >/dev/null 2>&1 || skip "no gfortran on this machine"
  run env MPICH_FC="gfortran${san:+ $san}" "$bin/mpifort" -c -o ranks_f.o "$src/ranks.f90"
  run env MPICH_FC="gfortran${san:+ $san}" "$bin/mpifort" -o ranks_f ranks_f.o
  run "$bin/mpiexec" -n 4 ./ranks_f >out.txt || fail "ranks_f exited with status $?"
  expect_ranks out.txt 4 fortran
  ;;

findmpi)
  need_cxx
  proj=$work/project
  langs="C;CXX"
  # Fortran too with the bindings, once mpifort's plugin makes a Fortran main program loom's
  # rank main (FindMPI's targets cannot rename it otherwise).
  if [ "$LOOMWR_FORTRAN" = 1 ]; then
    printf 'program probe\nend program probe\n' >probe.f90
    if "$bin/mpifort" -c -o probe.o probe.f90 >probe.log 2>&1 &&
      nm probe.o | grep -q ' T loom_user_main$'; then
      langs="C;CXX;Fortran"
    else
      echo "note: Fortran left out: mpifort does not make a Fortran main loom's rank main yet"
    fi
  fi
  set -- -S "$src/findmpi" -B "$proj" -G "$LOOMWR_GENERATOR" -DCMAKE_C_COMPILER="$LOOMWR_CC" \
    -DCMAKE_CXX_COMPILER=c++ -DLOOMWR_LANGS="$langs"
  [ -z "$LOOMWR_MAKE" ] || set -- "$@" -DCMAKE_MAKE_PROGRAM="$LOOMWR_MAKE"
  [ -n "${LOOMWR_PLUGIN:-}" ] || set -- "$@" -DCMAKE_C_FLAGS=-DLOOMWR_NO_PLUGIN
  # loom's wrappers first in PATH, as a user who installed loom has them.
  PATH=$bin:$PATH
  export PATH
  run "$LOOMWR_CMAKE" "$@" >configure.log 2>&1 || { cat configure.log; fail "configure failed"; }
  cat "$proj/found.txt"
  grep -qx "MPI_C_COMPILER=$bin/mpicc" "$proj/found.txt" || fail "FindMPI did not find loom's mpicc"
  grep -qx "MPI_CXX_COMPILER=$bin/mpicxx" "$proj/found.txt" || fail "FindMPI did not find loom's mpicxx"
  grep -qx "MPIEXEC_EXECUTABLE=$bin/mpiexec" "$proj/found.txt" ||
    fail "FindMPI did not find loom's mpiexec"
  grep -qx "MPI_C_VERSION=4.1" "$proj/found.txt" || fail "FindMPI did not read MPI 4.1 from mpi.h"
  run "$LOOMWR_CMAKE" --build "$proj" >build.log 2>&1 || { cat build.log; fail "build failed"; }
  (cd "$proj" && run ctest --output-on-failure) || fail "the project's tests failed"
  expect_ranks "$proj/app_c.out" 4 findmpi-c
  expect_ranks "$proj/app_cxx.out" 4 findmpi-c++
  case $langs in *Fortran) expect_ranks "$proj/app_f.out" 4 fortran ;; esac
  ;;

autotools)
  command -v autoreconf >/dev/null 2>&1 && command -v automake >/dev/null 2>&1 ||
    skip "autoconf and automake are not installed (Debian: apt-get install autoconf automake)"
  cp "$src/autotools/configure.ac" "$src/autotools/Makefile.am" "$src/ranks.c" .
  PATH=$bin:$PATH
  export PATH
  [ "$(command -v mpicc)" = "$bin/mpicc" ] || fail "mpicc in PATH is $(command -v mpicc)"
  run autoreconf -i >autoreconf.log 2>&1 || { cat autoreconf.log; fail "autoreconf -i failed"; }
  run env CC=mpicc ./configure >configure.out 2>&1 ||
    { cat configure.out config.log; fail "configure failed"; }
  cat configure.out
  grep -q "checking whether mpicc is loom's mpicc... yes" configure.out ||
    fail "configure did not find loom's mpicc"
  run make >make.log 2>&1 || { cat make.log; fail "make failed"; }
  run mpiexec -n 4 ./ranks >out.txt || fail "ranks exited with status $?"
  expect_ranks out.txt 4 wrapped
  ;;

installed)
  prefix=$LOOMWR_PREFIX
  [ -x "$prefix/bin/loomcc" ] ||
    fail "no installed tree at $prefix (tests/install's install.prefix makes it)"
  for w in mpicc mpicxx mpic++ mpifort mpif90 mpif77 mpiexec mpirun; do
    [ -x "$prefix/bin/$w" ] || fail "$prefix/bin/$w is missing after install"
  done
  lib=$prefix/$LOOMWR_LIBDIR
  # Through its link, the installed mpicc finds the prefix.
  out=$("$prefix/bin/mpicc" -show x.c)
  has "installed mpicc -show" "$out" "$(q "-I$prefix/include") " "$(q "-L$lib") " -lloom-main
  if [ -n "${LOOMWR_PLUGIN:-}" ]; then
    has "installed mpicc -show" "$out" "-fplugin=$lib/loom/loom_privatize.so"
  fi
  out=$("$prefix/bin/mpicxx" -showme:link)
  has "installed mpicxx -showme:link" "$out" "$(q "-L$lib")" "-lloom-main -lloom -lpthread"
  # A C++ program built and run from the installed tree.
  need_cxx
  run env MPICH_CXX="c++${san:+ $san}" "$prefix/bin/mpicxx" -Werror -o strict_cxx \
    "$src/strict.cpp"
  run "$prefix/bin/mpirun" -np 2 ./strict_cxx >out.txt || fail "strict_cxx exited with status $?"
  expect_ranks out.txt 2 "strict c++"
  # pkg-config for C++ users: loom-cxx.
  pc=${LOOMWR_PKG_CONFIG:-pkg-config}
  export PKG_CONFIG_PATH="$lib/pkgconfig"
  flags=$("$pc" --cflags --libs loom-cxx) || fail "pkg-config does not find loom-cxx"
  has "pkg-config --cflags --libs loom-cxx" "$flags" "-I$prefix/include" "-lloom-main -lloom"
  if [ -n "${LOOMWR_PLUGIN:-}" ]; then
    pflags=$("$pc" --variable=privatize_cflags loom)
    has "pkg-config --variable=privatize_cflags loom" "$pflags" "-fplugin=$lib/loom/loom_privatize.so"
  fi
  if [ "$LOOMWR_FORTRAN" = 1 ]; then
    flags=$("$pc" --cflags --libs loom-fort) || fail "pkg-config does not find loom-fort"
    has "pkg-config --cflags --libs loom-fort" "$flags" "-lloom-fortran -lloom-main -lloom"
  elif "$pc" --exists loom-fort; then
    fail "loom-fort.pc is installed, but loom has no Fortran bindings"
  fi
  ;;

*)
  fail "unknown step '$step'"
  ;;
esac
echo "PASS ($step)"
