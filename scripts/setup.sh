#!/bin/sh
# scripts/setup.sh — make this machine ready to build loom and build it in build/:
#   1. install the Debian packages it needs that are missing (a fresh Debian 12 has none):
#      build-essential cmake ninja-build pkg-config libhwloc-dev hwloc, gcc-12-plugin-dev
#      (GCC 12's plugin headers: loomcc's plugin that privatizes globals, docs/privatize.md),
#      g++ and gfortran (the mpicxx and mpifort wrappers' compilers, docs/wrappers.md), and
#      autoconf and automake (the test that builds an autotools project with mpicc),
#      libfabric-dev (the network between node processes, docs/multinode.md), libpmix-dev
#      (the bootstrap under PMIx launchers: srun --mpi=pmix, Open MPI's mpirun), mpich (its
#      Hydra launcher starts multi-node jobs, over PMI-1) and openmpi-bin (its mpirun, a PMIx
#      launcher, starts some of the tests'; the tests through srun install Slurm themselves,
#      scripts/slurm_local.sh)
#   2. configure build/ (RelWithDebInfo, warnings as errors) unless it is configured already
#   3. build everything (library, tools, example, tests)
# Run from anywhere, as often as you like: each step does only what is missing. As root it
# runs apt-get itself; otherwise it uses sudo when there is one. scripts/demo.sh and
# scripts/test.sh start by running it.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

say() { echo "loom setup: $*"; }
run() {
  echo "+ $*"
  "$@"
}

# 1. Debian packages.
packages="build-essential cmake ninja-build pkg-config libhwloc-dev hwloc gcc-12-plugin-dev"
packages="$packages g++ gfortran autoconf automake libfabric-dev libpmix-dev mpich openmpi-bin"
missing=
if command -v dpkg >/dev/null 2>&1; then
  for p in $packages; do
    dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing="$missing $p"
  done
else
  say "no dpkg here: not a Debian system, so no packages are installed; the build needs a C11"
  say "compiler, cmake >= 3.20, ninja, pkg-config and hwloc >= 2 (headers and tools)"
fi
if [ -n "$missing" ]; then
  say "installing missing Debian packages:$missing"
  if [ "$(id -u)" = 0 ]; then
    sudo=
  elif command -v sudo >/dev/null 2>&1; then
    sudo=sudo
  else
    say "not root and no sudo: run as root: apt-get install -y$missing" >&2
    exit 1
  fi
  run $sudo env DEBIAN_FRONTEND=noninteractive apt-get update
  # shellcheck disable=SC2086
  run $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
elif command -v dpkg >/dev/null 2>&1; then
  say "Debian packages present: $packages"
fi

# 2. Configure. An existing build/ keeps its generator and settings; one configured from
#    another copy of the sources is configured afresh.
cache=build/CMakeCache.txt
if [ -f "$cache" ] && ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$root" "$cache"; then
  say "build/ was configured for other sources: configuring it afresh"
  run rm -rf build/CMakeCache.txt build/CMakeFiles
fi
if [ -f "$cache" ]; then
  say "build/ is configured; re-checking the configuration"
  echo "+ cmake -S . -B build -DLOOM_WERROR=ON >/dev/null"
  cmake -S . -B build -DLOOM_WERROR=ON >/dev/null
else
  say "configuring build/"
  run cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOOM_WERROR=ON
fi

# 3. Build (ninja rebuilds only what changed).
say "building"
run cmake --build build
say "built: build/bin/loomcc (also mpicc, mpicxx, mpifort), build/bin/loomrun (also mpiexec),"
say "build/bin/loom-info, build/examples/hello/hello"
