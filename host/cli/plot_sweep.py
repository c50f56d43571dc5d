#!/usr/bin/python3
"""Draws a sweep of `boids sweep` (its CSV): the polarization with its standard error against
the first parameter, one curve per value of the second, and the Binder cumulant below it.

    plot_sweep.py SWEEP.csv PARAMETERS TITLE OUT.png   (PARAMETERS: how many columns lead)
    plot_sweep.py --check      exit 0 when matplotlib can be imported
"""
import csv
import sys


def main(argv):
    if argv[1:] == ["--check"]:
        import matplotlib  # noqa: F401
        return 0
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(argv[1], newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [r for r in reader if len(r) == len(header)]
    params = int(argv[2])
    column = {name: i for i, name in enumerate(header)}
    x_name = header[0]
    curve_name = header[1] if params > 1 else None
    curves = {}
    for r in rows:
        key = tuple(r[1:params])
        curves.setdefault(key, []).append(r)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), dpi=110, sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]})
    for key, members in sorted(curves.items(), key=lambda kv: [float(v) for v in kv[0]]):
        members.sort(key=lambda r: float(r[0]))
        x = [float(r[0]) for r in members]
        label = ", ".join(f"{header[1 + i]} = {v}" for i, v in enumerate(key)) or None
        top.errorbar(x, [float(r[column["polarization"]]) for r in members],
                     yerr=[float(r[column["polarization_sem"]]) for r in members],
                     marker="o", markersize=3, capsize=2, label=label)
        bottom.plot(x, [float(r[column["binder"]]) for r in members], marker="o", markersize=3,
                    label=label)
    top.set_ylabel("polarization φ")
    top.set_ylim(0, 1.02)
    top.grid(True, alpha=0.3)
    if curve_name:
        top.legend(fontsize=8)
    top.set_title(argv[3])
    bottom.set_ylabel("Binder cumulant U")
    bottom.set_xlabel(x_name)
    bottom.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(argv[4])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
