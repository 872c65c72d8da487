#!/bin/sh
# expect.sh CODE STDOUT_REGEX STDERR_REGEX cmd args...
# Runs cmd, then checks that it exited with CODE and that its output matches the
# extended regular expressions (an empty regex checks nothing). Prints both values on failure.
code=$1; out_re=$2; err_re=$3; shift 3
tmp=$(mktemp -d) || exit 99
"$@" >"$tmp/out" 2>"$tmp/err"
got=$?
cat "$tmp/out"; cat "$tmp/err" >&2
fail=0
if [ "$got" != "$code" ]; then
  echo "expect.sh: exit status $got, expected $code" >&2; fail=1
fi
if [ -n "$out_re" ] && ! grep -Eq -- "$out_re" "$tmp/out"; then
  echo "expect.sh: stdout does not match /$out_re/" >&2; fail=1
fi
if [ -n "$err_re" ] && ! grep -Eq -- "$err_re" "$tmp/err"; then
  echo "expect.sh: stderr does not match /$err_re/" >&2; fail=1
fi
rm -rf "$tmp"
exit $fail
