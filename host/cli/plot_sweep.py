#!/usr/bin/python3
"""Draws a sweep of `boids sweep` (its CSV) against the first parameter, one curve per value of
the others: the polarization, the susceptibility and the Binder cumulant, each with its
standard error over the replicas.

    plot_sweep.py SWEEP.csv PARAMETERS TITLE OUT   (PARAMETERS: how many columns lead;
                                                    OUT: .png, .pdf or .svg)
    plot_sweep.py --check      exit 0 when matplotlib can be imported
"""
import csv
import sys

# The parameters' symbols and units on an axis; another parameter is named as --param names it.
AXES = {"noise": "noise η (radians)", "density": "density ρ (boids per unit area or volume)",
        "radius": "perception radius r", "count": "boids N", "speed": "speed v₀",
        "max-speed": "maximum speed v_max", "min-speed": "minimum speed v_min",
        "separation": "separation weight", "alignment": "alignment weight",
        "cohesion": "cohesion weight", "fov": "field of view (degrees)",
        "nearest": "nearest neighbours k", "dt": "time step dt", "world": "world side L",
        "separation-radius": "separation radius", "wander": "wander weight",
        "predators": "predators", "flee-radius": "flee radius",
        "predator-speed": "predator speed"}


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
    # Vector figures keep their text as text, which a journal's editor can set in its font:
    # SVG's as <text>, PDF's as TrueType (Type 42) rather than Type 3 outlines.
    matplotlib.rcParams.update({"svg.fonttype": "none", "pdf.fonttype": 42})
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
    fig, (top, middle, bottom) = plt.subplots(3, 1, figsize=(8, 9), dpi=110, sharex=True,
                                              gridspec_kw={"height_ratios": [2, 1, 1]})
    panels = ((top, "polarization"), (middle, "susceptibility"), (bottom, "binder"))
    for key, members in sorted(curves.items(), key=lambda kv: [float(v) for v in kv[0]]):
        members.sort(key=lambda r: float(r[0]))
        x = [float(r[0]) for r in members]
        label = ", ".join(f"{header[1 + i]} = {v}" for i, v in enumerate(key)) or None
        for ax, name in panels:
            ax.errorbar(x, [float(r[column[name]]) for r in members],
                        yerr=[float(r[column[name + "_sem"]]) for r in members],
                        marker="o", markersize=3, capsize=2, label=label)
    top.set_ylabel("polarization φ")
    top.set_ylim(0, 1.02)
    if curve_name:  # beside the axes: inside, it would cover the curves where they run
        top.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    top.set_title(argv[3], fontsize=10)
    middle.set_ylabel("susceptibility\nχ = N (⟨φ²⟩ − ⟨φ⟩²)")
    bottom.set_ylabel("Binder cumulant\nU = 1 − ⟨φ⁴⟩ / 3⟨φ²⟩²")
    bottom.set_xlabel(AXES.get(x_name, x_name))
    for ax, _ in panels:
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(argv[4])  # in the format its name ends in: PNG, PDF or SVG
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
