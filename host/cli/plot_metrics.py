#!/usr/bin/python3
"""Draws the metrics series of `boids run` (its --metrics CSV): polarization, the largest
flock's share of the boids and the order parameter against the step, as the boids model's lab plots
them, and the mean number of neighbors on a second axis.

    plot_metrics.py METRICS.csv COUNT TITLE OUT.png
    plot_metrics.py --check      exit 0 when matplotlib can be imported
"""
import csv
import sys


def main(argv):
    if argv[1:] == ["--check"]:
        try:  # the tool says what is missing, in one line: no traceback
            import matplotlib  # noqa: F401
        except ImportError:
            return 1
        return 0
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    count = float(argv[2])
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    steps = [int(r["step"]) for r in rows]
    fig, ax = plt.subplots(figsize=(9, 5), dpi=110)
    ax.plot(steps, [float(r["polarization"]) for r in rows], label="polarization", color="tab:blue")
    ax.plot(steps, [int(r["largest_flock"]) / count for r in rows], label="largest flock / boids",
            color="tab:green")
    ax.plot(steps, [float(r["order"]) for r in rows], label="order |sum v| / (N v_max)",
            color="tab:orange", linestyle="--")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("step")
    ax.set_ylabel("fraction")
    ax.grid(True, alpha=0.3)
    second = ax.twinx()
    second.plot(steps, [float(r["mean_neighbors"]) for r in rows], label="mean neighbours",
                color="tab:gray", linewidth=0.8)
    second.set_ylabel("mean neighbours within r")
    lines = ax.get_legend_handles_labels()
    more = second.get_legend_handles_labels()
    ax.legend(lines[0] + more[0], lines[1] + more[1], loc="lower right")
    ax.set_title(argv[3])
    fig.tight_layout()
    fig.savefig(argv[4], format="png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
