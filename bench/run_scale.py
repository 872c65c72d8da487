#!/usr/bin/env python3
"""bench/run_scale.py — what a loom job costs as it grows (bench/scale.c): start, traffic,
finalize and memory at 1, 64, 256, 1024 and 4096 ranks (threads of one process,
oversubscribed on a small machine), and the same for MPICH where one process per rank still
fits the machine.

    python3 bench/run_scale.py                      # loom at 1 64 256 1024 4096, 3 rounds
    python3 bench/run_scale.py --ranks 1 64 --runtimes loom,mpich --rounds 5

Each (runtime, ranks, pattern) runs --rounds times, interleaved; a value is the median.
Patterns: `ring` (each rank sends 8 bytes to its right neighbour) at every size, `all` (each
rank sends 8 bytes to every rank: every pair's state made) up to --all-max ranks.
  start     the driver's clock before it starts the job to every rank being past MPI_Init
  traffic   the exchange, barrier to barrier
  finalize  rank 0 entering MPI_Finalize to the job's exit as the driver sees it
  rss       the process's peak resident memory (loom: the whole job; MPICH: rank 0 only)
Writes OUT/scale.{csv,md} (default OUT = bench/results); raw logs in OUT/tmp/scale.
"""
import argparse
import datetime
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import run as R  # noqa: E402  (bench/run.py)

R.PROGRAMS['scale'] = {'source': 'scale.c', 'kind': 'mpi', 'np': 1, 'args': []}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--ranks', type=int, nargs='+', default=[1, 64, 256, 1024, 4096])
    p.add_argument('--runtimes', default='loom')
    p.add_argument('--rounds', type=int, default=3)
    p.add_argument('--all-max', type=int, default=1024,
                   help='largest rank count for the all-pairs pattern')
    p.add_argument('--mpich-max', type=int, default=64,
                   help='largest rank count for MPICH (one process per rank)')
    p.add_argument('--out', default='bench/results')
    p.add_argument('--loom-build', default='build')
    p.add_argument('--loom-prefix', default=None)
    p.add_argument('--install', action='store_true')
    p.add_argument('--timeout', type=float, default=600)
    return p.parse_args()


def launch(rt, n):
    if rt == 'loom':
        return list(R.RUNTIMES['loom']['launch'][:1]) + ['-n', str(n)]
    # more processes than cores: no binding
    return ['mpiexec.mpich', '-n', str(n)]


def run_job(rt, exe, n, pattern, log):
    env = dict(os.environ)
    t0 = time.time()
    env['SCALE_T0'] = f'{t0:.6f}'
    p = subprocess.run(launch(rt, n) + [str(exe), pattern], env=env, capture_output=True,
                       text=True, timeout=ARGS.timeout)
    t_end = time.time()
    log.write(f'# {rt} n={n} {pattern} rc={p.returncode}\n{p.stdout}{p.stderr}\n')
    if p.returncode != 0:
        R.log(f'{rt} n={n} {pattern}: exit {p.returncode}: {p.stderr.strip()[:200]}')
        return None
    vals = {}
    for line in p.stdout.splitlines():
        f = line.split(',')
        if len(f) == 4:
            vals[f[0]] = float(f[2])
    if 't_finalize_start' not in vals:
        return None
    vals['finalize'] = t_end - vals.pop('t_finalize_start')
    return vals


def main():
    global ARGS
    ARGS = parse_args()
    runtimes = ARGS.runtimes.split(',')
    out = Path(ARGS.out)
    if not out.is_absolute():
        out = R.REPO / out
    tmp = out / 'tmp' / 'scale'
    tmp.mkdir(parents=True, exist_ok=True)
    info = {}
    runtimes, _ = R.check_tools(runtimes, False, ARGS.install, 'loom' in runtimes)
    if 'loom' in runtimes:
        R.setup_loom(ARGS, info)
    exes = {}
    for rt in runtimes:
        exe = tmp / f'scale.{rt}'
        cmd = R.compile_cmd(R.RUNTIMES[rt]['cc'], BENCH / 'scale.c', exe, [])
        if R.run_cmd(cmd).returncode != 0:
            sys.exit(f'bench: cannot build scale.c with {rt}')
        exes[rt] = exe
    cases = [(rt, n, pat) for n in ARGS.ranks for rt in runtimes
             for pat in ('ring', 'all')
             if not (pat == 'all' and n > ARGS.all_max)
             and not (rt != 'loom' and n > ARGS.mpich_max)]
    got = {c: [] for c in cases}
    with open(tmp / 'raw.log', 'w') as log:
        for r in range(ARGS.rounds):
            for c in cases:
                R.log(f'round {r + 1}: {c[0]} -n {c[1]} {c[2]}')
                v = run_job(c[0], exes[c[0]], c[1], c[2], log)
                if v:
                    got[c].append(v)
    rows = []
    for (rt, n, pat), runs in got.items():
        if not runs:
            continue
        med = {k: statistics.median(v[k] for v in runs) for k in runs[0]}
        rows.append((rt, n, pat, med, len(runs)))
    with open(out / 'scale.csv', 'w') as f:
        f.write('runtime,ranks,pattern,start_s,traffic_s,finalize_s,rss_kib,runs\n')
        for rt, n, pat, m, k in rows:
            f.write(f'{rt},{n},{pat},{m.get("start", 0):.6f},{m["traffic"]:.6f},'
                    f'{m["finalize"]:.6f},{m["rss"]:.0f},{k}\n')
    mi = R.machine_info()
    lines = ['# scale: what a job costs as it grows', '',
             f'Generated by `bench/run_scale.py` on '
             f'{datetime.datetime.now().strftime("%Y-%m-%d %H:%M")}. Do not edit by hand: '
             'rerun it.', '', '## Command', '', '```',
             'python3 bench/run_scale.py ' + ' '.join(sys.argv[1:]), '```', '',
             '## Machine', '']
    lines += [f'- {k}: {v}' for k, v in mi.items()]
    lines += [f'- loom: git {R.first_line(["git", "-C", str(R.REPO), "rev-parse", "--short", "HEAD"])}'
              f', built in {info.get("loom build", "?")}', '',
              '## Results (medians over the rounds)', '',
              'rss is the peak resident memory of the process: the whole job for loom (one '
              'process), rank 0 alone for MPICH (one process per rank).', '',
              '| runtime | ranks | pattern | start (ms) | traffic (ms) | finalize (ms) | '
              'rss (MiB) | rss per rank (KiB) | runs |',
              '|---|---:|---|---:|---:|---:|---:|---:|---:|']
    for rt, n, pat, m, k in rows:
        per = m['rss'] / n if rt == 'loom' else m['rss']
        lines.append(f'| {rt} | {n} | {pat} | {m.get("start", 0) * 1e3:.1f} | '
                     f'{m["traffic"] * 1e3:.2f} | {m["finalize"] * 1e3:.1f} | '
                     f'{m["rss"] / 1024:.1f} | {per:.0f} | {k} |')
    (out / 'scale.md').write_text('\n'.join(lines) + '\n')
    R.log(f'wrote {out / "scale.md"} and {out / "scale.csv"}')


if __name__ == '__main__':
    main()
