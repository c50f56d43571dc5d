#!/usr/bin/python3
"""Draws a boids-bench JSON report: ms per step against boids, log-log, one line per
backend/method/precision (solid: random start, dashed: flocked), the fitted exponents in the
legend.

    plot.py REPORT.json OUT.png
    plot.py --check          exit 0 when matplotlib can be imported
"""
import json
import sys


def main(argv):
    if argv[1:] == ["--check"]:
        import matplotlib  # noqa: F401
        return 0
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(argv[1]) as f:
        report = json.load(f)
    series = {}
    for row in report["rows"]:
        key = (row["backend"], row["method"], row["precision"], row["state"], row.get("variant", "seed"))
        series.setdefault(key, []).append((row["count"], row["ms_per_step"], row["ms_min"], row["ms_max"]))
    fits = {(f["backend"], f["method"], f["precision"], f["state"], f.get("variant", "seed")): f
            for f in report.get("series_fits", [])}

    fig, ax = plt.subplots(figsize=(9, 6), dpi=110)
    colours = {}
    palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for key in sorted(series):
        backend, method, precision, state, variant = key
        line_key = (backend, method, precision, variant)
        if line_key not in colours:
            colours[line_key] = palette[len(colours) % len(palette)]
        points = sorted(series[key])
        counts = [p[0] for p in points]
        ms = [p[1] for p in points]
        low = [p[1] - p[2] for p in points]
        high = [p[3] - p[1] for p in points]
        fit = fits.get(key, {})
        exponent = fit.get("exponent")
        label = f"{backend} {method} {precision} {state}" + ("" if variant == "seed" else f" {variant}")
        if exponent is not None:
            label += f"  (n^{exponent:.2f})"
        ax.errorbar(counts, ms, yerr=[low, high], color=colours[line_key], marker="o", markersize=3,
                    linestyle="-" if state == "random" else "--", linewidth=1.4, capsize=2, label=label)

    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("boids (density %g per r²)" % report.get("settings", {}).get("density", 0))
    ax.set_ylabel("ms per step (median; bars: min to max)")
    machine = report.get("machine", {})
    hardware = " / ".join(m.get("name", "?") for m in machine.values())
    overall = ", ".join(
        f"{method} n^{fit['exponent']:.2f}" for method, fit in report.get("fits", {}).items()
        if fit.get("exponent") is not None)
    ax.set_title(f"boids-bench {report.get('date', '')[:10]} {report.get('commit') or ''}\n{hardware}"
                 + (f"; fits: {overall}" if overall else ""), fontsize=9)
    ax.grid(True, which="both", linewidth=0.3, alpha=0.6)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()

    fig.savefig(argv[2], format="png")  # boids-bench names a file it renames into place
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
