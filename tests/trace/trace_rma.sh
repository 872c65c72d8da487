#!/bin/sh
# trace_rma.sh LOOMRUN PROGRAM NP
# Runs tests/trace/rma.c with LOOM_TRACE=<a temporary prefix> and counts the one-sided calls in
# the JSON trace: every call of every rank must be there, fast paths included (K of each
# operation and 4 K flushes per rank in the lock_all epoch, then K lock / put / unlock).
loomrun=$1; prog=$2; np=$3
K=6
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
LOOM_TRACE="$tmp/run" "$loomrun" -n "$np" "$prog" $K
rc=$?
if [ "$rc" != 0 ]; then
    echo "trace_rma.sh: exit status $rc, expected 0" >&2
    exit 1
fi
if [ ! -s "$tmp/run.json" ]; then
    echo "trace_rma.sh: $tmp/run.json was not written" >&2
    exit 1
fi
bad=0
for want in MPI_Put:$((2 * K)) MPI_Get:$K MPI_Fetch_and_op:$K MPI_Compare_and_swap:$K \
            MPI_Win_flush:$((4 * K)) MPI_Win_lock:$K MPI_Win_unlock:$K; do
    name=${want%%:*}
    n=$(( ${want#*:} * np ))
    got=$(grep -o "\"name\": *\"$name\"" "$tmp/run.json" | wc -l)
    if [ "$got" -ne "$n" ]; then
        echo "trace_rma.sh: $name appears $got times in the JSON trace, expected $n" >&2
        bad=1
    fi
done
exit $bad
