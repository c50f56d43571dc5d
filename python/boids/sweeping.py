"""boids.sweep: the `boids sweep` engine from Python. It runs the `boids` command built with the
module (the one `pip install .` puts beside it, or the build tree's), so that a sweep from
Python flies, schedules, resumes and refuses exactly as the command line does."""

import ctypes
import json
import numbers
import os
import shutil
import signal
import subprocess
import sys

from ._tables import table
from ._words import FLOCK_KEYWORDS, in_python_words

# What a refusal names: the flocks' keywords, the sweep's own, and the grid for --param.
_KEYWORDS = FLOCK_KEYWORDS | {"replicas", "discard", "steps", "every", "schedule", "csv",
                              "resume"}


def command():
    """The path of the `boids` command this module goes with: the package's own (pip install),
    BOIDS_COMMAND, the build tree's beside the module, or the first on PATH."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, "bin", "boids"), os.environ.get("BOIDS_COMMAND"),
                 os.path.join(here, os.pardir, os.pardir, "bin", "boids"), shutil.which("boids")):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
    raise RuntimeError("boids.sweep needs the boids command: install the package with pip, "
                       "or set BOIDS_COMMAND to build/bin/boids")


def _ended_with_this_process():
    """What the `boids sweep` child runs before its command, on Linux: the kernel sends it
    SIGTERM once this process ends, however it ends (a SIGTERM or SIGKILL to the program
    around the sweep), and the sweep stops as Ctrl-C stops it, keeping its CSV's finished
    points, instead of flying on orphaned. Elsewhere, None."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here, not after the fork
    parent = os.getpid()
    pr_set_pdeathsig = 1

    def in_the_child():
        prctl(pr_set_pdeathsig, signal.SIGTERM)
        if os.getppid() != parent:  # it ended before the child could ask
            os.kill(os.getpid(), signal.SIGTERM)
    return in_the_child


def _text(value):
    """A value as the command line reads it: numbers as Python writes them (shortest round
    trip), sequences (a goal, wind, world) joined by commas."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number or a word, got {value!r}")
    if isinstance(value, (str, numbers.Number)):
        return str(value)
    return ",".join(_text(v) for v in value)


def _grid_text(name, values):
    """A grid's values as --param reads them: the command line's text as it is, or a sequence
    of values, each one value (a number, or a word without a comma): ['1,2'] is refused rather
    than flown as two points."""
    if isinstance(values, str):
        return values
    if isinstance(values, (numbers.Number, bool)):
        return _text(values)
    texts = []
    for value in values:
        if isinstance(value, str) and ("," in value or ":" in value):
            raise ValueError(f"grid {name!r}: the value {value!r} is not one value; give each "
                             "value of the sequence apart")
        texts.append(_text(value))
    return ",".join(texts)


def sweep(grid, replicas=4, discard=0, steps=1000, every=10, seed=42, schedule="auto",
          csv=None, resume=False, **params):
    """Flies ``replicas`` flocks at every point of ``grid`` and returns the sweep's table, a row
    a point: the grid's values, ``boids``, ``replicas``, ``samples``, the polarization's mean
    (``polarization``), standard deviation and standard error, the Binder cumulant and the
    susceptibility with their standard errors, the polarization's autocorrelation time in steps
    and the effective samples, the mean flock count, largest flock and nearest-neighbour
    distance, and milling's mean and standard error (``milling``, ``milling_sem``). A pandas DataFrame where pandas is installed (its ``attrs`` hold what made it:
    the boids version and command, the grid and the first point's flight), else a dict of NumPy
    arrays.

    ``grid`` maps a parameter to its values: a sequence (``[0.5, 1, 2]``) or the command line's
    ``"START:STOP:STEP"``; the grid is every combination. The other keywords are the flocks'
    options, as ``Flock`` takes them (``model="vicsek"``, ``count=400``); ``csv`` writes a row
    a point as each finishes (with its record beside it), and ``resume`` keeps the points a
    CSV already holds. Samples are taken every ``every`` steps of ``steps``, after ``discard``.

        >>> phases = boids.sweep({"noise": "0.5:5:0.5"}, model="vicsek", count=400,
        ...                      replicas=8, discard=2000, steps=2000)
        >>> phases.plot(x="noise", y="polarization", yerr="polarization_sem")

    It is ``boids sweep --json`` run by the command beside the module: ValueError with the
    command line's message for bad input (its flags named as these keywords, ``--param`` as
    ``grid``), RuntimeError for a failure of the machine; Ctrl-C stops it (the CSV keeps the
    points finished).
    """
    if not isinstance(grid, dict) or not grid:
        raise ValueError(f"grid: expected a dict of parameters and their values, got {grid!r}")
    args = ["sweep", "--json", "--replicas", _text(replicas), "--discard", _text(discard),
            "--steps", _text(steps), "--every", _text(every), "--seed", _text(seed),
            "--schedule", _text(schedule)]
    for name, values in grid.items():
        args += ["--param", f"{str(name).replace('_', '-')}={_grid_text(name, values)}"]
    for name in params:
        if name not in FLOCK_KEYWORDS:  # as Flock() refuses it, in Python's words
            raise TypeError(f"unexpected keyword argument {name!r}; the flock's are "
                            + ", ".join(sorted(FLOCK_KEYWORDS)))
    for name, value in params.items():
        if value is not None:
            args += ["--" + name.replace("_", "-"), _text(value)]
    if csv is not None:
        args += ["--csv", os.fspath(csv)]
    if resume:
        args.append("--resume")
    done = subprocess.run([command()] + args, capture_output=True, text=True,
                          preexec_fn=_ended_with_this_process())
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.startswith("boids: error: ")]
        message = said[0].removeprefix("boids: error: ") if said else done.stderr.strip()
        message = in_python_words(message, _KEYWORDS, {"param": "grid"})
        raise (ValueError if done.returncode == 2 else RuntimeError)(
            message or f"boids sweep exited {done.returncode}")
    report = json.loads(done.stdout)
    points = table(report.pop("points"))
    if hasattr(points, "attrs"):
        points.attrs.update(report)
    return points
