#!/bin/sh
# kill.sh LOOMRUN PROGRAM WORKDIR: a job of 2 node processes x 2 ranks waits in receives; the
# second node process is killed; the job must end, with a nonzero status and a message, long
# before the test's own limit (no time is asserted: the loop only gives up).
loomrun=$1 prog=$2 work=$3
mkdir -p "$work" || exit 1
pidfile=$work/kill.pid
out=$work/kill.out
rm -f "$pidfile" "$out"
"$loomrun" -n 4 -ppn 2 "$prog" "$pidfile" >"$out" 2>&1 &
job=$!
i=0
while [ ! -s "$pidfile" ]; do
  i=$((i + 1))
  if [ $i -gt 600 ] || ! kill -0 $job 2>/dev/null; then
    echo "kill.sh: the job never got ready"; cat "$out"; kill $job 2>/dev/null; exit 1
  fi
  sleep 0.1
done
victim=$(cat "$pidfile")
kill -9 "$victim" || { echo "kill.sh: cannot kill $victim"; exit 1; }
i=0
while kill -0 $job 2>/dev/null; do
  i=$((i + 1))
  if [ $i -gt 600 ]; then
    echo "kill.sh: the job still runs 60 s after a node process was killed"; cat "$out"
    pkill -9 -f "$prog" 2>/dev/null; kill -9 $job 2>/dev/null; exit 1
  fi
  sleep 0.1
done
wait $job
status=$?
cat "$out"
[ $status -ne 0 ] || { echo "kill.sh: the job ended with status 0"; exit 1; }
# The launcher names the dead process, or loom names the node process that failed.
grep -Eq 'KILLED|BAD TERMINATION|failed|signal' "$out" ||
  { echo "kill.sh: nothing says what ended the job"; exit 1; }
echo "kill.sh: the job ended with status $status"
