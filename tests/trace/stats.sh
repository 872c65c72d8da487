#!/bin/sh
# stats.sh LOOMRUN PROGRAM NP TASKS_EXPECTED
# Runs the ping-pong program (tests/trace/pingpong.c) under LOOM_STATS=1 and checks the lines:
# exactly one "loom: rank R: stats: ..." line per rank, in rank order, with the message counts
# the program makes (K messages of BIG bytes one way, K of SMALL the other, per pair), and
# the tasks run over all ranks: TASKS_EXPECTED = "chunks" (every large message moves as
# BIG/LOOM_COPY_CHUNK chunk tasks) or "none" (LOOM_PROGRESS=inline: copied inline).
# Prints what it got and what it expected on failure.
loomrun=$1; prog=$2; np=$3; tasks=$4
K=3; BIG=1048576; SMALL=64; CHUNK=65536
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
LOOM_STATS=1 LOOM_COPY_CHUNK=$CHUNK "$loomrun" -n "$np" "$prog" $K $BIG $SMALL \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err" >&2
if [ "$rc" != 0 ]; then
    echo "stats.sh: exit status $rc, expected 0" >&2
    exit 1
fi
if [ "$tasks" = chunks ]; then
    want_tasks=$(( (np / 2) * K * (BIG / CHUNK) ))
else
    want_tasks=0
fi
awk -v np="$np" -v K=$K -v BIG=$BIG -v SMALL=$SMALL -v want_tasks="$want_tasks" '
function expect(what, got, want) {
    if (got != want) {
        printf "stats.sh: rank %d: %s is %s, expected %s\n", r, what, got, want > "/dev/stderr"
        bad = 1
    }
}
/^loom: rank [0-9]+: stats: / {
    r = $3; sub(":", "", r); r += 0
    expect("position of its line", r, n)
    n++
    delete v
    for (i = 5; i <= NF; i++) {
        split($i, kv, "=")
        v[kv[1]] = kv[2]
    }
    partner = (r % 2 == 0) ? r + 1 : r - 1
    paired = partner < np
    if (!paired) {
        s = 0; sb = 0; rv = 0; rb = 0
    } else if (r % 2 == 0) {
        s = K; sb = K * BIG; rv = K; rb = K * SMALL
    } else {
        s = K; sb = K * SMALL; rv = K; rb = K * BIG
    }
    expect("sent", v["sent"], s)
    expect("sent_bytes", v["sent_bytes"], sb)
    expect("recv", v["recv"], rv)
    expect("recv_bytes", v["recv_bytes"], rb)
    for (key in v)
        if (key ~ /^tasks_/) tasks += v[key]
    if (!("mpi_ms" in v) || !("wait_ms" in v) || !("tasks_same_numa" in v) ||
        !("tasks_other_numa" in v) || !("tasks_own" in v)) {
        printf "stats.sh: rank %d: a field is missing: %s\n", r, $0 > "/dev/stderr"
        bad = 1
    }
    if (v["wait_ms"] + 0 > v["mpi_ms"] + 0.001) {
        printf "stats.sh: rank %d: wait_ms %s > mpi_ms %s\n", r, v["wait_ms"], v["mpi_ms"] > "/dev/stderr"
        bad = 1
    }
}
END {
    if (n != np) {
        printf "stats.sh: %d stats lines, expected %d\n", n, np > "/dev/stderr"
        bad = 1
    }
    if (tasks + 0 != want_tasks + 0) {
        printf "stats.sh: tasks run over all ranks: %d, expected %d\n", tasks, want_tasks > "/dev/stderr"
        bad = 1
    }
    exit bad
}' "$tmp/err"
