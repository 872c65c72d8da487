#!/usr/bin/env python3
"""bench/run_coll.py — the collective benchmarks (bench/coll.c, bench/nbc.c) against loom,
MPICH and Open MPI, over several rank counts and runtime settings, in one invocation.

    python3 bench/run_coll.py                  # full run: coll and nbc
    python3 bench/run_coll.py --quick          # smoke test (few repetitions, noisy numbers)
    python3 bench/run_coll.py --programs nbc --ranks 2,4
    python3 bench/run_coll.py --programs coll --rounds 5   # 5 interleaved rounds, medians

bench/run.py runs one rank count and one setting per runtime; these two programs need more,
so this driver reuses run.py's functions (tools, loom build, compile, run, machine info) and
only adds the matrix and the reports:

  coll  latency of Barrier, Bcast, Reduce, Allreduce, Allgather, Alltoall, Gather, Scatter,
        8 B .. 4 MiB, on
        2 ranks and on 4 ranks (oversubscribed on a 2-core machine; reported apart):
        loom (default settings), MPICH, Open MPI; loom/MPICH and loom/Open MPI ratios; the
        goal (every blocking collective at most GOAL_RATIO x MPICH's time at every size on 2
        ranks) is checked by the medians over rounds and, as bench/run.py does, by the
        same-phase ratios (the rounds whose loom and MPICH runs the phase probe puts in one
        phase of the machine).
  nbc   Section 7 of the 2019 paper: T_blocking, T_nonblocking, T_comp, T_overlapped and the
        overlap ratio of Ibcast, Ireduce, Iallreduce, Iscan (2 MiB), for N = 2 and N = cores
        (and cores-1, cores-2 from 8 cores up): loom under LOOM_PROGRESS=inline,
        collaborative, thread (placements numa, bind, odd-even), thread with
        LOOM_SPLIT_TREE=off and 1 (Ibcast and Ireduce; the thread run is auto), MPICH with and
        without MPIR_CVAR_ASYNC_PROGRESS=1, Open MPI. The computation constant C of every
        collective is taken once, from the first run (loom default, largest N, C = its
        T_blocking), and passed to every other run (--comp-us), so the total work is the same
        for every N and every runtime.

Writes OUT/coll.{csv,md}, OUT/coll_n<N>.png, OUT/nbc.{csv,md}, OUT/nbc.png (default OUT =
bench/results); build products and raw logs in OUT/tmp.
"""
import argparse
import datetime
import os
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import run as R  # noqa: E402  (bench/run.py)

# The goal of the performance issue: every blocking collective at most this ratio of MPICH's
# time, at every size, on 2 ranks (it was 1.0 before).
GOAL_RATIO = 0.7
COLLS = ['barrier', 'bcast', 'reduce', 'allreduce', 'allgather', 'alltoall', 'gather', 'scatter']
NBCS = ['ibcast', 'ireduce', 'iallreduce', 'iscan']
METRICS = ['t_blocking', 't_nonblocking', 't_comp', 't_overlapped', 'overlap']
BIND_ARGS = {'-bind-to', '--bind-to'}


def variants(prog, runtimes):
    """[(label, base runtime, env, extra args)] for one program, in run order."""
    v = []
    for rt in runtimes:
        if rt == 'loom' and prog == 'nbc':
            v += [('loom', 'loom', {}, [])]
            for p in ('inline', 'collaborative'):
                v.append((f'loom {p}', 'loom', {'LOOM_PROGRESS': p}, []))
            for pl in ('numa', 'bind', 'odd-even'):
                v.append((f'loom thread {pl}', 'loom',
                          {'LOOM_PROGRESS': 'thread', 'LOOM_PROGRESS_PLACEMENT': pl}, []))
            for s in ('off', '1', 'auto'):
                v.append((f'loom thread S={s}', 'loom',
                          {'LOOM_PROGRESS': 'thread', 'LOOM_SPLIT_TREE': s},
                          ['--colls', 'ibcast,ireduce']))
        elif rt == 'mpich' and prog == 'nbc':
            v += [('MPICH', 'mpich', {}, []),
                  ('MPICH async', 'mpich', {'MPIR_CVAR_ASYNC_PROGRESS': '1'}, [])]
        else:
            v.append((R.RUNTIMES[rt]['label'], rt, {}, []))
    return v


def launch(base, np_, cores):
    cmd = [a.replace('{np}', str(np_)) for a in R.RUNTIMES[base]['launch']]
    if np_ > cores:   # oversubscribed: binding to cores would pile ranks up or fail
        out, skip = [], False
        for a in cmd:
            if skip:
                skip = False
            elif a in BIND_ARGS:
                skip = True
            else:
                out.append(a)
        cmd = out
    return cmd


def rank_counts(prog, cores, given):
    if given:
        return given
    if prog == 'coll':
        return [2, 4]
    ns = {2, cores}
    if cores >= 8:
        ns |= {cores - 1, cores - 2}
    return sorted(n for n in ns if n >= 2)


def fmt(v, unit):
    if v is None:
        return '–'
    if unit == 'ratio':
        return f'{v:.2f}'
    return f'{v:.3f}' if v < 10 else f'{v:.1f}'


def report_coll(res, labels, ns, info, out, plots, rounds):
    lines = ['runtime,np,test,bytes,value,unit']
    for (lab, n), data in res.items():
        for test, vals in data.items():
            for b in sorted(vals):
                lines.append(f'{lab},{n},{test},{b},{vals[b]:.6g},us')
    (out / 'coll.csv').write_text('\n'.join(lines) + '\n')
    loom = [l for l in labels if l.startswith('loom')]
    peers = [l for l in labels if not l.startswith('loom')]
    md = ['# coll: latency of blocking collectives, loom vs ' + ', '.join(peers), '',
          f'Generated by `bench/run_coll.py` on {datetime.datetime.now():%Y-%m-%d %H:%M}. '
          'Do not edit by hand: rerun it.', ''] + header(info)
    md += [f'Value: median over the quiet rounds ({info["rounds"]} in all, interleaved: '
           'see "Runs") of the median over repetitions of the slowest rank\'s mean time per '
           'call (µs); see '
           'the comment at the top of `bench/coll.c`. Ratio = loom / other: below 1 is better '
           'for loom.', '']
    misses = []
    for n in ns:
        md += [f'## {n} ranks' + (' (oversubscribed)' if n > info['cores'] else ''), '']
        for c in COLLS:
            test = f'coll_{c}'
            sizes = sorted({b for l in labels for b in res.get((l, n), {}).get(test, {})})
            if not sizes:
                continue
            pairs = [(s, p) for s in loom for p in peers]
            head = ['bytes'] + [f'{l} (µs)' for l in labels] + [f'{s}/{p}' for s, p in pairs]
            md += [f'### MPI_{c.capitalize()}', '', '| ' + ' | '.join(head) + ' |',
                   '|' + '---:|' * len(head)]
            for b in sizes:
                g = lambda l: res.get((l, n), {}).get(test, {}).get(b)  # noqa: E731
                row = [R.fmt_bytes(b)] + [fmt(g(l), 'us') for l in labels]
                for s, p in pairs:
                    r = R.ratio(g(s), g(p))
                    row.append(R.fmt_ratio(r))
                    if n == 2 and p == 'MPICH' and r is not None and r > GOAL_RATIO:
                        misses.append(f'MPI_{c.capitalize()} {R.fmt_bytes(b)}: {r:.2f}')
                md.append('| ' + ' | '.join(row) + ' |')
            md.append('')
        if plots:
            png = plot_coll(res, labels, n, info, out)
            md += [f'![coll, {n} ranks]({png.name})', '']
    if 2 in ns and 'MPICH' in peers:
        md += goal_section(res, loom, rounds, misses)
    md += runs_table(info)
    (out / 'coll.md').write_text(R.report_text(md))
    R.log(f'wrote {out / "coll.md"} and {out / "coll.csv"}')


def same_phase_ratio(rounds, lab, test, b):
    """(median of loom variant lab's per-round ratios to MPICH at 2 ranks over the rounds
    whose two runs were made in one phase of the machine, how many such rounds). A round's
    two runs are minutes apart at most, but a virtual machine's host may have moved its vCPUs
    in between (run.py, probe_phase): only a ratio of two runs in one phase compares the
    runtimes rather than the placements."""
    peer = {r['round']: r for r in rounds.get(('MPICH', 2), [])}
    rs = []
    for ra in rounds.get((lab, 2), []):
        rp = peer.get(ra['round'])
        if rp is None or not R.same_phase(ra, rp):
            continue
        r = R.ratio(ra.get('data', {}).get(test, {}).get(b),
                    rp.get('data', {}).get(test, {}).get(b))
        if r is not None:
            rs.append(r)
    return (statistics.median(rs), len(rs)) if rs else (None, 0)


def goal_section(res, loom, rounds, misses):
    """The goal at 2 ranks: by the medians over rounds, and by the same-phase ratios."""
    md = [f'## Goal: loom at most {GOAL_RATIO} x MPICH\'s time at every size on 2 ranks', '',
          'By the medians over rounds: ' +
          ('met at every size' if not misses else
           f'**not met** at {len(misses)} point(s) (loom/MPICH): ' + ', '.join(misses)), '',
          'The same-phase ratio is the median of the per-round ratios over the rounds whose '
          'loom and MPICH runs were made in one phase of the machine (their probes, before '
          f'and after each run, within {R.PHASE_SPREAD}x: see "Runs"); a median over rounds '
          'does not remove a slow phase that fell on one runtime and not the other. Points '
          'where either ratio misses the goal:', '',
          '| variant | collective | bytes | loom/MPICH (medians) | same-phase ratio | '
          'rounds in one phase |', '|---|---|---:|---:|---:|---:|']
    total = same_met = same_known = 0
    for lab in loom:
        for c in COLLS:
            test = f'coll_{c}'
            for b in sorted(res.get((lab, 2), {}).get(test, {})):
                r = R.ratio(res[(lab, 2)][test][b], res.get(('MPICH', 2), {}).get(test, {})
                            .get(b))
                if r is None:
                    continue
                sp, k = same_phase_ratio(rounds, lab, test, b)
                total += 1
                same_known += sp is not None
                same_met += sp is not None and sp <= GOAL_RATIO
                if r > GOAL_RATIO or (sp is not None and sp > GOAL_RATIO):
                    md.append(f'| {lab} | MPI_{c.capitalize()} | {R.fmt_bytes(b)} | '
                              f'{R.fmt_ratio(r)} | {R.fmt_ratio(sp)} | {k} |')
    md += ['', f'Same-phase ratios: known at {same_known} of {total} points, the goal met at '
           f'{same_met} of them.', '']
    return md


def plot_coll(res, labels, n, info, out):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 4, figsize=(17, 7))
    for ax, c in zip(axes.flat, COLLS):
        for l in labels:
            vals = res.get((l, n), {}).get(f'coll_{c}', {})
            xs = sorted(vals)
            if c == 'barrier':
                ax.bar([l], [vals[x] for x in xs][:1] or [0])
                continue
            ax.plot(xs, [vals[x] for x in xs], marker='o', markersize=3, label=l)
        if c != 'barrier':
            ax.set_xscale('log', base=2)
            ax.set_yscale('log')
            ax.set_xlabel('bytes')
            ax.legend(fontsize=7)
        ax.set_ylabel('µs')
        ax.set_title(f'MPI_{c.capitalize()}', fontsize=10)
        ax.grid(True, which='both', alpha=0.3)
    fig.suptitle(f'Collective latency, {n} ranks — {info["machine"]["CPU"]}', fontsize=10)
    fig.tight_layout()
    png = out / f'coll_n{n}.png'
    fig.savefig(png, dpi=100)
    plt.close(fig)
    return png


def report_nbc(res, labels, ns, comp, info, out, plots):
    lines = ['runtime,np,test,bytes,value,unit']
    for (lab, n), data in res.items():
        for test, vals in data.items():
            for b in sorted(vals):
                unit = 'ratio' if '_overlap_' in test else 'us'
                lines.append(f'{lab},{n},{test},{b},{vals[b]:.6g},{unit}')
    (out / 'nbc.csv').write_text('\n'.join(lines) + '\n')
    md = ['# nbc: overlap of nonblocking collectives (Section 7 of the 2019 paper)', '',
          f'Generated by `bench/run_coll.py` on {datetime.datetime.now():%Y-%m-%d %H:%M}. '
          'Do not edit by hand: rerun it.', ''] + header(info)
    md += [f'Times in µs: median over the quiet rounds ({info["rounds"]} in all, '
           'interleaved) of the median over repetitions of the slowest rank (see '
           '`bench/nbc.c`). '
           'Computation per rank = C × cores / N with C per collective, the same for every '
           'run: ' + (', '.join(f'{c} C = {v:.1f} µs' for c, v in comp.items() if c)
                      or f'--comp-us {comp.get("", "?")}') + '. '
           f'The computation loop runs {info.get("ipu")} iterations per µs in every run. '
           'overlap = (T_nb + T_comp − T_ovl) / min(T_nb, T_comp), clamped to [0, 1].', '']
    for c in NBCS:
        md += [f'## MPI_I{c[1:]}', '', '| N | runtime | T_blocking | T_nonblocking | T_comp | '
               'T_overlapped | overlap |', '|---:|---|---:|---:|---:|---:|---:|']
        for n in ns:
            for l in labels:
                d = res.get((l, n), {})
                vals = [d.get(f'nbc_{c}_{m}_n{n}', {}) for m in METRICS]
                if not any(vals):
                    continue
                row = [str(n), l] + [fmt(next(iter(v.values()), None),
                                         'ratio' if m == 'overlap' else 'us')
                                     for v, m in zip(vals, METRICS)]
                md.append('| ' + ' | '.join(row) + ' |')
        md.append('')
    if plots:
        png = plot_nbc(res, labels, ns, info, out)
        md += [f'![nbc]({png.name})', '']
    md += runs_table(info)
    (out / 'nbc.md').write_text(R.report_text(md))
    R.log(f'wrote {out / "nbc.md"} and {out / "nbc.csv"}')


def plot_nbc(res, labels, ns, info, out):
    """T_overlapped per runtime: against N when there are several N (the paper's Figs. 17-21),
    else one bar per runtime with T_comp and T_blocking as lines."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(13, 8))
    for ax, c in zip(axes.flat, NBCS):
        def get(l, n, m):
            v = res.get((l, n), {}).get(f'nbc_{c}_{m}_n{n}', {})
            return next(iter(v.values()), None)
        if len(ns) > 1:
            for l in labels:
                pts = [(n, get(l, n, 't_overlapped')) for n in ns]
                pts = [(n, v) for n, v in pts if v is not None]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker='o',
                            markersize=3, label=l)
            comp = [(n, get(labels[0], n, 't_comp')) for n in ns]
            ax.plot([n for n, v in comp if v], [v for n, v in comp if v], 'k--',
                    label='computation alone')
            ax.set_xlabel('ranks N')
            ax.legend(fontsize=6)
        else:
            n = ns[0]
            ls = [l for l in labels if get(l, n, 't_overlapped') is not None]
            ax.barh(ls, [get(l, n, 't_overlapped') for l in ls], label='T_overlapped')
            ax.scatter([get(l, n, 't_comp') for l in ls], ls, color='k', marker='|', s=200,
                       label='T_comp', zorder=3)
            ax.scatter([get(l, n, 't_blocking') for l in ls], ls, color='r', marker='x',
                       label='T_blocking', zorder=3)
            ax.tick_params(axis='y', labelsize=7)
            ax.set_xlabel('µs')
            ax.legend(fontsize=7)
        ax.set_title(f'MPI_I{c[1:]} (T_overlapped, lower is better)', fontsize=10)
        ax.grid(True, alpha=0.3)
    fig.suptitle(f'Nonblocking collectives, 2 MiB, fixed total work — {info["machine"]["CPU"]}, '
                 f'{info["cores"]} cores', fontsize=10)
    fig.tight_layout()
    png = out / 'nbc.png'
    fig.savefig(png, dpi=100)
    plt.close(fig)
    return png


def header(info):
    md = ['## Command', '', '```', info['command'], '```', '', '## Machine', '']
    md += [f'- {k}: {v}' for k, v in info['machine'].items()]
    md += ['', '## Runtimes', '']
    md += [f'- **{k}**: {v}' for k, v in info['versions'].items()]
    md += [f'- `{lab}`: {cmd}' for lab, cmd in info['variants'].items()]
    md += ['', 'Build commands:', '', '```'] + info['build'] + ['```', '']
    return md


def runs_table(info):
    md = ['## Runs', '', 'Wall time of each run and the CPU other processes used meanwhile '
          f'(cores); above {R.QUIET:.2f} the run is disturbed (⚠). When a variant has quiet '
          'rounds, only those make its medians (used: ✓). Probe: the machine\'s core-to-core '
          'latency just before and after the run (`memcpy_ceiling -p`, as in `bench/run.py`); '
          'a virtual machine\'s slow phases show there, and runs whose probes differ by more '
          f'than {R.PHASE_SPREAD}x were made in different phases.', '',
          '| program | runtime | N | round | rc | wall (s) | others (cores) | used | '
          'probe before / after (ns) |',
          '|---|---|---:|---:|---:|---:|---:|---|---:|']
    for r in info['runs']:
        flag = ' ⚠' if r['others'] > R.QUIET else ''
        used = '✓' if r.get('used') else ''
        md.append(f'| {r["program"]} | {r["label"]} | {r["np"]} | {r.get("round", 1)} | '
                  f'{r["rc"]} | {r["wall"]:.1f} | {r["others"]:.2f}{flag} | {used} | '
                  f'{R.fmt_probe(r)} |')
    md.append('')
    return md


def run_variant(prog, lab, n, cmd, env, args, tmp, info, rnd=1):
    """Runs one labelled variant of a program on n ranks once the machine is quiet, records
    the run in info['runs'] (with its data, which combine_rounds reads) and its output in
    OUT/tmp/raw. Returns (data, notes, wall) from its CSV, or None when it failed (logged
    with the end of its stderr)."""
    R.wait_quiet(args.wait_idle)
    tag = f'{prog}.{lab.replace(" ", "_").replace("=", "-")}.n{n}.r{rnd}'
    before = R.probe_phase(info.get('probe_exe'))
    rc, so, se, wall, others = R.run_one(cmd, env, args.timeout, tmp / 'raw' / f'{tag}.log')
    info['runs'].append({'program': prog, 'label': lab, 'np': n, 'round': rnd, 'rc': rc,
                         'wall': wall, 'others': max(others, 0.0),
                         'probe': (before, R.probe_phase(info.get('probe_exe')))})
    if rc != 0:
        R.log(f'{prog} {lab} N={n} failed (rc {rc}); see {tmp / "raw" / (tag + ".log")}')
        R.log(se.strip()[-2000:])
        return None
    data, _units, notes = R.parse_csv(so)
    info['runs'][-1]['data'] = data
    return data, notes, wall


def parse_common_args(ap, timeout):
    """Adds the options every collective driver shares (output, loom build, quiet-machine
    wait, timeout, install, plots) to ap, parses the command line and returns the args."""
    ap.add_argument('--out', default=str(BENCH / 'results'))
    ap.add_argument('--loom-build', default='build')
    ap.add_argument('--loom-prefix')
    ap.add_argument('--wait-idle', type=float, default=None, metavar='S',
                    help='wait up to S s for a quiet machine before each run (default 60, '
                    '0 with --quick)')
    ap.add_argument('--timeout', type=int, default=timeout)
    ap.add_argument('--install', action='store_true')
    ap.add_argument('--no-plots', action='store_true')
    args = ap.parse_args()
    if args.wait_idle is None:
        args.wait_idle = 0 if args.quick else 60
    return args


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quick', action='store_true', help='few repetitions (smoke test)')
    ap.add_argument('--programs', default='coll,nbc', help='coll, nbc or both')
    ap.add_argument('--runtimes', default='loom,mpich,openmpi')
    ap.add_argument('--ranks', default='', help='rank counts (default: coll 2,4; nbc 2 and '
                    'cores, plus cores-1 and cores-2 from 8 cores up)')
    ap.add_argument('--comp-us', default='', help='nbc: C per collective (US or coll=US,...) '
                    'instead of taking it from the first run')
    ap.add_argument('--iters-per-us', default='', help='nbc: the computation loop\'s speed '
                    'instead of the first run\'s calibration')
    ap.add_argument('--rounds', type=int, default=1, help='run the whole sequence N times, '
                    'interleaved, and report the median of each variant\'s quiet rounds')
    args = parse_common_args(ap, timeout=600)
    if args.rounds < 1:
        ap.error('--rounds takes a positive number')
    progs = [p for p in args.programs.split(',') if p]
    for p in progs:
        if p not in ('coll', 'nbc'):
            sys.exit(f'run_coll: unknown program {p!r} (coll, nbc)')
    given = [int(x) for x in args.ranks.split(',') if x]
    cores = os.sysconf('SC_NPROCESSORS_ONLN')
    rts = [r for r in args.runtimes.split(',') if r]
    for r in rts:
        if r not in R.RUNTIMES:
            sys.exit(f'run_coll: unknown runtime {r!r}')
    rts, plots = R.check_tools(rts, not args.no_plots, args.install,
                               need_cmake='loom' in rts and not args.loom_prefix)
    if not rts:
        sys.exit('run_coll: no runtime left to run')
    out = Path(args.out).resolve()
    tmp = out / 'tmp'
    (tmp / 'raw').mkdir(parents=True, exist_ok=True)
    info = {'command': 'python3 ' + shlex.join(
        [os.path.relpath(Path(__file__).resolve(), Path.cwd())] + sys.argv[1:]),
        'machine': R.machine_info(), 'build': [], 'runs': [], 'variants': {}, 'cores': cores,
        'rounds': args.rounds}
    if 'loom' in rts:
        R.setup_loom(args, info)
    exes = R.build_all(progs + [R.PROBE], rts, tmp, info)
    info['probe_exe'] = exes.get((R.PROBE, R.CEILING))
    info['versions'] = {k: v for k, v in R.runtime_versions(rts).items() if k != 'loom config'}

    failed = False
    for prog in progs:
        ns = rank_counts(prog, cores, given)
        vs = variants(prog, rts)
        res, comp, ipu = {}, {}, args.iters_per_us or None
        if prog == 'nbc' and args.comp_us:
            comp = {'': args.comp_us}
        quick = ['--quick'] if args.quick else []
        # nbc: the first run (first variant, largest N) fixes C unless --comp-us gave it.
        # Rounds repeat the whole order, so every variant meets the machine's slow and fast
        # phases alike; each value is then the median of its variant's quiet rounds.
        order = [(v, n) for n in sorted(ns, reverse=(prog == 'nbc')) for v in vs]
        rounds = {}
        for rnd in range(1, args.rounds + 1):
            for (lab, base, env, extra), n in order:
                cmd = launch(base, n, cores) + [exes[(prog, base)]] + quick + extra
                if prog == 'nbc' and comp:
                    cmd += ['--comp-us', comp.get('', ','.join(f'{k}={v:.3f}'
                                                              for k, v in comp.items()))]
                if prog == 'nbc' and ipu:
                    cmd += ['--iters-per-us', ipu]
                info['variants'][lab] = '`' + R.fmt_cmd(
                    [f'./{prog}' if str(a) == str(exes[(prog, base)]) else a for a in cmd],
                    env) + '`'
                got = run_variant(prog, lab, n, cmd, env, args, tmp, info, rnd)
                if got is None:
                    failed = True
                    continue
                data, notes, wall = got
                rounds.setdefault((lab, n), []).append(info['runs'][-1])
                first = prog == 'nbc' and not comp
                for note in notes if prog == 'nbc' else []:
                    if note.startswith('iters_per_us ') and not ipu:
                        ipu = note.split()[1]
                    if first and note.startswith('comp_us '):
                        k, v = note.split()[1].split('=')
                        comp[k] = float(v)
                R.log(f'{prog} {lab} N={n} round {rnd}: {wall:.1f} s')
        res = {key: R.combine_rounds(rs, lambda test, v: statistics.median(v))
               for key, rs in rounds.items()}
        labels = [v[0] for v in vs]
        if prog == 'coll':
            report_coll(res, labels, ns, info, out, plots, rounds)
        else:
            info['ipu'] = ipu
            report_nbc(res, labels, ns, comp, info, out, plots)
        info['runs'], info['variants'] = [], {}
    if failed:
        sys.exit('run_coll: some runs failed (see above); the reports have the others')


if __name__ == '__main__':
    main()
