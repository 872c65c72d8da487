#!/bin/sh
# entry_points.sh LIST LIBLOOM.so LIBLOOM.a: every Fortran entry point in LIST (mpi_send_...,
# made by loom-bindgen from the description of the calls) is exported by the shared library
# with its pmpi_xxx_ twin, and is weak in the static one (as MPI_Xxx is: a profiling tool's
# mpi_xxx_ replaces it).
list=$1; so=$2; a=$3
dyn=$(nm -D --defined-only "$so") || exit 1
st=$(nm --defined-only "$a" 2>/dev/null) || exit 1
n=0; bad=0
while read -r f; do
  n=$((n + 1))
  echo "$dyn" | grep -Eq " [TW] $f\$" || { echo "not exported by $so: $f"; bad=1; }
  echo "$dyn" | grep -Eq " T p$f\$" || { echo "not exported by $so: p$f"; bad=1; }
  echo "$st" | grep -Eq " W $f\$" || { echo "not weak in $a: $f"; bad=1; }
  echo "$st" | grep -Eq " T p$f\$" || { echo "not in $a: p$f"; bad=1; }
done < "$list"
[ "$n" -gt 300 ] || { echo "only $n Fortran entry points listed"; bad=1; }
[ $bad = 0 ] && echo "$n Fortran entry points, each exported with its pmpi twin"
exit $bad
