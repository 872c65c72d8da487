#!/bin/sh
# tests/model/cli.sh TOOL — smoke tests of loom-model: --best's format and the stated 64-core
# results through the command, --csv's shape, --simulate, and bad arguments exiting with 2.
tool="$1"
fail=0
say() { echo "cli.sh: $*" >&2; fail=1; }

out=$("$tool" --cores 64 --best) || say "--cores 64 --best exited $?"
lines=$(printf '%s\n' "$out" | wc -l)
[ "$lines" -eq 63 ] || say "--best: got $lines lines, expected 63 (N = 1..63)"
bad=$(printf '%s\n' "$out" | grep -cvE '^[0-9]+,[0-9]+,[0-9]+(\.[0-9]+)?$')
[ "$bad" -eq 0 ] || say "--best: $bad line(s) not N,S,T: $(printf '%s\n' "$out" | grep -vE '^[0-9]+,[0-9]+,[0-9.]+$' | head -3)"
for want in 51,0,7.52941 52,1, 57,1, 58,2, 60,2, 62,3,; do
    printf '%s\n' "$out" | grep -q "^$want" || say "--best: no line starting '$want'"
done
# the least T_overlapped over N is at N = 51
min=$(printf '%s\n' "$out" | sort -t, -k3 -g | head -1)
[ "${min%%,*}" = 51 ] || say "--best: least time at '$min', expected N = 51"

one=$("$tool" --cores 64 --ranks 62 --best) || say "--ranks 62 --best exited $?"
[ "$one" = "62,3,9.19355" ] || say "--ranks 62 --best: got '$one', expected '62,3,9.19355'"

csv=$("$tool" --cores 64 --csv --buffer doubling) || say "--csv exited $?"
[ "$(printf '%s\n' "$csv" | head -1)" = "buffer,N,P,S,C,T_blocking,T_blocking_total,T_nonblocking,T_overlapped,best_S" ] ||
    say "--csv: bad header '$(printf '%s\n' "$csv" | head -1)'"
rows=$(printf '%s\n' "$csv" | grep -c '^doubling,')
[ "$rows" -eq $((63 * 7)) ] || say "--csv: got $rows rows, expected 441 (63 N x 7 S)"

"$tool" --cores 64 > /dev/null || say "the default table exited $?"
"$tool" --cores 64 --simulate > /dev/null || say "--simulate exited $?"
sim=$("$tool" --cores 18 --ranks 16 --simulate --best) || say "--simulate --best exited $?"
[ "${sim%%,*}" = 16 ] || say "--simulate --best: got '$sim'"
"$tool" --help | grep -q -- '--cores C' || say "--help does not describe --cores"

for args in "" "--cores" "--cores 0" "--cores x" "--cores 64 --ranks 64" "--cores 64 --ranks 0" \
    "--cores 64 --buffer big" "--cores 64 --bogus" "--cores 64 --best --csv" \
    "--cores 64 --equations other" "--cores 64 --coll reduce" "--cores 64 --simulate --coll x" \
    "--cores 64 --simulate --sim-mode x" "--cores 64 --ranks 5x"; do
    # shellcheck disable=SC2086
    "$tool" $args > /dev/null 2> /tmp/loom-model-cli.$$
    rc=$?
    [ $rc -eq 2 ] || say "'$args': exit $rc, expected 2"
    grep -q 'loom-model: ' /tmp/loom-model-cli.$$ || say "'$args': no message on stderr"
done
rm -f /tmp/loom-model-cli.$$
[ $fail -eq 0 ] && echo "cli.sh: all passed"
exit $fail
