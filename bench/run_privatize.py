#!/usr/bin/env python3
"""bench/run_privatize.py — what privatized globals cost (docs/privatize.md), in one run:

  1. access: bench/privatize.c built as
       loom per rank   loomcc (the plugin routes every access through the rank's copy)
       loom TLS        loomcc -fno-privatize -DGLOBAL=_Thread_local (every global
                       thread-local: the access privatized globals had before they were per rank)
       plain           loomcc -fno-privatize (ordinary globals, shared)
       MPICH, Open MPI mpicc.mpich / mpicc.openmpi (ordinary globals of a process)
     one rank each, run in turn --rounds times; per test the median of the rounds, in ns per
     element, and ratios to plain and to MPICH;
  2. start: bench/privatize_start.c (a 64 MiB global array) at --np ranks (default 8), with 0
     and --threads threads per rank: wall time of the whole job and peak memory, for loom per
     rank, loom plain, MPICH and, with --baseline-loom, an earlier loom build (its loomcc and
     loomrun), e.g. the commit before globals became per rank.

    python3 bench/run_privatize.py --rounds 11 --baseline-loom /path/to/old/build
Reports: OUT/privatize.md and OUT/privatize.csv (OUT: bench/results/privatize).
"""
import argparse
import datetime
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as R  # noqa: E402  (bench/run.py)

TESTS = ['sum', 'triad', 'counter', 'bound', 'chase', 'stencil']
GOAL = 1.05  # per rank at most 5 % slower than plain globals


def timed(cmd, env_extra):
    """Runs cmd; returns (rc, stdout, wall s, peak RSS in MiB of the largest process)."""
    env = dict(os.environ)
    env.update(env_extra)
    R.log('$ ' + R.fmt_cmd(cmd, env_extra))
    t0 = time.time()
    p = subprocess.Popen([str(c) for c in cmd], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.time() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, out, wall, ru.ru_maxrss / 1024.0


def build(cc, src, out, extra):
    cmd = list(cc) + ['-O2'] + extra + [str(src), '-o', str(out)]
    if R.run_cmd(cmd).returncode != 0:
        sys.exit(f'bench: cannot build {out.name}')
    return R.fmt_cmd(cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rounds', type=int, default=11)
    ap.add_argument('--np', type=int, default=8)
    ap.add_argument('--threads', type=int, default=4)
    ap.add_argument('--baseline-loom', help='build folder of an earlier loom (bin/loomcc, '
                    'bin/loomrun) to compare job start and memory with')
    ap.add_argument('--baseline-label', default='loom before (per thread)')
    ap.add_argument('--loom-build', default='build')
    ap.add_argument('--loom-prefix')
    ap.add_argument('--out', default=str(R.BENCH / 'results' / 'privatize'))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tmp = R.tmp_dir(out)
    tmp.mkdir(parents=True, exist_ok=True)
    info = {'build': []}
    R.setup_loom(args, info)
    loomcc, loomrun = R.RUNTIMES['loom']['cc'], R.RUNTIMES['loom']['launch'][0]
    have = {rt: subprocess.run(['which', R.RUNTIMES[rt]['cc'][0]], capture_output=True)
            .returncode == 0 for rt in ('mpich', 'openmpi')}

    src = R.BENCH / 'privatize.c'
    access = [('loom per rank', loomcc, [], [loomrun, '-n', '1']),
              ('loom TLS', loomcc, ['-fno-privatize', '-DGLOBAL=_Thread_local'],
               [loomrun, '-n', '1']),
              ('plain', loomcc, ['-fno-privatize'], [loomrun, '-n', '1'])]
    for rt in ('mpich', 'openmpi'):
        if have[rt]:
            launch = [a.replace('{np}', '1') for a in R.RUNTIMES[rt]['launch']]
            access.append((R.RUNTIMES[rt]['label'], R.RUNTIMES[rt]['cc'], [], launch))
    exes = {}
    for i, (label, cc, extra, _) in enumerate(access):
        exes[label] = tmp / f'priv_access_{i}'
        info['build'].append(build(cc, src, exes[label], extra))

    ssrc = R.BENCH / 'privatize_start.c'
    start = [('loom per rank', loomcc, [], loomrun, True),
             ('loom plain', loomcc, ['-fno-privatize'], loomrun, False)]
    if args.baseline_loom:
        b = Path(args.baseline_loom).resolve()
        start.append((args.baseline_label, [str(b / 'bin' / 'loomcc')], [],
                      str(b / 'bin' / 'loomrun'), True))
    if have['mpich']:
        start.append(('MPICH', R.RUNTIMES['mpich']['cc'], [], 'mpiexec.mpich', True))
    sexes = {}
    for i, (label, cc, extra, _, _) in enumerate(start):
        sexes[label] = tmp / f'priv_start_{i}'
        info['build'].append(build(cc, ssrc, sexes[label], extra + ['-pthread']))

    raw = {label: {t: [] for t in TESTS} for label, *_ in access}
    sraw = {}
    for rnd in range(args.rounds):
        R.wait_quiet(30)
        order = access if rnd % 2 == 0 else list(reversed(access))
        for label, _, _, launch in order:
            rc, text, _, _ = timed(launch + [exes[label]], {})
            if rc != 0:
                sys.exit(f'bench: {label} failed:\n{text}')
            for line in text.splitlines():
                k, _, v = line.partition(',')
                if k in raw[label]:
                    raw[label][k].append(float(v))
        for label, _, _, launcher, per_rank in start:
            for nt in (0, args.threads):
                if nt and not per_rank:
                    continue  # shared globals: threads would read another rank's value
                rc, text, wall, rss = timed([launcher, '-n', str(args.np), sexes[label],
                                             str(nt)], {})
                sraw.setdefault((label, nt), []).append((rc, wall, rss, text.strip()))

    med = {label: {t: statistics.median(v) for t, v in tests.items() if v}
           for label, tests in raw.items()}
    lines = ['variant,test,value,unit']
    for label, tests in med.items():
        for t, v in tests.items():
            lines.append(f'{label},{t},{v:.6g},ns')
    for (label, nt), runs in sraw.items():
        ok = [r for r in runs if r[0] == 0]
        if ok:
            lines.append(f'{label},start_{nt}threads_wall,{statistics.median(r[1] for r in ok):.4g},s')
            lines.append(f'{label},start_{nt}threads_rss,{statistics.median(r[2] for r in ok):.4g},MiB')
    (out / 'privatize.csv').write_text('\n'.join(lines) + '\n')

    versions = R.runtime_versions(['loom'] + [rt for rt in ('mpich', 'openmpi') if have[rt]])
    md = ['# privatize: what privatized globals cost', '',
          f'Generated by `bench/run_privatize.py` on {datetime.datetime.now():%Y-%m-%d %H:%M}'
          ' (do not edit by hand: rerun it).', '',
          '`' + R.fmt_cmd([sys.executable.split('/')[-1]] + sys.argv) + '`', '']
    md += [f'- {k}: {v}' for k, v in R.machine_info().items()]
    md += [f'- {k}: {v}' for k, v in versions.items()]
    md += ['', '## Access', '',
           f'bench/privatize.c, 1 rank, {args.rounds} rounds (each variant once per round, in '
           'alternating order); value: median over the rounds of each run\'s median, ns per '
           'element (per call for counter and bound, per grid point for stencil). Goal: loom per '
           'rank within 5 % of plain globals on each loop.', '']
    labels = list(med)
    head = ['test'] + labels + ['per rank / plain', 'per rank / TLS']
    if 'MPICH' in med:
        head.append('per rank / MPICH')
    md += ['| ' + ' | '.join(head) + ' |', '|---|' + '---:|' * (len(head) - 1)]
    misses = []
    for t in TESTS:
        g = lambda lab: med.get(lab, {}).get(t)  # noqa: E731
        row = [t] + [f'{g(lab):.3f}' if g(lab) is not None else '–' for lab in labels]
        r_plain = R.ratio(g('loom per rank'), g('plain'))
        row += [R.fmt_ratio(r_plain), R.fmt_ratio(R.ratio(g('loom per rank'), g('loom TLS')))]
        if 'MPICH' in med:
            row.append(R.fmt_ratio(R.ratio(g('loom per rank'), g('MPICH'))))
        if r_plain is not None and r_plain > GOAL:
            misses.append(f'{t} ({r_plain:.2f})')
        md.append('| ' + ' | '.join(row) + ' |')
    md += ['', 'Goal met on every loop.' if not misses else
           'Goal missed on: ' + ', '.join(misses) + '.', '',
           '## Start and memory', '',
           f'bench/privatize_start.c: a 64 MiB global array, {args.np} ranks, with 0 and '
           f'{args.threads} threads per rank (each thread reads its rank\'s copy); wall time of '
           'the whole job (launch to exit) and peak resident memory of the largest process '
           '(loom: the whole job, one process; MPICH: one rank\'s process), medians over the '
           'rounds. "wrong" counts runs whose threads read another rank\'s value (or failed).',
           '', '| variant | threads per rank | wall (s) | peak RSS (MiB) | per rank (MiB) | '
           'wrong |', '|---|---:|---:|---:|---:|---:|']
    for (label, nt), runs in sraw.items():
        ok = [r for r in runs if r[0] == 0]
        wrong = len(runs) - len(ok)
        if ok:
            wall = statistics.median(r[1] for r in ok)
            rss = statistics.median(r[2] for r in ok)
            per = rss if label == 'MPICH' else rss / args.np
            md.append(f'| {label} | {nt} | {wall:.3f} | {rss:.0f} | {per:.0f} | {wrong} |')
        else:
            md.append(f'| {label} | {nt} | – | – | – | {wrong} (all) |')
    md += ['', '## Builds', ''] + [f'- `{c}`' for c in info['build']]
    text = R.report_text(md)
    if args.baseline_loom:
        # name the baseline by its commit, not by where it was built
        b = Path(args.baseline_loom).resolve()
        commit = subprocess.run(['git', '-C', str(b), 'rev-parse', '--short', 'HEAD'],
                                capture_output=True, text=True).stdout.strip() or '?'
        text = text.replace(args.baseline_loom, str(b)).replace(
            str(b), f'<loom build of git {commit}>')
    (out / 'privatize.md').write_text(text + '\n')
    R.log(f'wrote {out / "privatize.md"}')


if __name__ == '__main__':
    main()
