#!/bin/sh
# trace.sh LOOMRUN PROGRAM CHECKER NP MODE
# Runs the ping-pong program (tests/trace/pingpong.c) with LOOM_TRACE=<a temporary prefix>
# and checks both files with trace_check (trace_check.c): well-formed Pajé, strict JSON, and
# the same timeline in both.
loomrun=$1; prog=$2; checker=$3; np=$4; mode=$5
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
LOOM_TRACE="$tmp/run" "$loomrun" -n "$np" "$prog" 3 1048576 64
rc=$?
if [ "$rc" != 0 ]; then
    echo "trace.sh: exit status $rc, expected 0" >&2
    exit 1
fi
for f in "$tmp/run.trace" "$tmp/run.json"; do
    if [ ! -s "$f" ]; then
        echo "trace.sh: $f was not written" >&2
        exit 1
    fi
done
"$checker" "$tmp/run" "$np" "$mode"
