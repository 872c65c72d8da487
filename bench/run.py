#!/usr/bin/env python3
"""bench/run.py — build the benchmarks of bench/ against loom, MPICH and Open MPI, run them in
turn, and write a CSV, a markdown report with loom/peer ratios and PNG plots.

    python3 bench/run.py                      # full run: loom, MPICH, Open MPI, memcpy ceiling
    python3 bench/run.py --quick              # smoke test (fewer repetitions, noisy numbers)
    python3 bench/run.py --runtimes loom --sweep LOOM_EAGER_MAX=1K,4K,16K --out bench/results/eager
    python3 bench/run.py --args="-t lat -m 8" --ceiling-args="-m 8" --rounds 15 \
        --out bench/results/latency_small      # small-message latency only, many short rounds
    python3 bench/run.py --programs rma,rma_fanin,rma_ring --rounds 3 --out bench/results/rma
                                              # one-sided communication (bench/rma.c)
    python3 bench/run.py --programs net_coll --runtimes "loom,loom LOOM_PPN=4" --rounds 3
                                              # 8 ranks: 1 node process against 2 x 4

What it does, in one invocation:
  1. checks the tools (cmake, ninja, mpicc.mpich, mpiexec.mpich, mpicc.openmpi,
     mpiexec.openmpi, matplotlib); with --install it apt-get installs what is missing, else it
     prints the exact command and leaves that runtime (or the plots) out;
  2. builds loom (`cmake -S . -B build -G Ninja && cmake --build build`, only the library
     targets) unless --loom-prefix names an installed loom;
  3. builds each benchmark of PROGRAMS with each runtime's compiler into OUT/tmp/;
  4. runs them, runtime after runtime (--rounds N repeats the whole sequence and keeps the
     median of the rounds), waiting first for the machine to be quiet (--wait-idle);
  5. writes OUT/<program>.csv (runtime,test,bytes,value,unit), OUT/<program>.md and
     OUT/<program>_<test>.png.

Adding a benchmark (e.g. bench/overlap.c) is one entry in PROGRAMS; adding an MPI is one
entry in RUNTIMES. Python and matplotlib are used here only, never by loom itself.
"""
import argparse
import datetime
import os
import platform
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent

CEILING = 'ceiling'       # runtime name of the native reference programs' results

# --------------------------------------------------------------------------------------------
# The benchmarks. kind 'mpi': built with each runtime's compiler, run with `np` ranks;
# kind 'native': plain C built once with cc, run once per round as the runtime 'ceiling'.
# tests: how each CSV test reads (better: 'lower' or 'higher'; plot axes).
# reference: a native program whose tests give the ceiling (or floor) column of this
#   program's tables; compare: this program's test -> (reference test, column name).
# goals: (test, bytes, against, relation, threshold, text), checked for every loom runtime;
#   `against` is a runtime name, CEILING (the compare column) or BEST_PEER (the better of the
#   other runtimes of the report at that point: lower or higher as the test's `better`);
#   the ratio is loom/against.
# runtime_env (optional): {runtime: {VAR: value}}, settings for that runtime's runs of this
#   program only (the reports show them in the "run as" line).
# launch_extra (optional): {runtime: [args]}, launcher arguments for that runtime's runs of this
#   program only (loom's `-ppn 1`: one rank per node process).
BEST_PEER = 'best-peer'


def machine_cores():
    """Cores this process may run on, one per (package, core) pair of its allowed CPUs, so
    hardware threads of one core count once: the rank count of the "every core" programs."""
    try:
        cpus = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        return os.cpu_count() or 1
    cores = set()
    for c in cpus:
        topo = Path(f'/sys/devices/system/cpu/cpu{c}/topology')
        try:
            cores.add(((topo / 'physical_package_id').read_text().strip(),
                       (topo / 'core_id').read_text().strip()))
        except OSError:
            cores.add(('cpu', str(c)))
    return len(cores) or 1


def rma_program(np, pattern, what, goals=()):
    """bench/rma.c (one-sided communication) with `np` ranks and its -p pattern."""
    def lat(title):
        return {'better': 'lower', 'title': f'{title} ({what})', 'ylabel': 'latency (µs)',
                'logy': True, 'scale': 1.0, 'plot': False}

    def bw(title):
        return {'better': 'higher', 'title': f'{title} ({what})',
                'ylabel': 'bandwidth (GB/s, 10^9 B/s)', 'logy': False, 'scale': 1e-3}
    tests = {
        'put_lock_shared': lat('MPI_Win_lock(SHARED) + MPI_Put 8 B + flush + MPI_Win_unlock'),
        'put_lock_excl': lat('MPI_Win_lock(EXCLUSIVE) + MPI_Put 8 B + flush + MPI_Win_unlock'),
        'put_flush': lat('MPI_Put 8 B + MPI_Win_flush, in one lock_all epoch'),
        'get_lock_shared': lat('MPI_Win_lock(SHARED) + MPI_Get 8 B + flush + MPI_Win_unlock'),
        'get_lock_excl': lat('MPI_Win_lock(EXCLUSIVE) + MPI_Get 8 B + flush + MPI_Win_unlock'),
        'get_flush': lat('MPI_Get 8 B + MPI_Win_flush, in one lock_all epoch'),
        'fetch_op': lat('MPI_Fetch_and_op(MPI_SUM, long long) + MPI_Win_flush'),
        'cas': lat('MPI_Compare_and_swap(long long) + MPI_Win_flush'),
        'call_floor': lat('No MPI: two calls through pointers with the arguments of MPI_Put 8 B '
                          'and MPI_Win_flush, a store and a load (the calls\' floor)'),
        'fence': lat('MPI_Win_fence(0), no operations'),
        'lock_shared': lat('MPI_Win_lock(SHARED) + MPI_Win_unlock, no operations'),
        'lock_excl': lat('MPI_Win_lock(EXCLUSIVE) + MPI_Win_unlock, no operations'),
        'lock_all': lat('MPI_Win_lock_all + MPI_Win_unlock_all, no operations'),
        'put_bw': bw('Put bandwidth: MPI_Put + MPI_Win_flush each'),
        'put_bw_win': bw('Put bandwidth: 64 MPI_Put (fewer above 1 MiB), then one flush'),
        'acc_bw': bw('Accumulate bandwidth: MPI_Accumulate(MPI_SUM, MPI_DOUBLE) + flush'),
        'get_bw': bw('Get bandwidth: MPI_Get + MPI_Win_flush each'),
    }
    compare = {t: ('memcpy', 'memcpy ceiling') if m['better'] == 'higher'
               else ('latency_floor', 'one-copy floor') for t, m in tests.items()}
    return {
        'source': 'rma.c', 'kind': 'mpi', 'np': np,
        'args': ['-p', pattern], 'quick_args': ['-q', '-p', pattern],
        'reference': 'memcpy_ceiling', 'compare': compare, 'tests': tests,
        'goals': list(goals),
        # Open MPI 4.1 picks osc/rdma over btl/vader for MPI_Win_allocate on one node, and
        # MPI_Compare_and_swap then kills the target with a segmentation fault in
        # mca_btl_vader_poll_handle_frag (open-mpi/ompi#11349, osu_cas_latency, 4.1.1; seen
        # here with 4.1.4). osc/sm, its shared-memory component for windows whose ranks share
        # a node, works, and is the fastest it has there (it is what it picks with rdma
        # excluded).
        'runtime_env': {'openmpi': {'OMPI_MCA_osc': 'sm'}},
    }


def msgrate_program(np, what, goals=()):
    return {
        'source': 'msgrate.c', 'kind': 'mpi', 'np': np, 'args': [], 'quick_args': ['-q'],
        'tests': {'msgrate': {'better': 'higher', 'title': f'Message rate, window of 64 '
                              f'MPI_Isend ({what})', 'ylabel': 'million messages / s',
                              'logy': False, 'scale': 1.0}},
        'goals': list(goals),
    }


# Two node processes on this machine, over TCP on loopback (docs/multinode.md): loom's ranks
# in two node processes (`-ppn 1`) over libfabric's tcp provider; MPICH (ch4:ucx) over UCX's
# tcp transport with shared memory off (MPIR_CVAR_NOLOCAL: every peer treated as remote);
# Open MPI over its tcp BTL. The same transport for all three: the kernel's TCP on loopback.
NET_ENV = {'loom': {'FI_PROVIDER': 'tcp'},
           'mpich': {'UCX_TLS': 'tcp,self', 'MPIR_CVAR_NOLOCAL': '1'},
           'openmpi': {'OMPI_MCA_btl': 'tcp,self', 'OMPI_MCA_pml': 'ob1'}}
NET_LAUNCH = {'loom': ['-ppn', '1']}


def net_program(source, args, quick_args, tests, goals=()):
    return {'source': source, 'kind': 'mpi', 'np': 2, 'args': args, 'quick_args': quick_args,
            'tests': tests, 'goals': list(goals), 'runtime_env': NET_ENV,
            'launch_extra': NET_LAUNCH}


def overlap_tests(where):
    return {f'overlap_{side}': {'better': 'higher', 'ylabel': 'overlap (ratio)', 'logy': False,
                                'scale': 1.0,
                                'title': f'Overlap, {who} computing ({where})'}
            for side, who in (('sender', 'sender'), ('receiver', 'receiver'), ('both', 'both'))}


_BETTER = 'the better of MPICH and Open MPI'
PROGRAMS = {
    'pingpong': {
        'source': 'pingpong.c', 'kind': 'mpi', 'np': 2,
        'args': [], 'quick_args': ['-q'],
        'reference': 'memcpy_ceiling',
        'compare': {'bandwidth': ('memcpy', 'memcpy ceiling'),
                    'bandwidth_d': ('memcpy', 'memcpy ceiling'),
                    'latency': ('latency_floor', 'one-copy floor')},
        'tests': {
            'latency': {'better': 'lower', 'title': 'Half round-trip latency (MPI_Send/MPI_Recv)',
                        'ylabel': 'latency (µs)', 'logy': True, 'scale': 1.0},
            'bandwidth': {'better': 'higher',
                          'title': 'Streaming bandwidth (window of MPI_Isend/MPI_Irecv)',
                          'ylabel': 'bandwidth (GB/s, 10^9 B/s)', 'logy': False,
                          'scale': 1e-3},
            # only with --args=-d: each receive of a window into a buffer of its own
            'bandwidth_d': {'better': 'higher',
                            'title': 'Streaming bandwidth, distinct receive buffers (-d)',
                            'ylabel': 'bandwidth (GB/s, 10^9 B/s)', 'logy': False,
                            'scale': 1e-3},
        },
        'goals': [
            ('latency', 8, 'mpich', '<=', 0.5, '8-byte latency at most half of MPICH\'s'),
            ('bandwidth', 1 << 20, 'mpich', '>=', 1.5, '1 MiB bandwidth at least 1.5x MPICH\'s'),
            ('bandwidth', 1 << 20, CEILING, '>=', 0.8,
             '1 MiB bandwidth at least 0.8 of the memcpy ceiling'),
        ],
    },
    'memcpy_ceiling': {
        'source': 'memcpy_ceiling.c', 'kind': 'native', 'cflags': ['-pthread'],
        'args': [], 'quick_args': ['-q'],
    },
    # Collectives on 2 ranks. bench/run_coll.py runs the full matrix of these two (4 ranks
    # oversubscribed, rank counts from the machine, LOOM_PROGRESS / LOOM_SPLIT_TREE variants,
    # MPICH with MPIR_CVAR_ASYNC_PROGRESS=1, one computation size for every nbc run).
    'coll': {
        'source': 'coll.c', 'kind': 'mpi', 'np': 2, 'args': [], 'quick_args': ['--quick'],
        'tests': {f'coll_{c}': {'better': 'lower', 'title': f'MPI_{c.capitalize()} latency',
                                'ylabel': 'latency (µs)', 'logy': True, 'scale': 1.0}
                  for c in ('bcast', 'reduce', 'allreduce', 'allgather', 'alltoall')},
        # coll_barrier (0 bytes, so no log-scale plot here) is in coll.csv and run_coll.py
        'goals': [(f'coll_{c}', b, 'mpich', '<=', 1.0, f'MPI_{c.capitalize()} {b} B at most '
                   'MPICH\'s time') for c in ('bcast', 'reduce', 'allreduce', 'allgather',
                                              'alltoall') for b in (8, 1 << 22)],
    },
    # One-sided communication (bench/rma.c): 2 ranks, origin 0 on target 1, with the goals;
    # then every core, as a fan-in (all ranks but the last on the last) and as a ring (each
    # rank on the next). On a 2-core machine rma_fanin runs what rma runs.
    'rma': rma_program(2, 'pair', 'rank 0 on rank 1', goals=[
        ('put_flush', 8, BEST_PEER, '<=', 0.25, f'8-byte put+flush latency at most 0.25 of '
         f'{_BETTER}'),
        ('get_flush', 8, BEST_PEER, '<=', 0.25, f'8-byte get+flush latency at most 0.25 of '
         f'{_BETTER}'),
        ('fetch_op', 8, BEST_PEER, '<=', 0.25, f'MPI_Fetch_and_op+flush latency at most 0.25 '
         f'of {_BETTER}'),
        ('put_bw', 1 << 20, BEST_PEER, '>=', 1.5, f'1 MiB put bandwidth (put+flush) at least '
         f'1.5x {_BETTER}'),
        ('put_bw', 1 << 20, CEILING, '>=', 0.8,
         '1 MiB put bandwidth (put+flush) at least 0.8 of the memcpy ceiling'),
    ]),
    'rma_fanin': rma_program(machine_cores(), 'fanin',
                             f'{machine_cores()} ranks: ranks 0..N-2 on rank N-1'),
    'rma_ring': rma_program(machine_cores(), 'ring',
                            f'{machine_cores()} ranks: each rank on rank+1'),
    # Message rate (bench/msgrate.c, like osu_mbw_mr): a window of 64 MPI_Isend per pair,
    # 8 B .. 4 KiB; one pair, then one rank per core (half of them sending). On a 2-core
    # machine msgrate_cores runs what msgrate runs.
    'msgrate': msgrate_program(2, 'one pair', goals=[
        ('msgrate', b, 'mpich', '>=', 2.0, f'{b}-byte message rate at least 2x MPICH\'s')
        for b in (8, 64, 1024)]),
    'msgrate_cores': msgrate_program(max(2, machine_cores() // 2 * 2),
                                     f'{max(1, machine_cores() // 2)} pair(s), a rank per core'),
    # Two node processes over TCP (NET_ENV): ping-pong latency and bandwidth, and overlap.
    'net_pingpong': net_program(
        'pingpong.c', [], ['-q'],
        {'latency': {'better': 'lower', 'logy': True, 'scale': 1.0, 'ylabel': 'latency (µs)',
                     'title': 'Half round-trip latency, 2 node processes over TCP'},
         'bandwidth': {'better': 'higher', 'logy': False, 'scale': 1e-3,
                       'ylabel': 'bandwidth (GB/s, 10^9 B/s)',
                       'title': 'Streaming bandwidth, 2 node processes over TCP'}},
        goals=[(t, b, BEST_PEER, rel, 1.0, f'{what} at {b} B at least as good as {_BETTER}')
               for t, rel, what, sizes in (('latency', '<=', 'latency', (8, 1024, 65536,
                                                                           1 << 20, 1 << 22)),
                                           ('bandwidth', '>=', 'bandwidth', (65536, 1 << 20,
                                                                             1 << 22)))
               for b in sizes]),
    # The halo step (bench/halo.c: MPI_Irecv from both neighbours, two blocking MPI_Send,
    # MPI_Waitall) between 2 node processes over TCP, and between 2 ranks of one node.
    'net_halo': net_program(
        'halo.c', [], ['-q'],
        {'halo': {'better': 'lower', 'logy': True, 'scale': 1.0, 'ylabel': 'time per step (µs)',
                  'title': 'Halo step, 2 node processes over TCP'}},
        goals=[('halo', b, BEST_PEER, '<=', 1.0, f'halo step at {b} B at most {_BETTER}\'s')
               for b in (8, 4096)]),
    'halo': {
        'source': 'halo.c', 'kind': 'mpi', 'np': 2, 'args': [], 'quick_args': ['-q'],
        'tests': {'halo': {'better': 'lower', 'logy': True, 'scale': 1.0,
                           'ylabel': 'time per step (µs)', 'title': 'Halo step, 2 ranks'}},
        'goals': [],
    },
    'net_overlap': net_program(
        'overlap.c', [], ['-q'], overlap_tests('2 node processes over TCP'),
        goals=[('overlap_receiver', 1 << 20, BEST_PEER, '>=', 1.0,
                f'receiver-side overlap at 1 MiB at least {_BETTER}\'s')]),
    # One-sided communication between 2 node processes over TCP (bench/rma.c, origin 0 on
    # target 1): loom's operations are messages carried out by the target's node process
    # (docs/multinode.md, "One-sided communication across node processes"); MPICH's go
    # through UCX's tcp transport; Open MPI's through osc/pt2pt over the tcp BTL (left to
    # itself it picks osc/sm, shared memory, for two processes of one host).
    'net_rma': dict(rma_program(2, 'pair', 'rank 0 on rank 1, 2 node processes over TCP'),
                    runtime_env=dict(NET_ENV, openmpi=dict(NET_ENV['openmpi'],
                                                           OMPI_MCA_osc='pt2pt')),
                    launch_extra=NET_LAUNCH, reference=None, compare={}),
    # What the network level costs a collective: 8 ranks as 1 node process of 8 (every
    # collective in shared memory or as point-to-point between threads) against 2 node
    # processes of 4 over TCP on loopback. Run as
    #   --programs net_coll --runtimes "loom,loom LOOM_PPN=4"
    # (loomrun takes LOOM_PPN as -ppn), so both shapes are one report with their ratio.
    'net_coll': {
        'source': 'coll.c', 'kind': 'mpi', 'np': 8, 'args': [], 'quick_args': ['--quick'],
        'tests': {f'coll_{c}': {'better': 'lower',
                                'title': f'MPI_{c.capitalize()} latency, 8 ranks',
                                'ylabel': 'latency (µs)', 'logy': True, 'scale': 1.0}
                  for c in ('bcast', 'reduce', 'allreduce', 'allgather', 'alltoall', 'gather',
                            'scatter')},
        'goals': [], 'runtime_env': {'loom': {'FI_PROVIDER': 'tcp'}},
    },
    'nbc': {
        'source': 'nbc.c', 'kind': 'mpi', 'np': 2, 'args': [], 'quick_args': ['--quick'],
        'tests': {f'nbc_{c}_{m}_n2': {'better': 'higher' if m == 'overlap' else 'lower',
                                      'title': f'MPI_I{c[1:]}, 2 MiB: {m}', 'logy': False,
                                      'ylabel': 'ratio' if m == 'overlap' else 'time (µs)',
                                      'scale': 1.0}
                  for c in ('ibcast', 'ireduce', 'iallreduce', 'iscan')
                  for m in ('t_blocking', 't_nonblocking', 't_comp', 't_overlapped',
                            'overlap')},
    },
}

# The runtimes. cc: compiler command; launch: launcher, '{np}' replaced by the rank count;
# apt: Debian packages that provide them. loom's entries are filled in by setup_loom().
# No OMPI_MCA_* setting is needed on the machines tried so far (root needs
# --allow-run-as-root; --oversubscribe only matters when ranks outnumber cores), except for the
# one-sided programs (rma*: their runtime_env in PROGRAMS).
RUNTIMES = {
    'loom': {'label': 'loom', 'cc': None, 'launch': None, 'apt': [], 'env': {}},
    'mpich': {'label': 'MPICH', 'cc': ['mpicc.mpich'],
              'launch': ['mpiexec.mpich', '-n', '{np}', '-bind-to', 'core'],
              'apt': ['mpich', 'libmpich-dev'], 'env': {}},
    'openmpi': {'label': 'Open MPI', 'cc': ['mpicc.openmpi'],
                'launch': ['mpiexec.openmpi', '--allow-run-as-root', '--oversubscribe',
                           '--bind-to', 'core', '-n', '{np}'],
                'apt': ['openmpi-bin', 'libopenmpi-dev'], 'env': {}},
}
# loom settings left out of the report (not about point-to-point performance).
SKIP_CONFIG = ('LOOM_NP', 'LOOM_TOPOLOGY', 'LOOM_TRACE', 'LOOM_STATS', 'LOOM_WARN_UNFINALIZED',
               'LOOM_COLL_', 'LOOM_SPLIT_TREE')
CFLAGS = ['-O2']          # the same optimization for every runtime's build of a benchmark
QUIET = 0.10              # cores other processes may use during a run that counts as quiet


def log(msg):
    print(f'[bench] {msg}', file=sys.stderr, flush=True)


def fmt_cmd(cmd, env=None):
    pre = ' '.join(f'{k}={shlex.quote(v)}' for k, v in (env or {}).items())
    return (pre + ' ' if pre else '') + shlex.join(str(c) for c in cmd)


def run_cmd(cmd, **kw):
    log('$ ' + fmt_cmd(cmd))
    return subprocess.run([str(c) for c in cmd], **kw)


# --------------------------------------------------------------------------------------------
# Tools and packages

def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False


def maybe_reexec_for_matplotlib():
    """A pyenv/venv python3 may lack Debian's python3-matplotlib: rerun under /usr/bin/python3
    when that one has it."""
    syspy = Path('/usr/bin/python3')
    if have_matplotlib() or os.environ.get('LOOM_BENCH_REEXEC') or not syspy.exists():
        return
    if Path(sys.executable).resolve() == syspy.resolve():
        return
    if subprocess.run([str(syspy), '-c', 'import matplotlib'],
                      capture_output=True).returncode == 0:
        log(f'{sys.executable} has no matplotlib; rerunning under {syspy}')
        os.environ['LOOM_BENCH_REEXEC'] = '1'
        os.execv(str(syspy), [str(syspy), str(Path(__file__).resolve())] + sys.argv[1:])


def deb_installed(pkg):
    """True when dpkg says the package is installed, or when there is no dpkg to ask."""
    if not shutil.which('dpkg-query'):
        return True
    r = subprocess.run(['dpkg-query', '-W', '-f=${Status}', pkg], capture_output=True,
                       text=True)
    return r.returncode == 0 and r.stdout.strip() == 'install ok installed'


def check_tools(runtimes, want_plots, install, need_cmake):
    """Returns (runtimes that can run, plots possible). Installs or prints the apt command."""
    missing = {}   # package -> why
    for rt in runtimes:
        spec = RUNTIMES[rt.split(' ', 1)[0]]
        for cmd in (spec['cc'] or [])[:1] + (spec['launch'] or [])[:1]:
            if not shutil.which(cmd):
                for p in spec['apt']:
                    missing[p] = cmd
        # Debian's mpich package brings mpicc.mpich without mpi.h (libmpich-dev has it), so
        # the commands alone do not tell that a runtime can build.
        for p in spec['apt']:
            if not deb_installed(p):
                missing.setdefault(p, p)
    if need_cmake:
        for cmd, pkg in (('cmake', 'cmake'), ('ninja', 'ninja-build'), ('cc', 'gcc')):
            if not shutil.which(cmd):
                missing[pkg] = cmd
    if not shutil.which('cc'):
        missing['gcc'] = 'cc'
    if want_plots and not have_matplotlib():
        missing['python3-matplotlib'] = 'matplotlib'
    if missing:
        pkgs = sorted(missing)
        sudo = [] if os.geteuid() == 0 else ['sudo']
        cmd = sudo + ['apt-get', 'install', '-y'] + pkgs
        if install:
            run_cmd(sudo + ['apt-get', 'update'], check=False)
            if run_cmd(cmd).returncode != 0:
                sys.exit('bench: apt-get install failed')
            if 'python3-matplotlib' in missing:
                maybe_reexec_for_matplotlib()
        else:
            log('missing: ' + ', '.join(f'{w} ({p})' for p, w in sorted(missing.items())))
            log('install them with:  ' + fmt_cmd(cmd) + '   (or rerun with --install)')
    usable = []
    for rt in runtimes:
        spec = RUNTIMES[rt.split(' ', 1)[0]]
        cmds = (spec['cc'] or [])[:1] + (spec['launch'] or [])[:1]
        if all(shutil.which(c) for c in cmds):
            usable.append(rt)
        else:
            log(f'leaving out {rt}: ' + ', '.join(c for c in cmds if not shutil.which(c))
                + ' not found')
    return usable, want_plots and have_matplotlib()


# --------------------------------------------------------------------------------------------
# loom: build it, find its compiler wrapper and launcher

def loom_fallback_cc(incdir, libdir):
    # What loomcc does (tools/loomcc), for trees that do not have it yet.
    return ['cc', f'-I{incdir}', '{src}', f'-L{libdir}', f'-Wl,-rpath,{libdir}',
            '-lloom-main', '-lloom', '-lpthread']


def setup_loom(args, info):
    """Fills RUNTIMES['loom'] cc/launch; records how loom was built in info."""
    spec = RUNTIMES['loom']
    if args.loom_prefix:
        prefix = Path(args.loom_prefix).resolve()
        bindir = prefix / 'bin'
        libdir = next((prefix / d for d in ('lib', 'lib64', 'lib/x86_64-linux-gnu')
                       if (prefix / d / 'libloom.so').exists()), prefix / 'lib')
        incdir = prefix / 'include'
        info['loom build'] = f'installed prefix {prefix}'
    else:
        build = Path(args.loom_build)
        if not build.is_absolute():
            build = REPO / build
        bindir, libdir, incdir = build / 'bin', build / 'src', REPO / 'include'
        if not (build / 'CMakeCache.txt').exists():
            cfg = ['cmake', '-S', REPO, '-B', build, '-G', 'Ninja']
            if run_cmd(cfg).returncode != 0:
                # Half-written tests must not stop a benchmark of the library.
                log('configure failed; retrying without the tests')
                if run_cmd(cfg + ['-DBUILD_TESTING=OFF']).returncode != 0:
                    sys.exit('bench: cannot configure loom')
        if run_cmd(['cmake', '--build', build]).returncode:
            # Some half-written test may not compile: build only what a program needs (the
            # library, loom's main, the tools such as loomcc's GCC plugin).
            help_out = subprocess.run(['cmake', '--build', str(build), '--target', 'help'],
                                      capture_output=True, text=True).stdout
            known = set(re.findall(r'^(\S+): \w', help_out, re.M)) | set(
                re.findall(r'^\.\.\. (\S+)', help_out, re.M))
            targets = ['loom', 'loom_main'] + sorted(
                t for t in known if t.startswith('loom-') or t.startswith('loom_privatize'))
            log('full build failed; building only ' + ' '.join(targets))
            if run_cmd(['cmake', '--build', build, '--target'] + targets).returncode:
                sys.exit(f'bench: cannot build loom in {build}')
        cache = (build / 'CMakeCache.txt').read_text(errors='replace')
        bt = re.search(r'^CMAKE_BUILD_TYPE:\w+=(.*)$', cache, re.M)
        info['loom build'] = (f'{build} (CMAKE_BUILD_TYPE={(bt.group(1) if bt else "") or "default: RelWithDebInfo, -O2 -g"})')
    loomcc = bindir / 'loomcc'
    if loomcc.exists():
        spec['cc'] = [str(loomcc)]
    else:
        log(f'{loomcc} not found; linking by hand as loomcc would')
        spec['cc'] = loom_fallback_cc(incdir, libdir)
    loomrun = bindir / 'loomrun'
    if not loomrun.exists():
        sys.exit(f'bench: {loomrun} not found')
    spec['launch'] = [str(loomrun), '-n', '{np}']
    spec['info'] = bindir / 'loom-info'


# --------------------------------------------------------------------------------------------
# Building and running

def compile_cmd(cc, src, out, extra):
    cc = list(cc)
    if '{src}' in cc:   # fallback form: the source goes before the libraries
        i = cc.index('{src}')
        return cc[:i] + CFLAGS + extra + [str(src), '-o', str(out)] + cc[i + 1:]
    return cc + CFLAGS + extra + [str(src), '-o', str(out)]


def build_all(programs, runtimes, tmp, info):
    """Returns {(program, runtime): executable}; runtime CEILING for native programs."""
    exes = {}
    for name in programs:
        prog = PROGRAMS[name]
        src = BENCH / prog['source']
        if prog['kind'] == 'native':
            out = tmp / name
            cmd = ['cc'] + CFLAGS + prog.get('cflags', []) + [str(src), '-o', str(out)]
            if run_cmd(cmd).returncode != 0:
                sys.exit(f'bench: cannot build {name}')
            exes[(name, CEILING)] = out
            info['build'].append(fmt_cmd(cmd))
            continue
        built = set()
        for rt in runtimes:
            base = rt.split(' ', 1)[0]
            if base in built:      # variants of one runtime share the executable
                exes[(name, rt)] = exes[(name, base + '*')]
                continue
            out = tmp / f'{name}.{base}'
            cmd = compile_cmd(RUNTIMES[base]['cc'], src, out, prog.get('cflags', []))
            if run_cmd(cmd).returncode != 0:
                sys.exit(f'bench: cannot build {name} with {base}')
            exes[(name, rt)] = exes[(name, base + '*')] = out
            built.add(base)
            info['build'].append(fmt_cmd(cmd))
    return exes


def tmp_dir(out):
    """Where build products and raw logs go: OUT/tmp, except for an OUT inside bench/results
    (e.g. bench/results/eager), whose products go to bench/results/tmp/eager, the folder that
    git ignores."""
    results = BENCH / 'results'
    try:
        rel = out.resolve().relative_to(results)
    except ValueError:
        return out / 'tmp'
    return results / 'tmp' / rel if str(rel) != '.' else results / 'tmp'


def cpu_times():
    """(busy, total) jiffies over all CPUs, from /proc/stat."""
    try:
        with open('/proc/stat') as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


def jiffy():
    return os.sysconf('SC_CLK_TCK') if hasattr(os, 'sysconf') else 100


def wait_quiet(limit):
    """Wait (up to `limit` s) until other processes use less than 0.15 core. Returns the last
    measured load in cores."""
    start = time.time()
    while True:
        b0, _ = cpu_times()
        time.sleep(0.5)
        b1, _ = cpu_times()
        load = (b1 - b0) / jiffy() / 0.5
        if load < 0.15 or time.time() - start >= limit:
            return load
        if limit:
            log(f'machine busy ({load:.2f} cores used by others); waiting')
            time.sleep(2)


def run_one(cmd, env_extra, timeout, rawlog):
    """Runs cmd; returns (rc, stdout, stderr, wall s, cores used by others meanwhile)."""
    env = dict(os.environ)
    env.update(env_extra)
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    b0, _ = cpu_times()
    t0 = time.time()
    log('$ ' + fmt_cmd(cmd, env_extra))
    try:
        p = subprocess.run([str(c) for c in cmd], env=env, capture_output=True, text=True,
                           timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = 124, (e.stdout or b'').decode() if isinstance(e.stdout, bytes) else (
            e.stdout or ''), f'timed out after {timeout} s'
    wall = time.time() - t0
    b1, _ = cpu_times()
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    ours = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    # /proc/stat counts in clock ticks, sampled per CPU: over a run its busy time is off by
    # up to a tick per CPU at each end, while our own time (rusage) is exact. Only what
    # exceeds that error counts: a 0.1 s run would otherwise read 0.2-0.4 cores of "others"
    # with nothing else running.
    slack = 2 * (os.cpu_count() or 1) / jiffy()
    others = max(0.0, (b1 - b0) / jiffy() - ours - slack) / wall if wall > 0 else 0.0
    rawlog.write_text(f'$ {fmt_cmd(cmd, env_extra)}\n# rc {rc}, {wall:.1f} s\n{out}\n'
                      f'# stderr\n{err}')
    return rc, out, err, wall, others


PROBE = 'memcpy_ceiling'   # built in every invocation; `-p` is the phase probe
PHASE_SPREAD = 1.25       # probes of two runs this close (max / min) put them in one phase


def probe_phase(exe, timeout=10):
    """The machine's core-to-core latency now, in ns (`memcpy_ceiling -p`: its 0 B one-flag
    ping-pong, a few milliseconds), or None if it cannot say. A virtual machine's host moves
    its vCPUs between placements from one minute to the next, and small-message figures move
    with this number by a factor of 3 to 6: runs compared across phases compare placements."""
    if exe is None:
        return None
    try:
        p = subprocess.run([str(exe), '-p'], capture_output=True, text=True, timeout=timeout)
    except (subprocess.TimeoutExpired, OSError):
        return None
    data, _, _ = parse_csv(p.stdout) if p.returncode == 0 else ({}, {}, [])
    v = data.get('latency_floor', {}).get(0)
    return None if v is None else v * 1000.0


def same_phase(*runs):
    """True if every probe of these runs (before and after each) is known and within
    PHASE_SPREAD of the others: the runs were all made in one phase of the machine."""
    probes = [v for r in runs for v in (r or {}).get('probe', (None, None))]
    if not probes or any(v is None or v <= 0 for v in probes):
        return False
    return max(probes) / min(probes) <= PHASE_SPREAD


def fmt_probe(r):
    pb, pa = (r or {}).get('probe', (None, None))
    return '–' if pb is None or pa is None else f'{pb:.0f} / {pa:.0f}'


def parse_csv(text):
    """Returns ({test: {bytes: value}}, {test: unit}, [comment lines])."""
    data, units, notes = {}, {}, []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith('#'):
            notes.append(line[1:].strip())
            continue
        parts = line.split(',')
        if len(parts) != 4 or parts[0] == 'test':
            continue
        try:
            b, v = int(parts[1]), float(parts[2])
        except ValueError:
            continue
        data.setdefault(parts[0], {})[b] = v
        units[parts[0]] = parts[3]
    return data, units, notes


# --------------------------------------------------------------------------------------------
# Machine description

def read(path):
    try:
        return Path(path).read_text(errors='replace')
    except OSError:
        return ''


def first_line(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (p.stdout or p.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return 'not found'


def machine_info():
    cpu = read('/proc/cpuinfo')
    model = re.search(r'^model name\s*:\s*(.*)$', cpu, re.M)
    cores = {(m[0], m[1]) for m in re.findall(
        r'^physical id\s*:\s*(\d+)\s*$.*?^core id\s*:\s*(\d+)', cpu, re.M | re.S)}
    hyper = 'hypervisor' in cpu
    mem = re.search(r'^MemTotal:\s*(\d+)', read('/proc/meminfo'), re.M)
    info = {
        'CPU': (model.group(1).strip() if model else platform.processor())
        + (' (virtual machine)' if hyper else ''),
        'cores / PUs': f'{len(cores) or "?"} / {os.cpu_count()}',
        'memory': f'{int(mem.group(1)) / 1048576:.1f} GiB' if mem else '?',
        'kernel': f'{platform.system()} {platform.release()}',
        'C compiler': first_line(['cc', '--version']),
    }
    caches = []
    for idx in sorted(Path('/sys/devices/system/cpu/cpu0/cache').glob('index*')):
        lvl, typ, size = (read(idx / f).strip() for f in ('level', 'type', 'size'))
        if typ != 'Instruction':
            caches.append(f'L{lvl} {size}')
    if caches:
        info['caches (cpu0)'] = ', '.join(caches)
    return info


def runtime_versions(runtimes):
    v = {}
    if any(r.startswith('mpich') for r in runtimes):
        line = first_line(['mpichversion'])
        dev = subprocess.run(['mpichversion'], capture_output=True, text=True).stdout \
            if shutil.which('mpichversion') else ''
        m = re.search(r'MPICH Device:\s*(\S+)', dev)
        v['mpich'] = re.sub(r'\s+', ' ', line) + (f', device {m.group(1)}' if m else '')
    if any(r.startswith('openmpi') for r in runtimes):
        v['openmpi'] = first_line(['mpiexec.openmpi', '--version'])
    if any(r.startswith('loom') for r in runtimes):
        commit = subprocess.run(['git', '-C', str(REPO), 'rev-parse', '--short', 'HEAD'],
                                capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(['git', '-C', str(REPO), 'status', '--porcelain', '--',
                                'src', 'include'], capture_output=True, text=True).stdout
        v['loom'] = f'git {commit or "?"}' + (' + uncommitted changes in src/ or include/'
                                                if dirty.strip() else '')
        # The settings in effect for the loom runs (--env included), from loom-info.
        li = RUNTIMES['loom'].get('info')
        if li and Path(li).exists():
            env = dict(os.environ)
            env.update(RUNTIMES['loom']['env'])
            cfg = subprocess.run([str(li), '--config'], capture_output=True, text=True,
                                 env=env).stdout
            v['loom config'] = ', '.join(f'{k}={val.strip(chr(34))}' for k, val in re.findall(
                r'^(LOOM_\w+) = (\S*)', cfg, re.M) if not k.startswith(SKIP_CONFIG))
    return v


# --------------------------------------------------------------------------------------------
# Report

def fmt_val(v, unit):
    if v is None:
        return '–'
    if unit == 'us':
        return f'{v:.3f}' if v < 10 else f'{v:.1f}'
    if unit == 'Mmsg/s':
        return f'{v:.3f}' if v < 10 else f'{v:.2f}'
    if unit == 'ratio':  # overlap and the like: 0..1, where 0.57 must not print as 1
        return f'{v:.2f}'
    return f'{v:,.0f}'


def fmt_bytes(b):
    for unit, k in (('MiB', 1 << 20), ('KiB', 1 << 10)):
        if b >= k and b % k == 0:
            return f'{b // k} {unit}'
    return f'{b} B'


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def is_loom(rt):
    return rt.split(' ', 1)[0] == 'loom'


def write_report(name, args, runtimes, final, units, notes, ceiling, cunits, runs, info,
                 versions, plots, out):
    prog = PROGRAMS[name]
    labels = {rt: label_of(rt) for rt in runtimes}
    subjects = [rt for rt in runtimes if is_loom(rt)] or runtimes[:1]
    peers = [rt for rt in runtimes if rt not in subjects]

    # CSV with every number.
    lines = ['runtime,test,bytes,value,unit']
    for rt in runtimes:
        for test, vals in final.get(rt, {}).items():
            for b in sorted(vals):
                lines.append(f'{rt},{test},{b},{vals[b]:.6g},{units[rt].get(test, "")}')
    for test, vals in ceiling.items():
        for b in sorted(vals):
            lines.append(f'{CEILING},{test},{b},{vals[b]:.6g},{cunits.get(test, "")}')
    (out / f'{name}.csv').write_text('\n'.join(lines) + '\n')

    md = [f'# {name}: loom vs ' + (', '.join(labels[p] for p in peers) or 'itself'), '']
    md.append(f'Generated by `bench/run.py` on {datetime.datetime.now():%Y-%m-%d %H:%M}. '
              'Do not edit by hand: rerun it.')
    md += ['', '## Command', '', '```', info['command'], '```', '', '## Machine', '']
    for k, v in info['machine'].items():
        md.append(f'- {k}: {v}')
    md += ['', '## Runtimes', '']
    for rt in runtimes:
        base = rt.split(' ', 1)[0]
        lib = next((n[len('library: '):] for n in notes.get(rt, []) if n.startswith('library: ')),
                   None)
        env = (RUNTIMES[base]['env'] | prog.get('runtime_env', {}).get(base, {})
               | variant_env(rt))
        launch = ([a.replace('{np}', str(prog['np'])) for a in RUNTIMES[base]['launch']]
                  + prog.get('launch_extra', {}).get(base, []))
        md.append(f'- **{labels[rt]}**: {versions.get(base, "")}'
                  + (f'; MPI_Get_library_version: `{lib}`' if lib else '')
                  + f'; run as `{fmt_cmd(launch + ["./" + name], env)}`')
    if 'loom build' in info:
        md.append(f'- loom built from {info["loom build"]}')
    if versions.get('loom config'):
        md.append(f'- loom settings in effect (`loom-info --config`): {versions["loom config"]}')
    md += ['', 'Build commands:', '', '```'] + info['build'] + ['```', '']
    md += ['## How to read the tables', '',
           f'Each value is the median over the rounds ({args.rounds} in all) of the program, '
           'counting only the quiet rounds when there are any (see "Runs" below), of each '
           'round\'s value, itself the median of its timed runs (see the comment at the top of '
           f'`bench/{prog["source"]}`); the ceiling and floor columns are the best of their '
           'quiet rounds (a best case), each round\'s value being the median of its runs (see '
           f'`bench/{PROGRAMS.get(prog.get("reference"), prog)["source"]}`). '
           'A ratio is loom / other: below 1 is better for '
           'latency, above 1 is better for bandwidth.', '']

    for test, meta in prog['tests'].items():
        unit = next((units[rt][test] for rt in runtimes if test in units.get(rt, {})), '')
        sizes = sorted({b for rt in runtimes for b in final.get(rt, {}).get(test, {})})
        if not sizes:
            continue
        cref, cname = prog.get('compare', {}).get(test, (None, None))
        cvals = ceiling.get(cref, {}) if cref else {}
        head = ['bytes'] + [f'{labels[rt]} ({unit})' for rt in runtimes]
        if cvals:
            head.append(f'{cname} ({cunits.get(cref, unit)})')
        pairs = [(s, p) for s in subjects for p in peers]
        head += [f'{labels[s]}/{labels[p]}' for s, p in pairs]
        if cvals:
            head += [f'{labels[s]}/{cname.split()[-1]}' for s in subjects]
        md += [f'## {meta["title"]}', '', '| ' + ' | '.join(head) + ' |',
               '|' + '---:|' * len(head)]
        for b in sizes:
            get = lambda rt: final.get(rt, {}).get(test, {}).get(b)  # noqa: E731
            row = [fmt_bytes(b)] + [fmt_val(get(rt), unit) for rt in runtimes]
            if cvals:
                row.append(fmt_val(cvals.get(b), unit))
            row += [fmt_ratio(ratio(get(s), get(p))) for s, p in pairs]
            if cvals:
                row += [fmt_ratio(ratio(get(s), cvals.get(b))) for s in subjects]
            md.append('| ' + ' | '.join(row) + ' |')
        md.append('')
        if plots and meta.get('plot', True):   # 'plot': False for a test of one size
            png = plot(name, test, meta, runtimes, labels, final, cvals, cname, out, info)
            md += [f'![{test}]({png.name})', '']

    goals = [g for g in prog.get('goals', [])]
    rows = []
    if goals and subjects:
        for test, b, against, rel, thr, text in goals:
            for s in subjects:
                a = final.get(s, {}).get(test, {}).get(b)
                which = ''
                if against == CEILING:
                    ref = ceiling.get(prog['compare'][test][0], {}).get(b)
                elif against == BEST_PEER:
                    ref, best = best_peer(prog, test, {p: final.get(p, {}).get(test, {}).get(b)
                                                       for p in peers})
                    which = f' (against {labels[best]})' if best else ''
                else:
                    ref = final.get(against, {}).get(test, {}).get(b)
                r = ratio(a, ref)
                if ref is None:
                    continue   # that peer was not run
                ok = None if r is None else (r <= thr if rel == '<=' else r >= thr)
                same = '–'
                if against != CEILING:
                    pr, n = same_phase_ratio(name, prog, runs, test, b, s, against, peers)
                    same = f'{fmt_ratio(pr)} ({n} rounds)' if n else 'no round'
                rows.append(f'| {text} (ratio {rel} {thr}) | {labels[s]} | {fmt_ratio(r)}{which} | '
                            + ('–' if ok is None else 'yes' if ok else '**no**')
                            + f' | {same} |')
    if rows:
        md += ['## Goals', '',
               'The measured ratio is of the medians over rounds. The same-phase ratio is the '
               'median of the per-round ratios over the rounds whose two runs were made in one '
               'phase of the machine (the probes before and after each run agree, see the '
               'round-by-round tables): on a virtual machine whose core-to-core latency moves '
               'between placements, it is the one that compares runtimes rather than '
               'placements.', '',
               '| goal | runtime | measured ratio | met? | same-phase ratio |',
               '|---|---|---:|---|---:|'] + rows + ['']
        md += goal_rounds(name, prog, goals, subjects, labels, runs, units)

    md += ['## Runs', '',
           'Wall time of each run and the CPU that other processes used meanwhile (in cores, '
           'from /proc/stat minus the run\'s own CPU time). A run with others above '
           f'{QUIET} is disturbed (⚠); when a runtime has quiet runs, only those count '
           '(column "used").', '',
           '| round | runtime | rc | wall (s) | others (cores) | used | probe before / after (ns) |',
           '|---:|---|---:|---:|---:|---|---:|']
    for r in runs:
        if r['program'] in (name, prog.get('reference')):
            flag = ' ⚠' if r['others'] > QUIET else ''
            md.append(f'| {r["round"]} | {labels.get(r["runtime"], r["runtime"])} '
                      f'({r["program"]}) | {r["rc"]} | {r["wall"]:.1f} | '
                      f'{r["others"]:.2f}{flag} | {"yes" if r.get("used") else "no"} | '
                      f'{fmt_probe(r)} |')
    md.append('')
    (out / f'{name}.md').write_text(report_text(md))
    log(f'wrote {out / (name + ".md")} and {out / (name + ".csv")}')


def best_peer(prog, test, values):
    """(value, runtime) of the better of `values` ({runtime: value or None}) for `test`: the
    lowest for a test whose lower is better, else the highest; (None, None) if none."""
    have = {rt: v for rt, v in values.items() if v is not None}
    if not have:
        return None, None
    pick = min if prog['tests'].get(test, {}).get('better') == 'lower' else max
    rt = pick(have, key=have.get)
    return have[rt], rt


def goal_rounds(name, prog, goals, subjects, labels, runs, units):
    """The values behind each goal, round by round, with the reference program's value of the
    same round: a virtual machine's speed changes from one minute to the next (the floor
    column shows it), so a round of loom and a round of its peer can fall in different
    phases; the per-round ratios show how much the goal's ratio depends on that."""
    rounds = sorted({r['round'] for r in runs if r['program'] == name})
    ref = prog.get('reference')
    peers = [rt for rt in labels if rt not in subjects]
    md = []
    for test, b, against, rel, thr, text in goals:
        if against == CEILING:
            continue   # the ceiling is a best case over rounds already
        cref, cname = prog.get('compare', {}).get(test, (None, None))
        alabel = ('better of ' + ', '.join(labels[p] for p in peers) if against == BEST_PEER
                  else labels.get(against, against))
        for s in subjects:
            unit = units.get(s, {}).get(test, '')
            head = ['round', labels[s], alabel, f'{labels[s]}/{alabel}',
                    f'probe {labels[s]} (ns)', f'probe {alabel} (ns)']
            if cref:
                head.append(cname)
            lines, paired = [], []
            for rnd, a, p, ra, rp in round_pairs(name, prog, runs, rounds, test, b, s,
                                                 against, peers):
                if a is None and p is None:
                    continue
                one = same_phase(ra, rp)
                if one and ratio(a, p) is not None:
                    paired.append(ratio(a, p))
                row = [str(rnd), fmt_val(a, unit), fmt_val(p, unit),
                       fmt_ratio(ratio(a, p)) + ('' if one else ' ≠'),
                       fmt_probe(ra), fmt_probe(rp)]
                if cref:
                    row.append(fmt_val(run_value(runs, ref, CEILING, rnd, cref, b), unit))
                lines.append('| ' + ' | '.join(row) + ' |')
            if lines:
                md += [f'Round by round: {text} ({labels[s]}; {unit})', '',
                       '| ' + ' | '.join(head) + ' |', '|' + '---:|' * len(head)] + lines
                md += ['', f'Rounds whose two runs were in one phase of the machine (every '
                       f'probe within {PHASE_SPREAD}x of the others; ≠ marks the others): '
                       f'{len(paired)} of {len(lines)}'
                       + (f', median ratio {fmt_ratio(statistics.median(paired))}.' if paired
                          else '.'), '']
    return md


def run_of(runs, program, rt, rnd):
    """The record of one run (program, runtime, round) that produced data, or None."""
    for r in runs:
        if (r['program'], r['runtime'], r['round']) == (program, rt, rnd) and 'data' in r:
            return r
    return None


def run_value(runs, program, rt, rnd, test, b):
    r = run_of(runs, program, rt, rnd)
    return None if r is None else r['data'].get(test, {}).get(b)


def round_pairs(name, prog, runs, rounds, test, b, subject, against, peers):
    """Per round: (round, subject's value, the other's value, subject's run, other's run),
    the other being `against` or, for BEST_PEER, the better peer of that round."""
    out = []
    for rnd in rounds:
        a = run_value(runs, name, subject, rnd, test, b)
        if against == BEST_PEER:
            other = best_peer(prog, test, {rt: run_value(runs, name, rt, rnd, test, b)
                                           for rt in peers})[1]
        else:
            other = against
        p = run_value(runs, name, other, rnd, test, b) if other else None
        out.append((rnd, a, p, run_of(runs, name, subject, rnd),
                    run_of(runs, name, other, rnd) if other else None))
    return out


def same_phase_ratio(name, prog, runs, test, b, subject, against, peers):
    """(median of the per-round ratios over the rounds whose two runs were in one phase, how
    many such rounds); (None, 0) when there are none."""
    rounds = sorted({r['round'] for r in runs if r['program'] == name})
    rs = [ratio(a, p) for _, a, p, ra, rp in round_pairs(name, prog, runs, rounds, test, b,
                                                         subject, against, peers)
          if same_phase(ra, rp) and ratio(a, p) is not None]
    return (statistics.median(rs), len(rs)) if rs else (None, 0)


def combine_rounds(rounds, pick):
    """{test: {bytes: pick(test, values)}} over the rounds (dicts with 'data' and 'others')
    during which other processes took less than QUIET cores, when there are any: a round run
    beside someone's build measures the build as much as the MPI. Marks each round 'used'."""
    quiet = [r for r in rounds if r['others'] <= QUIET]
    for r in rounds:
        r['used'] = r in quiet or not quiet
    final = {}
    for data in (r['data'] for r in rounds if r['used']):
        for test, vals in data.items():
            for b, v in vals.items():
                final.setdefault(test, {}).setdefault(b, []).append(v)
    return {t: {b: pick(t, v) for b, v in vals.items()} for t, vals in final.items()}


def report_text(lines):
    """A report's text with the repository's own path left out (paths relative to it), so
    that reports name no machine's folders."""
    return '\n'.join(lines).replace(str(REPO) + '/', '').replace(str(REPO), '.')


def fmt_ratio(r):
    return '–' if r is None else f'{r:.2f}'


def variant_env(rt):
    if ' ' not in rt:
        return {}
    k, v = rt.split(' ', 1)[1].split('=', 1)
    return {k: v}


def label_of(rt):
    base = rt.split(' ', 1)[0]
    lab = RUNTIMES[base]['label']
    if ' ' not in rt:
        return lab
    setting = rt.split(' ', 1)[1]
    return lab + ' ' + (setting[5:] if setting.startswith('LOOM_') else setting)


def plot(name, test, meta, runtimes, labels, final, cvals, cname, out, info):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    fig, ax = plt.subplots(figsize=(8, 5))
    scale = meta.get('scale', 1.0)
    for rt in runtimes:
        vals = final.get(rt, {}).get(test, {})
        xs = [b for b in sorted(vals) if b > 0]
        ax.plot(xs, [vals[b] * scale for b in xs], marker='o', markersize=3, label=labels[rt])
    if cvals:
        xs = [b for b in sorted(cvals) if b > 0 and b >= min(
            (b2 for rt in runtimes for b2 in final.get(rt, {}).get(test, {})), default=1)]
        ax.plot(xs, [cvals[b] * scale for b in xs], 'k--', label=cname)
    ax.set_xscale('log', base=2)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
        lambda x, _pos: fmt_bytes(int(round(x))).replace(' ', '') if x >= 1 else ''))
    if meta.get('logy'):
        ax.set_yscale('log')
    ax.set_xlabel('message size (bytes)')
    ax.set_ylabel(meta['ylabel'])
    ax.set_title(f'{meta["title"]}\n{info["machine"]["CPU"]}, {PROGRAMS[name]["np"]} ranks',
                 fontsize=10)
    ax.grid(True, which='both', alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    png = out / f'{name}_{test}.png'
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


# --------------------------------------------------------------------------------------------

def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quick', action='store_true', help='fewer repetitions (smoke test)')
    ap.add_argument('--out', default=str(BENCH / 'results'),
                    help='output folder (default bench/results); build products go to OUT/tmp '
                         '(bench/results/tmp/NAME for an OUT inside bench/results)')
    ap.add_argument('--runtimes', default='loom,mpich,openmpi',
                    help='comma-separated, from: ' + ', '.join(RUNTIMES))
    ap.add_argument('--programs', default='pingpong',
                    help='comma-separated MPI benchmarks, from: '
                    + ', '.join(n for n, p in PROGRAMS.items() if p['kind'] == 'mpi'))
    ap.add_argument('--env', action='append', default=[], metavar='LOOM_X=Y',
                    help='environment setting for the loom runs (repeatable)')
    ap.add_argument('--sweep', metavar='LOOM_X=V1,V2,...',
                    help='run loom once per value of one setting (e.g. LOOM_EAGER_MAX=1K,16K)')
    ap.add_argument('--args', default='', metavar='"ARGS"',
                    help='extra arguments for every MPI benchmark run (e.g. --args=-d)')
    ap.add_argument('--rounds', type=int, default=1,
                    help='repeat every run N times, keep the median (default 1)')
    ap.add_argument('--no-ceiling', action='store_true', help='skip the memcpy ceiling')
    ap.add_argument('--ceiling-args', default='', metavar='"ARGS"',
                    help='extra arguments for the ceiling program (e.g. --ceiling-args="-m 8" '
                         'with --args="-t lat -m 8": small latencies only, many rounds)')
    ap.add_argument('--loom-build', default='build',
                    help='loom build folder, relative to the repository (default build)')
    ap.add_argument('--loom-prefix', help='use an installed loom (PREFIX/bin/loomcc) instead')
    ap.add_argument('--wait-idle', type=float, default=None, metavar='S',
                    help='before each run, wait up to S seconds for other processes to go '
                         'quiet (default 60, 0 with --quick)')
    ap.add_argument('--timeout', type=int, default=600, help='limit per run, seconds')
    ap.add_argument('--install', action='store_true',
                    help='apt-get install missing MPI packages / matplotlib')
    ap.add_argument('--no-plots', action='store_true', help='skip the PNG plots')
    a = ap.parse_args()
    if a.wait_idle is None:
        a.wait_idle = 0 if a.quick else 60
    if a.rounds < 1:
        ap.error('--rounds takes a positive number')
    return a


def main():
    maybe_reexec_for_matplotlib()
    args = parse_args()
    command = 'python3 ' + shlex.join([os.path.relpath(Path(__file__).resolve(), Path.cwd())]
                                      + sys.argv[1:])
    loom_env = {}
    for e in args.env:
        if '=' not in e:
            sys.exit(f'bench: --env takes NAME=VALUE, not {e!r}')
        k, v = e.split('=', 1)
        loom_env[k] = v
    RUNTIMES['loom']['env'] = loom_env

    runtimes = []
    for rt in [r.strip() for r in args.runtimes.split(',') if r.strip()]:
        if rt not in RUNTIMES:
            sys.exit(f'bench: unknown runtime {rt!r} (known: {", ".join(RUNTIMES)})')
        if rt == 'loom' and args.sweep:
            if '=' not in args.sweep:
                sys.exit('bench: --sweep takes NAME=V1,V2,...')
            k, vs = args.sweep.split('=', 1)
            runtimes += [f'loom {k}={v}' for v in vs.split(',') if v]
        else:
            runtimes.append(rt)
    programs = [p.strip() for p in args.programs.split(',') if p.strip()]
    for p in programs:
        if p not in PROGRAMS or PROGRAMS[p]['kind'] != 'mpi':
            sys.exit(f'bench: unknown MPI benchmark {p!r}')

    runtimes, plots = check_tools(runtimes, not args.no_plots, args.install,
                                  need_cmake=any(is_loom(r) for r in runtimes)
                                  and not args.loom_prefix)
    if not runtimes:
        sys.exit('bench: no runtime left to run')
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    tmp = tmp_dir(out)
    (tmp / 'raw').mkdir(parents=True, exist_ok=True)
    info = {'command': command, 'machine': machine_info(), 'build': []}
    if any(is_loom(r) for r in runtimes):
        setup_loom(args, info)
    refs = [] if args.no_ceiling else sorted({PROGRAMS[p]['reference'] for p in programs
                                              if PROGRAMS[p].get('reference')})
    exes = build_all(sorted(set(refs) | {PROBE}) + programs, runtimes, tmp, info)
    probe_exe = exes.get((PROBE, CEILING))
    versions = runtime_versions(runtimes)

    # results[(program, runtime)] = list over rounds of {test: {bytes: value}}
    results, units, notes, runs = {}, {}, {}, []
    failed = False
    for rnd in range(1, args.rounds + 1):
        jobs = [(r, CEILING) for r in refs] + [(p, rt) for p in programs for rt in runtimes]
        for prog_name, rt in jobs:
            prog = PROGRAMS[prog_name]
            pargs = prog['quick_args'] if args.quick else prog['args']
            if rt == CEILING:
                cmd, env = [exes[(prog_name, rt)]] + pargs + shlex.split(args.ceiling_args), {}
            else:
                base = rt.split(' ', 1)[0]
                launch = ([a.replace('{np}', str(prog['np'])) for a in RUNTIMES[base]['launch']]
                          + prog.get('launch_extra', {}).get(base, []))
                cmd = launch + [exes[(prog_name, rt)]] + pargs + shlex.split(args.args)
                env = (RUNTIMES[base]['env'] | prog.get('runtime_env', {}).get(base, {})
                       | variant_env(rt))
            before = wait_quiet(args.wait_idle)
            tag = f'{prog_name}.{rt.replace(" ", "_").replace("=", "-")}.{rnd}'
            phase = probe_phase(probe_exe) if rt != CEILING else None
            rc, so, se, wall, others = run_one(cmd, env, args.timeout,
                                               tmp / 'raw' / f'{tag}.log')
            runs.append({'program': prog_name, 'runtime': rt, 'round': rnd, 'rc': rc,
                         'wall': wall, 'others': max(others, 0.0), 'before': before,
                         'probe': (phase, probe_phase(probe_exe) if rt != CEILING else None)})
            if rc != 0:
                failed = True
                log(f'{prog_name} on {rt} failed (rc {rc}); see {tmp / "raw" / (tag + ".log")}')
                log(se.strip()[-2000:])
                continue
            data, u, n = parse_csv(so)
            runs[-1]['data'] = data
            results.setdefault((prog_name, rt), []).append(runs[-1])
            units.setdefault((prog_name, rt), {}).update(u)
            notes[(prog_name, rt)] = n
            log(f'{prog_name} on {rt}: {wall:.1f} s, others used {others:.2f} cores')

    def median_rounds(rounds):
        return combine_rounds(rounds, lambda test, v: statistics.median(v))

    def best_rounds(rounds, tunits):
        # A ceiling (or floor) is a best case: the best of its quiet rounds, so that one
        # round slowed by something /proc/stat cannot see (the hypervisor) does not lower it.
        return combine_rounds(rounds, lambda test, v: min(v) if tunits.get(test) == 'us'
                              else max(v))

    for p in programs:
        ref = PROGRAMS[p].get('reference')
        cunits = units.get((ref, CEILING), {})
        ceiling = best_rounds(results.get((ref, CEILING), []), cunits) if ref in refs else {}
        rts = [rt for rt in runtimes if (p, rt) in results]
        final = {rt: median_rounds(results[(p, rt)]) for rt in rts}
        write_report(p, args, rts, final, {rt: units[(p, rt)] for rt in rts},
                     {rt: notes.get((p, rt), []) for rt in rts}, ceiling, cunits, runs, info,
                     versions, plots, out)
    if failed:
        sys.exit('bench: some runs failed (see above); the report has the others')


if __name__ == '__main__':
    main()
