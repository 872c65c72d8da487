#!/bin/sh
# scripts/demo.sh — set everything up (scripts/setup.sh: Debian packages, configure, build)
# and run the demo: examples/hello with 4 ranks, each printing its rank, core, NUMA node and
# the placement policy. Run from anywhere: sh scripts/demo.sh
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sh scripts/setup.sh
echo "loom demo: 4 ranks (threads of one process), placed by the default policy"
echo "+ build/bin/loomrun -n 4 build/examples/hello/hello"
exec build/bin/loomrun -n 4 build/examples/hello/hello
