# tests/support/script_lib.sh — what the shell-script tests (tests/install/run.sh,
# tests/wrappers/run.sh) share; sourced after the script has set `step` (the test's name).

# An argument as loomcc and the wrappers print it with -show: bare when safe, else
# single-quoted (a build or install folder may have a space in its path).
q() {
  case $1 in
    '' | *[!A-Za-z0-9_./=:,+@%^-]*) printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
    *) printf '%s' "$1" ;;
  esac
}
fail() {
  echo "FAIL ($step): $*" >&2
  exit 1
}
skip() {
  echo "SKIPPED ($step): $*"
  exit 77
}
# run CMD...: print the command (on stderr, so that $(...) captures only its output), run it.
run() {
  echo "+ $*" >&2
  "$@"
}
# expect_ranks FILE N WORD: FILE holds exactly one line "WORD r of N" for each r < N, and no
# other line starting with "WORD r of ".
expect_ranks() {
  r=0
  while [ "$r" -lt "$2" ]; do
    got=$(grep -c "^$3 $r of $2\b" "$1" || true)
    [ "$got" = 1 ] || fail "expected one line '$3 $r of $2' in the output, got $got:
$(cat "$1")"
    r=$((r + 1))
  done
  got=$(grep -c "^$3 [0-9]* of " "$1" || true)
  [ "$got" = "$2" ] || fail "expected $2 lines '$3 ...', got $got:
$(cat "$1")"
}
