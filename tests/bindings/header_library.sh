#!/bin/sh
# header_library.sh CC INCDIR LIBSO LIBA — mpi.h and the libraries agree: every function that
# mpi.h declares (MPI_, PMPI_, MPIX_, loom_) is defined in libloom.so and in libloom.a, every
# standard MPI_ call has its PMPI_ twin, and the shared library exports no MPI_/PMPI_ function
# that mpi.h does not declare. The declarations are read by the compiler itself (-aux-info),
# so whatever mpi.h includes counts.
set -eu
cc=$1 incdir=$2 libso=$3 liba=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo '#include <mpi.h>' >"$tmp/t.c"
$cc -I"$incdir" -aux-info "$tmp/aux" -c "$tmp/t.c" -o "$tmp/t.o"
# -aux-info lines: /* FILE:LINE:NC */ extern int MPI_Send (const void *, ...);
grep -E '^/\* [^ ]*mpi(_proto)?\.h:' "$tmp/aux" |
  sed -nE 's/^\/\* [^ ]* \*\/ [^(]*[ *]((P?MPIX?|loom)_[A-Za-z0-9_]+) \(.*/\1/p' | sort -u >"$tmp/declared"
nm -D --defined-only "$libso" | awk '$2 ~ /^[TW]$/ {print $3}' | sort -u >"$tmp/so"
nm --defined-only "$liba" 2>/dev/null | awk '$2 ~ /^[TW]$/ {print $3}' | sort -u >"$tmp/a"

fail=0
n=$(wc -l <"$tmp/declared")
if [ "$n" -lt 100 ]; then
  echo "only $n functions read from mpi.h: the scan is broken"
  exit 1
fi
missing_so=$(comm -23 "$tmp/declared" "$tmp/so")
missing_a=$(comm -23 "$tmp/declared" "$tmp/a")
if [ -n "$missing_so" ]; then
  echo "declared in mpi.h, not defined in libloom.so:" $missing_so
  fail=1
fi
if [ -n "$missing_a" ]; then
  echo "declared in mpi.h, not defined in libloom.a:" $missing_a
  fail=1
fi
# Standard calls (MPI_ and a lower-case letter after the first word: not the MPI_COMM_DUP_FN
# style callbacks, which have no twin in any MPI).
grep -E '^MPI_[A-Z][a-z]' "$tmp/declared" | sed 's/^/P/' >"$tmp/twins"
no_twin=$(comm -23 "$tmp/twins" "$tmp/declared")
if [ -n "$no_twin" ]; then
  echo "no PMPI_ twin declared for:" $(echo "$no_twin" | sed 's/^P//')
  fail=1
fi
undeclared=$(grep -E '^P?MPI_' "$tmp/so" | comm -13 "$tmp/declared" -)
if [ -n "$undeclared" ]; then
  echo "exported by libloom.so, not declared in mpi.h:" $undeclared
  fail=1
fi
calls=$(wc -l <"$tmp/twins")
[ $fail = 0 ] && echo "mpi.h declares $calls MPI calls and $n functions in all; libloom.so and libloom.a define each, with a PMPI_ twin for every call"
exit $fail
