#!/usr/bin/env python3
"""tools/loom-model/plot.py -- draws the paper's Figs. 13-16 (2019 paper, Section 6.2) from the
CSV that `loom-model --plot FILE.png` writes (columns: buffer,N,P,S,C,T_blocking,
T_blocking_total,T_nonblocking,T_overlapped,best_S). Plotting only: every number comes from
the C model. Usage: plot.py TABLE.csv OUT.png CORES"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__ + "\n")
        return 2
    table, out, cores = sys.argv[1], sys.argv[2], sys.argv[3]
    rows = list(csv.DictReader(open(table)))
    fig, axes = plt.subplots(2, 2, figsize=(13, 9))
    panels = [
        ("const", "T_nonblocking", "Fig. 13: communication cost, constant buffer (bcast, reduce)"),
        ("const", "T_overlapped", "Fig. 14: overlap, constant buffer (bcast, reduce)"),
        ("doubling", "T_nonblocking", "Fig. 15: communication cost, doubling buffer (scatter, gather)"),
        ("doubling", "T_overlapped", "Fig. 16: overlap, doubling buffer (scatter, gather)"),
    ]
    for ax, (buf, col, title) in zip(axes.flat, panels):
        sel = [r for r in rows if r["buffer"] == buf]
        ns = sorted({int(r["N"]) for r in sel})
        s_values = sorted({int(r["S"]) for r in sel})
        first = {int(r["N"]): r for r in sel if int(r["S"]) == 0}
        if col == "T_nonblocking":
            ax.plot(ns, [float(first[n]["C"]) for n in ns], "k--", label="C(N) computation")
            ax.plot(ns, [float(first[n]["T_blocking"]) for n in ns], "k-", lw=4, alpha=0.35,
                    zorder=0, label="T_blocking (= S = H(N))")
        else:
            ax.plot(ns, [float(first[n]["T_blocking_total"]) for n in ns], "k-", lw=4,
                    alpha=0.35, zorder=0, label="blocking: T_blocking + C(N) (= S = H(N))")
        for s in s_values:
            pts = [(int(r["N"]), float(r[col])) for r in sel if int(r["S"]) == s]
            pts = [(n, t) for n, t in pts if t != float("inf")]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=f"S = {s}")
        if col == "T_overlapped":
            best = [(n, float(r["T_overlapped"])) for n in ns for r in sel
                    if int(r["N"]) == n and int(r["S"]) == int(r["best_S"])]
            ax.plot([b[0] for b in best], [b[1] for b in best], "o", mfc="none", color="red",
                    label="best S (model)")
        ax.set_yscale("log")
        ax.set_xlabel(f"N (MPI ranks; {cores} - N communication cores)")
        ax.set_ylabel("time (transfer units)")
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"split-tree model on {cores} cores (loom-model)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
