#!/bin/sh
# scripts/test.sh — set everything up (scripts/setup.sh: Debian packages, configure, build)
# and run the whole test suite with ctest, two tests at a time (each has a timeout).
# Run from anywhere: sh scripts/test.sh  (exit status: ctest's)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sh scripts/setup.sh
echo "loom test: the whole test suite"
echo "+ ctest --test-dir build --output-on-failure -j2"
exec ctest --test-dir build --output-on-failure -j2
