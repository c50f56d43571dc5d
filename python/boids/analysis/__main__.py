"""The command line: ``python3 -m boids.analysis TRAJECTORY [options]``, which ``boids analyse``
runs, analyses a trajectory of ``boids run --trajectory``; see ``main``."""

import argparse
import json
import math
import os
import sys

import numpy as np

from ._space import ball, positive, whole
from .fluctuations import number_fluctuations
from .structure import correlation_length, orientation_correlation, rdf, velocity_correlation

PROG = "boids analyse"
_NEIGHBOURS = 200  # the default r_max: the radius holding this many boids of a uniform gas


class _Refused(Exception):
    """A command line refused: its message names the option."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _Refused(message)


def _parser():
    p = _Parser(prog=PROG, description="Analyses a trajectory of `boids run --trajectory`: "
                "the radial distribution function, velocity and orientation correlations "
                "(Cavagna et al. 2010) and number fluctuations. With none of --rdf, "
                "--correlation and --fluctuations chosen, all of them.")
    p.add_argument("trajectory", help="the trajectory (H5MD) of boids run --trajectory")
    p.add_argument("--rdf", action="store_true", help="the radial distribution function")
    p.add_argument("--correlation", action="store_true",
                   help="velocity and orientation correlations, connected, and their lengths")
    p.add_argument("--fluctuations", action="store_true", help="giant number fluctuations")
    p.add_argument("--frames", default="-1", metavar="A:B:S",
                   help="the frames, as a Python slice or one index (default: -1, the last)")
    p.add_argument("--r-max", default=None, metavar="R",
                   help="the largest distance (default: half the smallest side, or less: the "
                   f"radius holding {_NEIGHBOURS} boids of a uniform gas)")
    p.add_argument("--bins", default=None, metavar="N",
                   help="bins of r (default: 100 for g(r), 50 for correlations)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _frame_slice(text):
    parts = text.split(":")
    try:
        values = [int(part) if part.strip() else None for part in parts]
    except ValueError:
        values = None
    if values is None or len(parts) > 3 or (len(parts) == 1 and values[0] is None):
        raise _Refused(f"--frames: expected A:B:S (a Python slice) or one index, got {text!r}")
    if len(parts) == 1:
        k = values[0]
        return slice(k, k + 1 if k != -1 else None)
    if len(parts) == 3 and values[2] == 0:
        raise _Refused("--frames: the step S must not be 0")
    return slice(*values)


def _options(argv):
    """The parsed options, checked; _Refused names a bad one."""
    options = _parser().parse_args(argv)
    options.frames = _frame_slice(options.frames)
    if options.r_max is not None:
        try:
            options.r_max = positive(float(options.r_max), "--r-max")
        except ValueError:
            raise _Refused(f"--r-max: expected a number > 0, got {options.r_max!r}") from None
    if options.bins is not None:
        try:
            options.bins = whole(int(options.bins), "--bins")
        except ValueError:
            raise _Refused(f"--bins: expected a whole number >= 1, got {options.bins!r}") \
                from None
    if not (options.rdf or options.correlation or options.fluctuations):
        options.rdf = options.correlation = options.fluctuations = True
    return options


def main(argv=None):
    """``python3 -m boids.analysis TRAJECTORY [--rdf] [--correlation] [--fluctuations]
    [--frames A:B:S] [--r-max R] [--bins N] [--json]``: the analyses asked (all of them when
    none is) over the frames chosen (the last by default), printed as tables or one JSON
    object. ``argv`` None: sys.argv[1:]. Returns the exit status: 0; 2 for a refused option or
    trajectory (a message on stderr naming it); 1 for an analysis that failed."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        options = _options(argv)
        if not os.path.exists(options.trajectory):
            raise _Refused(f"trajectory '{options.trajectory}': no such file")
    except _Refused as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    try:
        # The reader checks files with the compiled module: imported here alone, so that the
        # analyses themselves import without it.
        from ..trajectory import read_trajectory
    except ImportError as e:
        print(f"{PROG}: error: reading a trajectory needs the boids package ({e})",
              file=sys.stderr)
        return 1
    try:
        with read_trajectory(options.trajectory) as t:
            flight = _read(t, options)  # ValueError: a file the reader refuses
            try:
                report = _analyse(flight, options)
            except ValueError as e:
                print(f"{PROG}: error: {e}", file=sys.stderr)
                return 1
    except (_Refused, ValueError, OSError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(_plain(report)) if options.json else _text(report))
    return 0


def _read(t, options):
    """What the analyses need of trajectory ``t``: the frames chosen, read, and the world."""
    chosen = range(len(t))[options.frames]
    if len(chosen) == 0:
        raise _Refused(f"--frames: selects none of the trajectory's {len(t)} frames")
    positions = t.positions[options.frames]
    dims = positions.shape[2]
    need = options.correlation
    return {"trajectory": t.path, "boundary": t.boundary, "box": t.box[:dims],
            "frames": list(chosen), "steps": [int(s) for s in t.steps[options.frames]],
            "positions": positions,
            "velocities": t.velocities[options.frames] if need else None}


def _analyse(flight, options):
    """The report of the analyses ``options`` ask for over a flight that ``_read`` read."""
    positions = flight["positions"]
    dims = positions.shape[2]
    sides = np.asarray(flight["box"], dtype=np.float64) if flight["boundary"] == "torus" \
        else None
    report = {"trajectory": flight["trajectory"], "count": int(positions.shape[1]),
              "dimensions": dims, "boundary": flight["boundary"],
              "box": [float(s) for s in flight["box"]], "frames": flight["frames"],
              "steps": flight["steps"]}
    half = float(np.min(flight["box"])) / 2
    if options.r_max is not None and sides is not None and options.r_max > half:
        raise _Refused(f"--r-max: {options.r_max!r} exceeds half the smallest box side "
                       f"({half!r})")
    volume = float(np.prod(flight["box"]))
    r_max = options.r_max or min(half, (_NEIGHBOURS * volume / (
        positions.shape[1] * ball(dims, 1.0))) ** (1 / dims))
    if options.rdf:
        # Walls bound the flock to the box: its volume normalises g(r), without wrapping.
        g = rdf(positions, sides, r_max, options.bins or 100,
                volume=None if sides is not None else volume)
        report["rdf"] = {"r_max": r_max, "bin_centers": g.bin_centers, "rdf": g.rdf,
                         "n_r": g.n_r}
    if options.correlation:
        velocities = flight["velocities"]
        bins = options.bins or 50
        c = velocity_correlation(positions, velocities, sides, r_max, bins)
        o = orientation_correlation(positions, velocities, sides, r_max, bins)
        report["correlation"] = {
            "r_max": r_max, "bin_centers": c.bin_centers, "velocity": c.correlation,
            "orientation": o.correlation, "bin_counts": c.bin_counts,
            "velocity_length": correlation_length(c), "orientation_length": correlation_length(o)}
    if options.fluctuations:
        f = number_fluctuations(positions, sides)
        report["fluctuations"] = {"sizes": f.sizes, "mean": f.mean, "std": f.std,
                                  "alpha": f.alpha, "alpha_error": f.alpha_error}
    return report


def _plain(value):
    """``value`` as JSON has it: arrays as lists, nan as null."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.integer, int)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return float(value) if math.isfinite(value) else None
    return value


def _number(value):
    return "-" if not math.isfinite(value) else f"{value:.6g}"


def _table(heads, columns):
    rows = [heads] + [[_number(float(v)) for v in row] for row in zip(*columns)]
    width = [max(len(row[c]) for row in rows) for c in range(len(heads))]
    return "\n".join("  ".join(cell.rjust(w) for cell, w in zip(row, width)) for row in rows)


def _text(report):
    """The report as tables for people."""
    frames = report["frames"]
    box = " x ".join(_number(s) for s in report["box"])
    lines = [f"trajectory {report['trajectory']}: {report['count']} boids in "
             f"{report['dimensions']}D, {report['boundary']} {box}; " + (
                 f"frame {frames[0]} (step {report['steps'][0]})" if len(frames) == 1 else
                 f"{len(frames)} frames (steps {report['steps'][0]} to {report['steps'][-1]})")]
    if "rdf" in report:
        g = report["rdf"]
        lines += ["", f"radial distribution function, r_max {_number(g['r_max'])}",
                  _table(["r", "g(r)", "n(r)"], [g["bin_centers"], g["rdf"], g["n_r"]])]
    if "correlation" in report:
        c = report["correlation"]
        lines += ["", f"connected correlations C(r) (Cavagna et al. 2010), r_max "
                      f"{_number(c['r_max'])}",
                  _table(["r", "velocity", "orientation", "pairs"],
                         [c["bin_centers"], c["velocity"], c["orientation"], c["bin_counts"]]),
                  f"correlation length (first zero): velocity {_number(c['velocity_length'])},"
                  f" orientation {_number(c['orientation_length'])} ('-': beyond r_max)"]
    if "fluctuations" in report:
        f = report["fluctuations"]
        lines += ["", "number fluctuations in sub-boxes",
                  _table(["size", "<n>", "std(n)"], [f["sizes"], f["mean"], f["std"]]),
                  f"alpha {_number(f['alpha'])} +- {_number(f['alpha_error'])} "
                  f"(std(n) ~ <n>^alpha; 0.5 for a uniform gas)"]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
