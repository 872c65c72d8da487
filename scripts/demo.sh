#!/bin/sh
# scripts/demo.sh — set everything up (scripts/setup.sh: Debian packages, configure, build)
# and run the demo:
#  1. examples/hello with 4 ranks, each printing its rank, core, NUMA node and the placement
#     policy;
#  2. the point of loom: how much of a nonblocking transfer hides behind computation
#     (bench/overlap.c, 2 ranks) under each progress policy, side by side.
# Run from anywhere: sh scripts/demo.sh
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sh scripts/setup.sh
echo "loom demo: 4 ranks (threads of one process), placed by the default policy"
echo "+ build/bin/loomrun -n 4 build/examples/hello/hello"
build/bin/loomrun -n 4 build/examples/hello/hello

echo
echo "Overlap of a nonblocking transfer with computation (1 = fully hidden), 2 ranks:"
echo "+ build/bin/loomcc -O2 bench/overlap.c -o build/overlap"
build/bin/loomcc -O2 bench/overlap.c -o build/overlap
# LOOM_COPY_SHARE=0: the transfer alone is timed as one core copies it, as it is while the
# other side computes, so the ratio says how much of that copy one side hides (by default two
# waiting ranks share a large copy, which makes the transfer alone twice as fast and the ratio
# lower: docs/progress.md).
for mode in inline collaborative thread; do
  LOOM_COPY_SHARE=0 LOOM_PROGRESS=$mode build/bin/loomrun -n 2 build/overlap --quick \
    > "build/overlap.$mode.csv"
done
# one row per (side, size), one column per policy
awk -F, '
  FNR == 1 { mode = FILENAME; sub(/.*overlap\./, "", mode); sub(/\.csv$/, "", mode) }
  $1 ~ /^overlap_/ {
    side = substr($1, 9); key = side " " $2
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    v[key, mode] = $3
  }
  END {
    printf "%-10s %9s  %8s %14s %8s\n", "computing", "bytes", "inline", "collaborative", "thread"
    for (i = 1; i <= n; i++) {
      split(order[i], k, " ")
      printf "%-10s %9s  %8s %14s %8s\n", k[1], k[2], v[order[i], "inline"],
             v[order[i], "collaborative"], v[order[i], "thread"]
    }
  }' build/overlap.inline.csv build/overlap.collaborative.csv build/overlap.thread.csv
echo "(inline is what an ordinary MPI library gives; run with LOOM_COPY_SHARE=0; see docs/progress.md"
echo " and docs/benchmarks.md)"
