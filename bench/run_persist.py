#!/usr/bin/env python3
"""bench/run_persist.py — a started persistent allreduce against MPI_Iallreduce + MPI_Wait
(bench/persist.c, docs/persistent.md), 8 B and 64 KiB, on 2 and 4 ranks, under each
LOOM_PROGRESS policy, and the same source under MPICH and Open MPI (--peers), interleaved.

    cmake --build build --target bench_persist
    python3 bench/run_persist.py [--build build] [--rounds 5] [--reps 15]

Each (ranks, policy) job runs --rounds times, interleaved with the others; a job prints the
median over --reps repetitions of the slowest rank's time per iteration (bench/persist.c), and
the report keeps the median over the rounds. Report: OUT/persist.md and OUT/persist.csv
(OUT: bench/results/persist), with the command, the machine (lscpu's model name and caches)
and the load other processes put on it while the jobs ran.
"""
import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as R  # noqa: E402  (bench/run.py)

NPS = [2, 4]
POLICIES = ['collaborative', 'inline', 'thread']


def lscpu_lines():
    try:
        out = subprocess.run(['lscpu'], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ['lscpu: not found']
    keep = ('Model name', 'L1d', 'L1i', 'L2', 'L3', 'CPU(s):', 'Thread(s) per core')
    return [' '.join(l.split()) for l in out.splitlines() if l.strip().startswith(keep)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default=str(R.REPO / 'build'))
    ap.add_argument('--out', default=str(R.BENCH / 'results' / 'persist'))
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--reps', type=int, default=15)
    ap.add_argument('--peers', default='mpich,openmpi',
                    help='other MPIs run on the same source, interleaved (bench/run.py RUNTIMES;'
                         ' those whose compiler is missing are left out)')
    args = ap.parse_args()
    build, out = Path(args.build), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    prog, loomrun = build / 'bench' / 'bench_persist', build / 'bin' / 'loomrun'
    if not prog.exists():
        sys.exit(f'{prog} missing: cmake --build {build} --target bench_persist')
    # The same source built by each peer MPI that is installed.
    peers, left_out = {}, []
    tmp = out / 'tmp'
    tmp.mkdir(exist_ok=True)
    for name in [p for p in args.peers.split(',') if p]:
        rt = R.RUNTIMES[name]
        if not shutil.which(rt['cc'][0]) or not shutil.which(rt['launch'][0]):
            print(f'{rt["label"]}: {rt["cc"][0]} or {rt["launch"][0]} missing, left out')
            continue
        exe = tmp / f'persist_{name}'
        cmd = R.compile_cmd(rt['cc'], R.BENCH / 'persist.c', exe, [])
        if subprocess.run(cmd, capture_output=True).returncode != 0:
            left_out.append(f'{rt["label"]} (`{R.fmt_cmd(cmd)}` fails: its mpi.h has no '
                            'MPI_Allreduce_init)')
            continue
        peers[name] = (rt, exe)
    # Every job of a round, loom's under each policy and each peer's, one after the other.
    jobs = []
    for np_ in NPS:
        for pol in POLICIES:
            jobs.append((pol, [loomrun, '-n', str(np_), prog, '--reps', str(args.reps)],
                         {'LOOM_PROGRESS': pol}))
        for name, (rt, exe) in peers.items():
            if np_ > (os.cpu_count() or 1):  # busy-polling processes sharing cores: minutes
                continue
            launch = [a.replace('{np}', str(np_)) for a in rt['launch']]
            jobs.append((name, launch + [exe, '--reps', str(args.reps)], rt['env']))
    runs, others = {}, []
    for rnd in range(args.rounds):
        for who, cmd, env in jobs:
            rc, text, err, _, load = R.run_one(cmd, env, 600, out / 'last_run.log')
            if rc != 0:
                sys.exit(f'{R.fmt_cmd(cmd)} failed ({rc}): {err}')
            others.append(load)
            data, units, _ = R.parse_csv(text)
            for test, vals in data.items():
                for b, v in vals.items():
                    runs.setdefault((who, test, b), []).append(v)
    (out / 'last_run.log').unlink(missing_ok=True)
    final = {k: statistics.median(v) for k, v in runs.items()}
    with open(out / 'persist.csv', 'w') as f:
        f.write('runtime,test,bytes,value,unit\n')
        for (pol, test, b), v in sorted(final.items()):
            f.write(f'{pol},{test},{b},{v:.3f},{"ratio" if "ratio" in test else "us"}\n')
    commit = subprocess.run(['git', '-C', str(R.REPO), 'rev-parse', '--short', 'HEAD'],
                            capture_output=True, text=True).stdout.strip()
    lines = ['# Persistent allreduce: MPI_Start + MPI_Wait vs MPI_Iallreduce + MPI_Wait', '',
             f'{datetime.date.today()}, loom {commit}. Command:', '',
             f'    python3 bench/run_persist.py --rounds {args.rounds} --reps {args.reps}', '',
             'Peers: ' + (', '.join(f'{rt["label"]} ({R.fmt_cmd(rt["launch"])})'
                                    for rt, _ in peers.values()) or 'none') + '.' +
             (' Left out: ' + '; '.join(left_out) + '.' if left_out else '') +
             ' Peers run only with at most one rank per core (here ' +
             f'{os.cpu_count()}): their ranks poll, and more of them than cores take minutes.',
             '',
             'Machine (`lscpu`):', '']
    lines += [f'    {l}' for l in lscpu_lines()]
    lines += ['', f'Other processes used {statistics.median(others):.2f} cores (median over the '
              f'jobs, max {max(others):.2f}) while it ran.', '',
              'Microseconds per iteration, the slowest rank, median of the rounds of the '
              'medians of the repetitions; ratio = start / iallreduce (below 1: the '
              'persistent start is cheaper).', '',
              '| runtime (loom: policy) | ranks | bytes | MPI_Iallreduce + Wait | '
              'MPI_Start + Wait | ratio |',
              '|---|---|---|---|---|---|']
    for pol in POLICIES + list(peers):
        for np_ in NPS:
            for b in (8, 65536):
                nb = final.get((pol, f'persist_iallreduce_n{np_}', b))
                ps = final.get((pol, f'persist_start_n{np_}', b))
                if nb is None or ps is None:
                    continue
                lines.append(f'| {pol} | {np_} | {b} | {nb:.2f} us | {ps:.2f} us | '
                             f'{ps / nb:.2f} |')
    # loom's started allreduce against each peer's (best loom policy, as a user would pick).
    for name, (rt, _) in peers.items():
        lines += ['', f'loom against {rt["label"]}, MPI_Start + Wait (loom: its best policy):',
                  '', f'| ranks | bytes | loom | {rt["label"]} | loom / {rt["label"]} |',
                  '|---|---|---|---|---|']
        for np_ in NPS:
            for b in (8, 65536):
                mine = [final[(pol, f'persist_start_n{np_}', b)] for pol in POLICIES
                        if (pol, f'persist_start_n{np_}', b) in final]
                theirs = final.get((name, f'persist_start_n{np_}', b))
                if mine and theirs:
                    lines.append(f'| {np_} | {b} | {min(mine):.2f} us | {theirs:.2f} us | '
                                 f'{min(mine) / theirs:.2f} |')
    (out / 'persist.md').write_text('\n'.join(lines) + '\n')
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
