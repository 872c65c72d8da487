#!/bin/sh
# loomrun.sh STEP — loomrun -ppn, the multi-node form, one step per ctest test:
#   ppn        loomrun -n 5 -ppn 2 through Hydra: 3 node processes, PMI_RANK 0..2 of 3, each
#              with LOOM_NP=2, LOOM_JOB_NP=5 and what -x/--bind-to set; -n 3 -ppn 4 is one
#   launcher   LOOM_LAUNCHER (a fake that prints its arguments) gets -n P, -hosts or -f, -l,
#              -genv for LOOM_NP, LOOM_JOB_NP and every variable the options set, the program
#              and its arguments untouched (spaces, quotes); LOOM_PPN stands for -ppn when
#              the command line has none
#   srun       inside a Slurm allocation (SLURM_JOB_ID) loomrun starts the node processes with
#              srun (a fake in PATH): --mpi=pmix when srun lists it, else pmi2, -n P, -c T,
#              --kill-on-bad-exit, -w for the hosts (a file as a path), --label; a
#              LOOM_LAUNCHER named srun gets the same options after its own words, without
#              --mpi= when it has one or SLURM_MPI_TYPE is set
#   nolauncher no mpiexec.hydra in PATH, no Slurm and no LOOM_LAUNCHER: a clear error
#   errors     -ppn without -n, -ppn 0 or x (or LOOM_PPN=x), hosts both as a list and a file, a LOOM_LAUNCHER
#              that is not a command; without -ppn, other hosts (list or file) are refused and
#              this host is accepted
# Environment: NETT_LOOMRUN (the build tree's loomrun), NETT_HYDRA (mpiexec.hydra or empty:
# the ppn step is SKIPPED), NETT_WORK (a folder for this step).
set -eu
step=${1:?usage: loomrun.sh STEP}
. "$(dirname "$0")/../support/script_lib.sh" # fail, skip, run
loomrun=${NETT_LOOMRUN:?}
work=$NETT_WORK/loomrun-$step
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset LOOM_LAUNCHER LOOM_NP LOOM_JOB_NP LOOM_BIND LOOM_PPN SLURM_JOB_ID SLURM_MPI_TYPE PMI_FD \
  PMI_PORT PMI_RANK PMI_SIZE 2>/dev/null || true

# A program that shows what a node process got. It stays a moment: it is no PMI client, and
# Hydra sometimes loses a process that exits at once (killed by SIGPIPE, or an error waiting
# for it: seen about once in 30 launches on a loaded machine); loom's node processes talk to
# PMI and end with a fence, so they never exit that early.
cat >show.sh <<'SHOW'
#!/bin/sh
echo "node ${PMI_RANK-none} of ${PMI_SIZE-none}: LOOM_NP=${LOOM_NP-} LOOM_JOB_NP=${LOOM_JOB_NP-} LOOM_BIND=${LOOM_BIND-} X=${LOOMT_X-} args=$*"
sleep 0.2
SHOW
chmod +x show.sh
# A launcher that prints its arguments, one per line, in brackets.
cat >fake.sh <<'FAKE'
#!/bin/sh
for a do echo "[$a]"; done
FAKE
chmod +x fake.sh

# refused WANT CMD...: CMD exits with status 2 and says WANT on stderr.
refused() {
  want=$1
  shift
  set +e
  "$@" >out.txt 2>err.txt
  status=$?
  set -e
  [ "$status" = 2 ] || fail "$* exited with status $status, expected 2: $(cat out.txt err.txt)"
  grep -qF -- "$want" err.txt || fail "$* said '$(cat err.txt)', expected '$want'"
}

case $step in
ppn)
  [ -n "${NETT_HYDRA:-}" ] || skip "mpiexec.hydra (MPICH's launcher, package mpich) was not found"
  # loomrun finds mpiexec.hydra in PATH.
  PATH=$(dirname "$NETT_HYDRA"):$PATH
  export PATH
  run timeout 60 "$loomrun" -n 5 -ppn 2 --bind-to compact -x "LOOMT_X=it's x" ./show.sh "a b" c \
    >out.txt || fail "loomrun -n 5 -ppn 2 exited with status $?: $(cat out.txt)"
  for r in 0 1 2; do
    grep -qxF "node $r of 3: LOOM_NP=2 LOOM_JOB_NP=5 LOOM_BIND=compact X=it's x args=a b c" out.txt ||
      fail "no line for node process $r in: $(cat out.txt)"
  done
  [ "$(wc -l <out.txt)" -eq 3 ] || fail "expected 3 node processes: $(cat out.txt)"
  run timeout 60 "$loomrun" -n 3 --ppn=4 ./show.sh >out.txt || fail "loomrun -n 3 --ppn=4: $?"
  grep -qxF "node 0 of 1: LOOM_NP=4 LOOM_JOB_NP=3 LOOM_BIND= X= args=" out.txt ||
    fail "-n 3 -ppn 4 is one node process: $(cat out.txt)"
  [ "$(wc -l <out.txt)" -eq 1 ] || fail "expected 1 node process: $(cat out.txt)" ;;
launcher)
  LOOM_LAUNCHER="$work/fake.sh -launcher fork" run "$loomrun" -n 5 -ppn 2 --hosts a,b -l \
    -env LOOMT_Y "it's y" -x LOOMT_X=1 --topology "core:2 pu:1" -- ./show.sh "a b" -n >out.txt ||
    fail "loomrun with a fake launcher exited with status $?"
  want="[-launcher] [fork] [-n] [3] [-hosts] [a,b] [-l] [-genv] [LOOM_NP] [2] [-genv] [LOOM_JOB_NP] [5] [-genv] [LOOMT_Y] [it's y] [-genv] [LOOMT_X] [1] [-genv] [LOOM_TOPOLOGY] [core:2 pu:1] [./show.sh] [a b] [-n]"
  got=$(tr '\n' ' ' <out.txt)
  [ "$got" = "$want " ] || fail "the launcher got
$got
expected
$want"
  echo "localhost:2" >hosts.txt
  LOOM_LAUNCHER="$work/fake.sh" run "$loomrun" -np 4 --ranks-per-node 1 -f hosts.txt ./show.sh >out.txt ||
    fail "loomrun -f with a fake launcher exited with status $?"
  got=$(tr '\n' ' ' <out.txt)
  want="[-n] [4] [-f] [hosts.txt] [-genv] [LOOM_NP] [1] [-genv] [LOOM_JOB_NP] [4] [./show.sh] "
  [ "$got" = "$want" ] || fail "the launcher got '$got', expected '$want'"
  # LOOM_PPN stands for -ppn when the command line gives none
  LOOM_PPN=2 LOOM_LAUNCHER="$work/fake.sh" run "$loomrun" -n 4 ./show.sh >out.txt ||
    fail "loomrun with LOOM_PPN exited with status $?"
  got=$(tr '\n' ' ' <out.txt)
  want="[-n] [2] [-genv] [LOOM_NP] [2] [-genv] [LOOM_JOB_NP] [4] [./show.sh] "
  [ "$got" = "$want" ] || fail "with LOOM_PPN=2 the launcher got '$got', expected '$want'"
  LOOM_PPN=2 LOOM_LAUNCHER="$work/fake.sh" run "$loomrun" -n 4 -ppn 4 ./show.sh >out.txt ||
    fail "loomrun with LOOM_PPN and -ppn exited with status $?"
  grep -qxF "[1]" out.txt || fail "-ppn 4 did not win over LOOM_PPN=2: $(tr '\n' ' ' <out.txt)" ;;
nolauncher)
  # A PATH with the tools loomrun uses and no launcher.
  mkdir bin
  for t in sh sed awk uname tr cat sleep; do ln -s "$(command -v $t)" bin/$t; done
  refused "no PMI launcher: mpiexec.hydra (MPICH's Hydra, package mpich) is not in PATH, this is not a Slurm allocation and LOOM_LAUNCHER is not set" \
    env PATH="$work/bin" sh "$loomrun" -n 4 -ppn 2 ./show.sh
  # SLURM_JOB_ID without srun in PATH is no allocation loomrun can use
  refused "no PMI launcher" env PATH="$work/bin" SLURM_JOB_ID=1 sh "$loomrun" -n 4 -ppn 2 ./show.sh
  # Without -ppn no launcher is needed.
  env PATH="$work/bin" sh "$loomrun" -n 4 ./show.sh >out.txt || fail "loomrun -n 4 without a launcher"
  grep -qF "LOOM_NP=4" out.txt || fail "loomrun -n 4 ran: $(cat out.txt)" ;;
srun)
  # A fake srun: lists pmix among its MPI plugins when FAKE_PMIX is set, else prints its
  # arguments like fake.sh.
  mkdir bin
  cat >bin/srun <<'SRUN'
#!/bin/sh
if [ "$1" = --mpi=list ]; then
  echo "MPI plugin types are..."; echo "	none"; echo "	pmi2"; [ -z "${FAKE_PMIX:-}" ] || echo "	pmix"
  exit 0
fi
for a do echo "[$a]"; done
SRUN
  chmod +x bin/srun
  PATH=$work/bin:$PATH FAKE_PMIX=1 SLURM_JOB_ID=7 run "$loomrun" -n 5 -ppn 2 --hosts a,b -l \
    -x LOOMT_X=1 ./show.sh "a b" >out.txt || fail "loomrun under Slurm exited with status $?"
  want="[--mpi=pmix] [-n] [3] [-c] [2] [--kill-on-bad-exit=1] [-w] [a,b] [--label] [./show.sh] [a b] "
  got=$(tr '\n' ' ' <out.txt)
  [ "$got" = "$want" ] || fail "srun got '$got', expected '$want'"
  echo "a" >hosts.txt
  PATH=$work/bin:$PATH SLURM_JOB_ID=7 run "$loomrun" -n 4 -ppn 4 -f hosts.txt ./show.sh >out.txt ||
    fail "loomrun -f under Slurm exited with status $?"
  want="[--mpi=pmi2] [-n] [1] [-c] [4] [--kill-on-bad-exit=1] [-w] [./hosts.txt] [./show.sh] "
  got=$(tr '\n' ' ' <out.txt)
  [ "$got" = "$want" ] || fail "srun without PMIx got '$got', expected '$want'"
  # LOOM_LAUNCHER naming srun, outside an allocation, with options of its own
  LOOM_LAUNCHER="$work/bin/srun -O" FAKE_PMIX=1 run "$loomrun" -n 2 -ppn 1 ./show.sh >out.txt ||
    fail "loomrun with LOOM_LAUNCHER=srun exited with status $?"
  want="[-O] [--mpi=pmix] [-n] [2] [-c] [1] [--kill-on-bad-exit=1] [./show.sh] "
  got=$(tr '\n' ' ' <out.txt)
  [ "$got" = "$want" ] || fail "LOOM_LAUNCHER=srun got '$got', expected '$want'"
  # ...and the PMI flavour the user chose stands
  LOOM_LAUNCHER="$work/bin/srun --mpi=pmi2" FAKE_PMIX=1 run "$loomrun" -n 2 -ppn 2 ./show.sh >out.txt ||
    fail "loomrun with LOOM_LAUNCHER='srun --mpi=pmi2' exited with status $?"
  want="[--mpi=pmi2] [-n] [1] [-c] [2] [--kill-on-bad-exit=1] [./show.sh] "
  got=$(tr '\n' ' ' <out.txt)
  [ "$got" = "$want" ] || fail "LOOM_LAUNCHER='srun --mpi=pmi2' got '$got', expected '$want'"
  PATH=$work/bin:$PATH SLURM_JOB_ID=7 SLURM_MPI_TYPE=pmi2 FAKE_PMIX=1 run "$loomrun" -n 2 -ppn 2 \
    ./show.sh >out.txt || fail "loomrun with SLURM_MPI_TYPE exited with status $?"
  want="[-n] [1] [-c] [2] [--kill-on-bad-exit=1] [./show.sh] "
  got=$(tr '\n' ' ' <out.txt)
  [ "$got" = "$want" ] || fail "with SLURM_MPI_TYPE=pmi2 srun got '$got', expected '$want'" ;;
errors)
  refused "-ppn needs -n N" "$loomrun" -ppn 2 ./show.sh
  refused "-ppn takes a positive integer, not '0'" "$loomrun" -n 4 -ppn 0 ./show.sh
  refused "-ppn takes a positive integer, not 'x'" "$loomrun" -n 4 -ppn x ./show.sh
  refused "--ppn takes a positive integer, not ''" "$loomrun" -n 4 --ppn= ./show.sh
  refused "-n takes a positive integer, not '0'" "$loomrun" -n 0 -ppn 2 ./show.sh
  refused "-ppn (or LOOM_PPN) takes a positive integer, not 'x'" env LOOM_PPN=x "$loomrun" -n 4 \
    ./show.sh
  echo "otherhost" >hosts.txt
  refused "not both" env LOOM_LAUNCHER=true "$loomrun" -n 4 -ppn 2 --hosts a -f hosts.txt ./show.sh
  refused "LOOM_LAUNCHER names 'no-such-launcher'" env LOOM_LAUNCHER="no-such-launcher -x" \
    "$loomrun" -n 4 -ppn 2 ./show.sh
  refused "host 'otherhost': without -ppn" "$loomrun" -n 2 --hosts localhost,otherhost ./show.sh
  refused "host 'otherhost': without -ppn" "$loomrun" -n 2 -f hosts.txt ./show.sh
  printf '# this node\nlocalhost:4\n\n' >local.txt
  run "$loomrun" -n 2 -f local.txt -hosts localhost ./show.sh >out.txt || fail "local hosts refused"
  grep -qF "node none of none: LOOM_NP=2" out.txt || fail "loomrun -n 2 -f local.txt ran: $(cat out.txt)" ;;
*) fail "no step $step" ;;
esac
echo "loomrun.sh $step: ok"
