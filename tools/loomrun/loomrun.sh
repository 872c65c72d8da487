#!/bin/sh
# loomrun — start a loom program with N ranks (threads of one process). Also installed as
# mpiexec and mpirun (links to this script), the names build systems and test drivers run.
#   loomrun [-n N] [--bind-to POLICY] [--topology SPEC] [--] program [args...]
# It only turns its options into LOOM_* variables (LOOM_NP, LOOM_BIND, LOOM_TOPOLOGY) and
# runs the program, whose loom main reads and validates them; the job's exit status is the
# program's. MPICH's and Open MPI's spellings of the same things are accepted, and a few of
# their options that mean nothing for one process on one node are accepted and ignored
# (docs/wrappers.md lists them); any other option is refused.
me=${0##*/}
loom_version=@PROJECT_VERSION@

usage() {
  cat <<USAGE
usage: $me [-n N] [--bind-to POLICY] [--topology SPEC] [--] program [args...]
  -n, -np, --n, --np N     number of ranks (sets LOOM_NP)
  --bind-to POLICY         compact | scatter | spread | none | user:<set>,<set>,...
                           (sets LOOM_BIND)
  --topology SPEC          hwloc synthetic description or XML file (sets LOOM_TOPOLOGY)
  -x NAME[=VALUE]          export NAME (with VALUE) to the program (Open MPI)
  -env, -genv NAME VALUE   set NAME to VALUE for the program (MPICH)
  -wdir, -wd DIR           run the program in DIR
  -host, --host, -hosts H  accepted when every host is this one (localhost, its name)
  --oversubscribe, --allow-run-as-root, -l, --tag-output
                           accepted and ignored: loom runs more ranks than cores, any user,
                           one process
  -V, --version            loom's version
  -h, -help, --help        this text
USAGE
}
die() {
  echo "$me: $*" >&2
  exit 2
}
need() {
  [ "$1" -ge 2 ] || die "$2 needs $3"
}
# setvar NAME VALUE: export NAME=VALUE for the program, NAME checked first (export of a bad
# name would end the shell with its own message).
checkname() {
  case $1 in
    '' | [0-9]* | *[!A-Za-z0-9_]*) die "'$1' is not a variable name" ;;
  esac
}
setvar() {
  checkname "$1"
  export "$1=$2"
}
# A host list names only this node: localhost, 127.0.0.1, this machine's name; an optional
# ":slots" suffix is allowed.
check_hosts() {
  self=$(uname -n)
  for h in $(printf '%s' "$1" | tr ',' ' '); do
    case ${h%%:*} in
      localhost | 127.0.0.1 | "$self" | "${self%%.*}") ;;
      *) die "host '$h': loom runs one process on this node only (its ranks are threads)" ;;
    esac
  done
}

while [ $# -gt 0 ]; do
  case "$1" in
    -n | -np | --n | --np | -c)
      need $# "$1" "a number"
      case "$2" in '' | *[!0-9]*) die "$1 takes a positive integer, not '$2'" ;; esac
      [ "$2" -ge 1 ] || die "$1 takes a positive integer, not '$2'"
      LOOM_NP=$2; export LOOM_NP; shift 2 ;;
    --bind-to | -bind-to)
      need $# "$1" "a policy"
      LOOM_BIND=$2; export LOOM_BIND; shift 2 ;;
    --bind-to=*) LOOM_BIND=${1#--bind-to=}; export LOOM_BIND; shift ;;
    --topology)
      need $# "$1" "a description"
      LOOM_TOPOLOGY=$2; export LOOM_TOPOLOGY; shift 2 ;;
    --topology=*) LOOM_TOPOLOGY=${1#--topology=}; export LOOM_TOPOLOGY; shift ;;
    -x)
      need $# "$1" "NAME or NAME=VALUE"
      case "$2" in
        *=*) setvar "${2%%=*}" "${2#*=}" ;;
        *) checkname "$2"; export "${2?}" ;;
      esac
      shift 2 ;;
    -env | -genv)
      [ $# -ge 3 ] || die "$1 needs NAME and VALUE"
      setvar "$2" "$3"
      shift 3 ;;
    -wdir | -wd | --wdir)
      need $# "$1" "a folder"
      cd "$2" || die "$1: cannot enter '$2'"
      shift 2 ;;
    -host | --host | -hosts | -H)
      need $# "$1" "a host list"
      check_hosts "$2"; shift 2 ;;
    --oversubscribe | -oversubscribe | --allow-run-as-root | -allow-run-as-root | -l | \
      --tag-output | -tag-output)
      shift ;;
    -V | --version | -version)
      echo "$me (loom) $loom_version"
      echo "loom $loom_version: MPI 4.1; one process per node, one thread per rank"
      exit 0 ;;
    -h | -help | --help) usage; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option '$1' ($me --help lists the options)" ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "$me: no program given" >&2; usage >&2; exit 2; }
prog=$1; shift
case "$prog" in */*) ;; *) [ -x "./$prog" ] && prog=./$prog ;; esac
exec "$prog" "$@"
