#!/bin/sh
# scripts/slurm_local.sh — a one-node Slurm cluster on this machine, for the tests that launch
# loom programs with `srun --mpi=pmix` or `srun --mpi=pmi2` (Debian 12, run as root, works
# without systemd or cgroups, e.g. in a container).
#   start   install slurmctld, slurmd, slurm-client, munge if missing, write /etc/slurm/slurm.conf,
#           start munged, slurmctld and slurmd in the background and wait until the node is
#           idle; returns at once when the cluster already runs
#   stop    stop the daemons this script started
#   status  exit 0 when `srun` can run a job
# Jobs may have more tasks than CPUs with `srun -O` (--overcommit), e.g. `srun -O -n 4 prog`.
# State, pid files and logs live in /var/spool/loom-slurm and /var/log/loom-slurm.
set -eu

conf=/etc/slurm/slurm.conf
marker='# loom-slurm-local: written by scripts/slurm_local.sh, which may rewrite it'
state=/var/spool/loom-slurm
logs=/var/log/loom-slurm
host=$(hostname -s)

die() { echo "slurm_local.sh: $*" >&2; exit 1; }
# alive PIDFILE NAME: the pid in PIDFILE runs NAME (a stale file's pid may now be another program).
alive() { [ "$(cat "/proc/$(cat "$1" 2>/dev/null)/comm" 2>/dev/null)" = "$2" ]; }
# srun that cannot hang: a job that waits for a node that never comes gives up.
srun_ok() { timeout 30 srun -N1 -n1 --immediate=20 true >/dev/null 2>&1; }

start() {
  [ "$(id -u)" = 0 ] || die "must run as root (it installs packages and starts daemons)"

  # 1. Packages. mpi_pmix.so and mpi_pmi2.so come with slurm-wlm-basic-plugins (a dependency).
  if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
     ! command -v srun >/dev/null || ! command -v munged >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update && apt-get install -y --no-install-recommends \
        slurmctld slurmd slurm-client munge; } >"${TMPDIR:-/tmp}/loom-slurm-apt.log" 2>&1 ||
      die "apt-get install of slurm and munge failed (see ${TMPDIR:-/tmp}/loom-slurm-apt.log)"
  fi

  # 2. Never overwrite a slurm.conf someone else wrote.
  if [ -f "$conf" ] && ! grep -qxF "$marker" "$conf"; then
    die "$conf exists and was not written by this script; move it away to use a local cluster"
  fi

  # 3. munge authenticates slurm's messages. The Debian package normally makes the key; make
  #    one if it did not. munged refuses a key not owned by its user, so run it as munge.
  mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge "$state/ctld" "$state/d" "$logs"
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
  fi
  chown munge:munge /etc/munge /etc/munge/munge.key /run/munge /var/lib/munge /var/log/munge
  chmod 700 /etc/munge && chmod 400 /etc/munge/munge.key
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- munged >"$logs/munged.out" 2>&1 || die "munged did not start (see $logs/munged.out)"
    touch "$state/munged.ours"   # so that stop stops only a munged this script started
  fi

  # 4. slurm.conf, unless the daemons already run with it. CPUs is read here, not fixed, so
  #    the same file suits any machine; NodeAddr 127.0.0.1 needs no name resolution.
  if ! alive "$state/slurmctld.pid" slurmctld || ! alive "$state/slurmd.pid" slurmd; then
    mkdir -p /etc/slurm
    cat >"$conf" <<EOF
$marker
ClusterName=loom
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
# No cgroups in a container: track processes by parent pid, bind nothing, account nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
# A job that can never fit (e.g. srun -n 4 on 2 CPUs without -O) fails at once, not waits forever.
EnforcePartLimits=ALL
# A node that was down (e.g. the machine restarted) comes back by itself.
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
# FORCE lets several jobs share the CPUs; srun -O lets one job have more tasks than CPUs.
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
EOF
  fi

  # 5. Daemons (each forks into the background and writes its pid file).
  alive "$state/slurmctld.pid" slurmctld || slurmctld || die "slurmctld did not start (see $logs/slurmctld.log)"
  alive "$state/slurmd.pid" slurmd || slurmd || die "slurmd did not start (see $logs/slurmd.log)"

  # 6. Wait (at most 60 s) for the node to be idle; a node left down or drained is resumed.
  i=0
  while [ $i -lt 60 ]; do
    st=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    case $st in
      idle | mixed | allocated) return 0 ;; # a trailing * would mean slurmd has not answered yet
      down* | drain* | fail*) scontrol update NodeName="$host" State=RESUME 2>/dev/null || true ;;
    esac
    sleep 1
    i=$((i + 1))
  done
  die "node $host not idle after 60 s (state '${st:-none}'; see $logs/slurmctld.log, $logs/slurmd.log)"
}

stop() {
  for d in slurmd slurmctld; do
    if alive "$state/$d.pid" $d; then kill "$(cat "$state/$d.pid")"; fi
  done
  if [ -f "$state/munged.ours" ] && alive /run/munge/munged.pid munged; then
    kill "$(cat /run/munge/munged.pid)"
  fi
  rm -f "$state/munged.ours"
  # Wait (at most 20 s) until they are gone, so that a start right after finds none.
  i=0
  while [ $i -lt 20 ] && { alive "$state/slurmd.pid" slurmd || alive "$state/slurmctld.pid" slurmctld; }; do
    sleep 1
    i=$((i + 1))
  done
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) srun_ok || die "srun cannot run a job (is the cluster started? scripts/slurm_local.sh start)" ;;
  *) die "usage: $0 start|stop|status" ;;
esac
