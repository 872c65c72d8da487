#!/bin/sh
# loomrun — start a loom program with N ranks (threads of one process).
#   loomrun [-n N] [--bind-to POLICY] [--topology SPEC] [--] program [args...]
# It only turns its options into LOOM_* variables (LOOM_NP, LOOM_BIND, LOOM_TOPOLOGY) and
# runs the program, whose loom main reads and validates them.
usage() {
  cat <<USAGE
usage: loomrun [-n N] [--bind-to POLICY] [--topology SPEC] [--] program [args...]
  -n, -np N          number of ranks (sets LOOM_NP)
  --bind-to POLICY   compact | scatter | spread | none | user:<set>,<set>,... (sets LOOM_BIND)
  --topology SPEC    hwloc synthetic description or XML file (sets LOOM_TOPOLOGY)
  -h, --help         this text
USAGE
}
while [ $# -gt 0 ]; do
  case "$1" in
    -n|-np) [ $# -ge 2 ] || { echo "loomrun: $1 needs a number" >&2; exit 2; }
            case "$2" in ''|*[!0-9]*) echo "loomrun: $1 takes a positive integer, not '$2'" >&2; exit 2;; esac
            [ "$2" -ge 1 ] || { echo "loomrun: $1 takes a positive integer, not '$2'" >&2; exit 2; }
            LOOM_NP=$2; export LOOM_NP; shift 2;;
    --bind-to) [ $# -ge 2 ] || { echo "loomrun: --bind-to needs a policy" >&2; exit 2; }
            LOOM_BIND=$2; export LOOM_BIND; shift 2;;
    --bind-to=*) LOOM_BIND=${1#--bind-to=}; export LOOM_BIND; shift;;
    --topology) [ $# -ge 2 ] || { echo "loomrun: --topology needs a description" >&2; exit 2; }
            LOOM_TOPOLOGY=$2; export LOOM_TOPOLOGY; shift 2;;
    -h|--help) usage; exit 0;;
    --) shift; break;;
    -*) echo "loomrun: unknown option '$1'" >&2; usage >&2; exit 2;;
    *) break;;
  esac
done
[ $# -ge 1 ] || { echo "loomrun: no program given" >&2; usage >&2; exit 2; }
prog=$1; shift
case "$prog" in */*) ;; *) [ -x "./$prog" ] && prog=./$prog;; esac
exec "$prog" "$@"
