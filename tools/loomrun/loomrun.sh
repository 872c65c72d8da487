#!/bin/sh
# loomrun — start a loom program with N ranks (threads of one process). Also installed as
# mpiexec and mpirun (links to this script), the names build systems and test drivers run.
#   loomrun [-n N] [--bind-to POLICY] [--topology SPEC] [--] program [args...]
#   loomrun -n N -ppn T [--hosts H,... | -f FILE] [...] program [args...]
# It only turns its options into LOOM_* variables (LOOM_NP, LOOM_BIND, LOOM_TOPOLOGY) and
# runs the program, whose loom main reads and validates them; the job's exit status is the
# program's. MPICH's and Open MPI's spellings of the same things are accepted, and a few of
# their options that mean nothing for one process on one node are accepted and ignored
# (docs/wrappers.md lists them); any other option is refused.
# With -ppn T the job is P = ceil(N/T) node processes of up to T rank threads each, started
# by a PMI launcher (LOOM_LAUNCHER; else srun inside a Slurm allocation; else MPICH's
# mpiexec.hydra) on the hosts given, each with LOOM_NP=T and LOOM_JOB_NP=N
# (docs/multinode.md); the job's exit status is the launcher's. A launcher named srun gets
# srun's options, any other Hydra's.
me=${0##*/}
loom_version=@PROJECT_VERSION@
# LOOM_PPN: -ppn's value when the command line gives none (a job's shape from its
# environment, as a batch script or a benchmark driver sets it); checked like -ppn
ppn=${LOOM_PPN:-} n_given="" hosts="" hostfile="" tag=
[ "$ppn" != 0 ] || ppn="" # 0: one process, as when unset (docs/config.md)

usage() {
  cat <<USAGE
usage: $me [-n N] [--bind-to POLICY] [--topology SPEC] [--] program [args...]
       $me -n N -ppn T [--hosts H,... | -f FILE] [options] [--] program [args...]
  -n, -np, --n, --np N     number of ranks (sets LOOM_NP; with -ppn, LOOM_JOB_NP)
  -ppn, --ppn, --ranks-per-node T
                           ranks per node process: start ceil(N/T) node processes through
                           a PMI launcher (LOOM_LAUNCHER, else srun in a Slurm allocation,
                           else mpiexec.hydra), each with
                           LOOM_NP=T and LOOM_JOB_NP=N (default: LOOM_PPN, if set)
  -hosts, --host, --hosts H,...   with -ppn, the hosts the launcher starts them on
  -f, --hostfile FILE      with -ppn, the launcher's host file
  --bind-to POLICY         compact | scatter | spread | none | user:<set>,<set>,...
                           (sets LOOM_BIND)
  --topology SPEC          hwloc synthetic description or XML file (sets LOOM_TOPOLOGY)
  -x NAME[=VALUE]          export NAME (with VALUE) to the program (Open MPI)
  -env, -genv NAME VALUE   set NAME to VALUE for the program (MPICH)
  -wdir, -wd DIR           run the program in DIR
  -host, --host, -hosts H  without -ppn, accepted when every host is this one (localhost,
                           its name); likewise the hosts of -f FILE
  -l, --tag-output         with -ppn, the launcher labels each line with its node process
  --oversubscribe, --allow-run-as-root
                           accepted and ignored: loom runs more ranks than cores, any user
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
# name would end the shell with its own message). The names are kept in `sent`: a launcher
# gets each again as -genv NAME VALUE.
sent=""
checkname() {
  case $1 in
    '' | [0-9]* | *[!A-Za-z0-9_]*) die "'$1' is not a variable name" ;;
  esac
}
setvar() {
  checkname "$1"
  export "$1=$2"
  sent="$sent $1"
}
# q WORD: WORD quoted for eval (single quotes, a single quote inside made '\'').
q() {
  printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}
posint() {
  case "$2" in '' | *[!0-9]*) die "$1 takes a positive integer, not '$2'" ;; esac
  [ "$2" -ge 1 ] || die "$1 takes a positive integer, not '$2'"
}
# Without -ppn, a host list names only this node: localhost, 127.0.0.1, this machine's name;
# an optional ":slots" suffix is allowed.
check_hosts() {
  self=$(uname -n)
  for h in $(printf '%s' "$1" | tr ',' ' '); do
    case ${h%%:*} in
      localhost | 127.0.0.1 | "$self" | "${self%%.*}") ;;
      *) die "host '$h': without -ppn loom runs one process on this node (its ranks are threads); -ppn T starts node processes on other hosts" ;;
    esac
  done
}
# The same for a host file: the first word of each line that is not a comment.
check_hostfile() {
  [ -r "$1" ] || die "cannot read the host file '$1'"
  check_hosts "$(sed -e 's/#.*//' "$1" | awk 'NF { printf "%s,", $1 }')"
}

while [ $# -gt 0 ]; do
  case "$1" in
    -n | -np | --n | --np | -c)
      need $# "$1" "a number"
      posint "$1" "$2"
      LOOM_NP=$2; export LOOM_NP; n_given=$2; shift 2 ;;
    -ppn | --ppn | --ranks-per-node)
      need $# "$1" "a number"
      posint "$1" "$2"
      ppn=$2; shift 2 ;;
    --ppn=* | --ranks-per-node=*) posint "${1%%=*}" "${1#*=}"; ppn=${1#*=}; shift ;;
    --bind-to | -bind-to)
      need $# "$1" "a policy"
      setvar LOOM_BIND "$2"; shift 2 ;;
    --bind-to=*) setvar LOOM_BIND "${1#--bind-to=}"; shift ;;
    --topology)
      need $# "$1" "a description"
      setvar LOOM_TOPOLOGY "$2"; shift 2 ;;
    --topology=*) setvar LOOM_TOPOLOGY "${1#--topology=}"; shift ;;
    -x)
      need $# "$1" "NAME or NAME=VALUE"
      case "$2" in
        *=*) setvar "${2%%=*}" "${2#*=}" ;;
        *) checkname "$2"; export "${2?}"; sent="$sent $2" ;;
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
    -host | --host | -hosts | --hosts | -H)
      need $# "$1" "a host list"
      [ -n "$2" ] || die "$1 needs a host list"
      hosts=${hosts:+$hosts,}$2; shift 2 ;;
    -f | --hostfile | -hostfile | --machinefile | -machinefile)
      need $# "$1" "a file"
      [ -z "$hostfile" ] || die "$1: one host file only"
      hostfile=$2; shift 2 ;;
    -l | --tag-output | -tag-output) tag=1; shift ;;
    --oversubscribe | -oversubscribe | --allow-run-as-root | -allow-run-as-root)
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
if [ -z "$ppn" ]; then
  [ -z "$hosts" ] || check_hosts "$hosts"
  [ -z "$hostfile" ] || check_hostfile "$hostfile"
  exec "$prog" "$@"
fi

# -ppn: node processes through a PMI launcher.
posint "-ppn (or LOOM_PPN)" "$ppn"
[ -n "$n_given" ] || die "-ppn needs -n N, the job's number of ranks"
[ -z "$hosts" ] || [ -z "$hostfile" ] || die "-ppn: give the hosts as a list or as a file, not both"
nodes=$(((n_given + ppn - 1) / ppn))
set -f # LOOM_LAUNCHER is split into words, not expanded as a pattern
if [ -n "${LOOM_LAUNCHER:-}" ]; then
  launcher="" first=""
  for w in $LOOM_LAUNCHER; do
    launcher="$launcher $(q "$w")"
    first=${first:-$w}
  done
  command -v "$first" >/dev/null 2>&1 || die "-ppn: LOOM_LAUNCHER names '$first', which is not a command"
elif [ -n "${SLURM_JOB_ID:-}" ] && srun=$(command -v srun 2>/dev/null); then
  # Inside a Slurm allocation, Slurm's own launcher: it knows the allocation's nodes and
  # serves PMIx (or PMI-2) to what it starts.
  launcher=$(q "$srun") first=$srun
elif hydra=$(command -v mpiexec.hydra 2>/dev/null); then
  launcher=$(q "$hydra") first=$hydra
else
  die "-ppn: no PMI launcher: mpiexec.hydra (MPICH's Hydra, package mpich) is not in PATH, this is not a Slurm allocation and LOOM_LAUNCHER is not set"
fi
set +f
LOOM_NP=$ppn LOOM_JOB_NP=$n_given
export LOOM_NP LOOM_JOB_NP
case ${first##*/} in
  srun)
    # srun: one task per node process, each with T CPUs (its rank threads; -c is what
    # confines a task under Slurm's CPU binding and cgroups); the PMI flavour from what this
    # Slurm offers: PMIx, else its PMI-2 plugin, which also serves loom's PMI-1 client. A node
    # process that dies ends the job (--kill-on-bad-exit). srun passes the whole environment.
    # A flavour the user chose (--mpi= in LOOM_LAUNCHER, SLURM_MPI_TYPE) stands.
    case " ${LOOM_LAUNCHER:-} " in *" --mpi="*) mpi=given ;; *) mpi=${SLURM_MPI_TYPE:+given} ;; esac
    if [ -z "$mpi" ]; then
      mpi=pmi2
      "$first" --mpi=list 2>&1 | grep -q pmix && mpi=pmix
    fi
    words="-n $nodes -c $ppn --kill-on-bad-exit=1"
    [ "$mpi" = given ] || words="--mpi=$mpi $words"
    [ -z "$hosts" ] || words="$words -w $(q "$hosts")"
    # Slurm reads a node list from a file when the name holds a '/'.
    case $hostfile in '' ) ;; */*) words="$words -w $(q "$hostfile")" ;;
      *) words="$words -w $(q "./$hostfile")" ;; esac
    [ -z "$tag" ] || words="$words --label" ;;
  *)
    # Hydra passes its whole environment on by default; -genv says again what loomrun set,
    # for launchers that do not.
    words="-n $nodes"
    [ -z "$hosts" ] || words="$words -hosts $(q "$hosts")"
    [ -z "$hostfile" ] || words="$words -f $(q "$hostfile")"
    [ -z "$tag" ] || words="$words -l"
    words="$words -genv LOOM_NP $ppn -genv LOOM_JOB_NP $n_given"
    for name in $sent; do
      eval "value=\${$name}"
      words="$words -genv $name $(q "$value")"
    done ;;
esac
eval "set -- $launcher $words \"\$prog\" \"\$@\""
exec "$@"
