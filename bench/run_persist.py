#!/usr/bin/env python3
"""bench/run_persist.py — a started persistent allreduce against MPI_Iallreduce + MPI_Wait
(bench/persist.c, docs/persistent.md), 8 B and 64 KiB, on 2 and 4 ranks, under each
LOOM_PROGRESS policy.

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
    args = ap.parse_args()
    build, out = Path(args.build), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    prog, loomrun = build / 'bench' / 'bench_persist', build / 'bin' / 'loomrun'
    if not prog.exists():
        sys.exit(f'{prog} missing: cmake --build {build} --target bench_persist')
    runs, others = {}, []
    for rnd in range(args.rounds):
        for np_ in NPS:
            for pol in POLICIES:
                cmd = [loomrun, '-n', str(np_), prog, '--reps', str(args.reps)]
                rc, text, err, _, load = R.run_one(cmd, {'LOOM_PROGRESS': pol}, 600,
                                                   out / 'last_run.log')
                if rc != 0:
                    sys.exit(f'{R.fmt_cmd(cmd)} failed ({rc}): {err}')
                others.append(load)
                data, units, _ = R.parse_csv(text)
                for test, vals in data.items():
                    for b, v in vals.items():
                        runs.setdefault((pol, test, b), []).append(v)
    (out / 'last_run.log').unlink(missing_ok=True)
    final = {k: statistics.median(v) for k, v in runs.items()}
    with open(out / 'persist.csv', 'w') as f:
        f.write('policy,test,bytes,value,unit\n')
        for (pol, test, b), v in sorted(final.items()):
            f.write(f'{pol},{test},{b},{v:.3f},{"ratio" if "ratio" in test else "us"}\n')
    commit = subprocess.run(['git', '-C', str(R.REPO), 'rev-parse', '--short', 'HEAD'],
                            capture_output=True, text=True).stdout.strip()
    lines = ['# Persistent allreduce: MPI_Start + MPI_Wait vs MPI_Iallreduce + MPI_Wait', '',
             f'{datetime.date.today()}, loom {commit}. Command:', '',
             f'    python3 bench/run_persist.py --rounds {args.rounds} --reps {args.reps}', '',
             'Machine (`lscpu`):', '']
    lines += [f'    {l}' for l in lscpu_lines()]
    lines += ['', f'Other processes used {statistics.median(others):.2f} cores (median over the '
              f'jobs, max {max(others):.2f}) while it ran.', '',
              'Microseconds per iteration, the slowest rank, median of the rounds of the '
              'medians of the repetitions; ratio = start / iallreduce (below 1: the '
              'persistent start is cheaper).', '',
              '| policy | ranks | bytes | MPI_Iallreduce + Wait | MPI_Start + Wait | ratio |',
              '|---|---|---|---|---|---|']
    for pol in POLICIES:
        for np_ in NPS:
            for b in (8, 65536):
                nb = final.get((pol, f'persist_iallreduce_n{np_}', b))
                ps = final.get((pol, f'persist_start_n{np_}', b))
                if nb is None or ps is None:
                    continue
                lines.append(f'| {pol} | {np_} | {b} | {nb:.2f} us | {ps:.2f} us | '
                             f'{ps / nb:.2f} |')
    (out / 'persist.md').write_text('\n'.join(lines) + '\n')
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
