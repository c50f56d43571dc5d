#!/usr/bin/python3
"""Draws the metrics series of `boids run` (its --metrics CSV): polarization, the largest
flock's share of the boids and the order parameter against the step, as the boids model's lab plots
them, and the mean number of neighbors on a second axis. A new flight's changes are marked
where they fall: a dotted line at the step, named above the axes.

    plot_metrics.py METRICS.csv COUNT TITLE OUT [STEP=CHANGE ...]   OUT: .png, .pdf or .svg
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
    if len(argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    # Vector figures keep their text as text, which a journal's editor can set in its font:
    # SVG's as <text>, PDF's as TrueType (Type 42) rather than Type 3 outlines.
    matplotlib.rcParams.update({"svg.fonttype": "none", "pdf.fonttype": 42})
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
    for change in argv[5:]:
        step, text = change.split("=", 1)
        text = text.replace(" -> ", " → ")
        ax.axvline(int(step), color="black", linestyle=":", linewidth=1)
        ax.annotate(text, (int(step), 1.02), xycoords=("data", "axes fraction"), fontsize=8,
                    ha="left", va="bottom", rotation=0)
    lines = ax.get_legend_handles_labels()
    more = second.get_legend_handles_labels()
    # Below the axes, in a row: a legend inside would cover the curves wherever they run.
    ax.legend(lines[0] + more[0], lines[1] + more[1], loc="upper center",
              bbox_to_anchor=(0.5, -0.13), ncol=4, frameon=False)
    ax.set_title(argv[3], pad=18 if argv[5:] else 6)
    fig.tight_layout()
    fig.savefig(argv[4])  # in the format its name ends in: PNG, PDF or SVG
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
