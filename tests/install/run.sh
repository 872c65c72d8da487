#!/bin/sh
# tests/install/run.sh STEP — one packaging test (registered by tests/install/CMakeLists.txt,
# which sets the LOOMPKG_* variables: source and build folders, a scratch folder, the compiler,
# cmake, its generator, pkg-config and sanitizer flags).
#   loomcc_flags      the build tree's loomcc: -show, link flags only when linking, --help
#   loomcc_hello      it builds examples/hello/hello.c; loomrun -n 4 runs it (4 ranks report)
#   prefix            cmake --install into $LOOMPKG_WORK/prefix; every promised file is there
#   cmake_downstream  tests/install/downstream configures with find_package(loom), builds, and
#                     its programs run with the installed loomrun and 3 ranks (with the plugin,
#                     one built with loom::privatize has per-rank globals)
#   pkgconfig         a program built with `pkg-config --cflags --libs loom` runs
#   readme_config     README.md's configuration table has a row for every LOOM_* variable
# Prints what it runs; on failure says what it got and what it expected; exits nonzero.
set -eu

step=${1:?usage: run.sh STEP}
work=$LOOMPKG_WORK
prefix=$work/prefix
san=${LOOMPKG_SANFLAGS:-}
mkdir -p "$work"
. "$LOOMPKG_SRC/tests/support/script_lib.sh" # q, fail, skip, run, expect_ranks

case $step in
loomcc_flags)
  cc=$LOOMPKG_BUILD/bin/loomcc
  out=$(LOOMCC_CC="mycc -O1" "$cc" -show -o 'my prog' a.c)
  echo "loomcc -show: $out"
  for want in "mycc -O1 $(q "-I$LOOMPKG_BUILD/include") " " -o 'my prog' a.c " " -lloom-main -lloom -lpthread"; do
    case $out in *"$want"*) ;; *) fail "loomcc -show printed '$out', expected it to contain '$want'" ;; esac
  done
  case $out in *"-Wl,-rpath,"*) ;; *) fail "loomcc -show printed '$out', expected an rpath" ;; esac
  for flag in -c -S -E -M -MM; do
    out=$("$cc" -show $flag a.c)
    case $out in *-lloom*) fail "loomcc -show $flag printed '$out', expected no link flags" ;; esac
    case $out in *"$(q "-I$LOOMPKG_BUILD/include")"*) ;; *) fail "loomcc -show $flag printed '$out', expected -I" ;; esac
  done
  "$cc" --help | grep -q '^usage: loomcc' || fail "loomcc --help printed no usage line"
  # -show must not run the compiler: a compiler that does not exist is fine.
  LOOMCC_CC=/nonexistent/cc "$cc" -show a.c >/dev/null || fail "loomcc -show ran the compiler"
  ;;

loomcc_hello)
  run env LOOMCC_CC="$LOOMPKG_CC $san" "$LOOMPKG_BUILD/bin/loomcc" -o "$work/hello_loomcc" \
    "$LOOMPKG_SRC/examples/hello/hello.c"
  run "$LOOMPKG_BUILD/bin/loomrun" -n 4 "$work/hello_loomcc" >"$work/hello_loomcc.out" ||
    fail "hello exited with status $?, expected 0"
  cat "$work/hello_loomcc.out"
  expect_ranks "$work/hello_loomcc.out" 4 rank
  ;;

prefix)
  rm -rf "$prefix"
  run "$LOOMPKG_CMAKE" --install "$LOOMPKG_BUILD" --prefix "$prefix" >"$work/install.log" ||
    { cat "$work/install.log"; fail "cmake --install failed"; }
  lib=$prefix/$LOOMPKG_LIBDIR
  for f in include/mpi.h include/mpi_proto.h bin/loomcc bin/loomrun bin/loom-info bin/mpicc \
    bin/mpicxx bin/mpic++ bin/mpifort bin/mpif90 bin/mpif77 bin/mpiexec bin/mpirun; do
    [ -f "$prefix/$f" ] || fail "$prefix/$f is missing after install"
  done
  for f in libloom.so libloom.a libloom-main.a pkgconfig/loom.pc pkgconfig/loom-cxx.pc \
    cmake/loom/loomConfig.cmake \
    cmake/loom/loomConfigVersion.cmake cmake/loom/loomTargets.cmake; do
    [ -e "$lib/$f" ] || fail "$lib/$f is missing after install"
  done
  for f in loomcc loomrun loom-info; do
    [ -x "$prefix/bin/$f" ] || fail "$prefix/bin/$f is not executable"
  done
  run "$prefix/bin/loom-info" >/dev/null || fail "installed loom-info exited with status $?"
  # The installed loomcc finds the prefix from its own location.
  out=$("$prefix/bin/loomcc" -show x.c)
  case $out in *"$(q "-I$prefix/include") "*"$(q "-L$lib") "*) ;; *) fail "installed loomcc -show printed '$out', expected -I$prefix/include and -L$lib" ;; esac
  ;;

cmake_downstream)
  ds=$work/downstream
  rm -rf "$ds"
  set -- -S "$LOOMPKG_SRC/tests/install/downstream" -B "$ds" -G "$LOOMPKG_GENERATOR" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$LOOMPKG_CC"
  [ -z "$LOOMPKG_MAKE" ] || set -- "$@" -DCMAKE_MAKE_PROGRAM="$LOOMPKG_MAKE"
  [ -z "$san" ] || set -- "$@" -DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san"
  [ -z "$LOOMPKG_PKG_CONFIG" ] || set -- "$@" -DPKG_CONFIG_EXECUTABLE="$LOOMPKG_PKG_CONFIG"
  run "$LOOMPKG_CMAKE" "$@" >"$ds.configure.log" 2>&1 || { cat "$ds.configure.log"; fail "configure failed"; }
  run "$LOOMPKG_CMAKE" --build "$ds" >"$ds.build.log" 2>&1 || { cat "$ds.build.log"; fail "build failed"; }
  # The package told the project where loomrun is (LOOM_RUN and loom::loomrun).
  got=$(cat "$ds/loom_run.txt")
  [ "$got" = "$prefix/bin/loomrun" ] || fail "LOOM_RUN is '$got', expected '$prefix/bin/loomrun'"
  apps="app app_static app_own_main"
  [ -x "$ds/app_priv" ] && apps="$apps app_priv"
  for app in $apps; do
    run "$prefix/bin/loomrun" -n 3 "$ds/$app" 3 >"$ds/$app.out" || fail "$app exited with status $?, expected 0"
    cat "$ds/$app.out"
    expect_ranks "$ds/$app.out" 3 downstream
  done
  ;;

pkgconfig)
  pc=${LOOMPKG_PKG_CONFIG:-pkg-config}
  export PKG_CONFIG_PATH="$prefix/$LOOMPKG_LIBDIR/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  v=$("$pc" --modversion loom) || fail "pkg-config does not find loom"
  flags=$("$pc" --cflags --libs loom)
  echo "pkg-config --cflags --libs loom: $flags"
  # pkg-config writes a space of a path as '\ ' (its .pc files escape them so): compare with
  # that, and split the flags as a shell reads them back (eval), as a makefile's shell would.
  esc_prefix=$(printf '%s' "$prefix" | sed 's/ /\\ /g')
  case $flags in *"-I$esc_prefix/include"*"-lloom-main -lloom"*) ;; *) fail "pkg-config printed '$flags', expected -I$esc_prefix/include ... -lloom-main -lloom" ;; esac
  static=$("$pc" --static --libs loom)
  case $static in *-lhwloc*) ;; *) fail "pkg-config --static --libs printed '$static', expected -lhwloc" ;; esac
  echo "loom $v"
  # shellcheck disable=SC2086
  eval "set -- $flags"
  run "$LOOMPKG_CC" $san -o "$work/app_pc" "$LOOMPKG_SRC/tests/install/downstream/app.c" "$@" -lpthread
  run env LD_LIBRARY_PATH="$prefix/$LOOMPKG_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$prefix/bin/loomrun" -n 2 "$work/app_pc" 2 >"$work/app_pc.out" || fail "app_pc exited with status $?, expected 0"
  cat "$work/app_pc.out"
  expect_ranks "$work/app_pc.out" 2 downstream
  ;;

readme_config)
  # Every LOOM_* variable of the configuration table has a row in the README's table.
  names=$("$LOOMPKG_BUILD/bin/loom-info" --config | sed -n 's/^\(LOOM_[A-Z0-9_]*\) = .*/\1/p')
  [ -n "$names" ] || fail "loom-info --config listed no LOOM_* variable"
  for n in $names; do
    grep -q "^| \`$n\` |" "$LOOMPKG_SRC/README.md" ||
      fail "README.md has no row for $n in its configuration table (expected a line starting '| \`$n\` |')"
  done
  echo "README.md lists:" $names
  ;;

*)
  fail "unknown step '$step'"
  ;;
esac
echo "PASS ($step)"
