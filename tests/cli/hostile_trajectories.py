"""Hostile trajectories, made with h5py from one `boids run --trajectory` wrote: each refused by
the one reader of trajectories wherever boids reads one (`boids convert` to every format and
`boids serve --replay`), exit 2 with the file named and nothing written, and an unreadable
file called so; before, a box with too few edges read past its buffer, and values that are not
numbers, positions outside the box and boxes that are not boxes were converted with exit 0.

Usage: hostile_trajectories.py BOIDS WORK_DIR. Exits 77 (skipped) without python3-h5py.
"""

import os
import shutil
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError as missing:
    print(f"SKIP: {missing.name} is not installed (Debian: python3-h5py python3-numpy)")
    sys.exit(77)

BOIDS, WORK = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([BOIDS, *args], cwd=WORK, capture_output=True, text=True, timeout=300)


def edges(f):
    return f["particles/flock/box/edges/value"]


def set_value(dataset, index, value):
    data = dataset[...]
    data[index] = value
    dataset[...] = data


# Each damage: a name, and what it does to the file (opened for writing).
def too_few_edges(f):
    del f["particles/flock/box/edges/value"]
    f["particles/flock/box/edges"].create_dataset("value", data=np.array([[100.0]]))


DAMAGES = {
    "too-few-edges": (too_few_edges, "fewer than the 9 of a box in 3 dimensions"),
    # A flat flock's file (the default layout) holds z = 0: a boid off the plane is not its.
    "off-the-plane": (lambda f: set_value(f["particles/flock/position/value"], (2, 3, 2), 0.5),
                      "frame 2, particle 3: z = 0.5, vz = 0 in a flat flock's file"),
    "nan-position": (lambda f: set_value(f["particles/flock/position/value"], (1, 5, 0), np.nan),
                     "frame 1, boid 5: x = nan is not a finite number"),
    "inf-velocity": (lambda f: set_value(f["particles/flock/velocity/value"], (2, 2, 1), np.inf),
                     "frame 2, boid 2: vy = inf is not a finite number"),
    "outside": (lambda f: set_value(f["particles/flock/position/value"], (2, 7, 1), 250.0),
                "frame 2, boid 7: y = 250 lies outside the box [0, 100)"),
    "negative-box": (lambda f: set_value(edges(f), (Ellipsis, 0, 0), -100.0),
                     "its box's side 1 is -100, not a positive number"),
    "nan-box": (lambda f: set_value(edges(f), (Ellipsis, 1, 1), np.nan),
                "its box's side 2 is nan, not a positive number"),
    "zero-box": (lambda f: set_value(edges(f), (Ellipsis, 1, 1), 0.0),
                 "its box's side 2 is 0, not a positive number"),
}

shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
made = run("run", "--backend", "cpu", "--count", "40", "--steps", "20", "--trajectory", "good.h5",
           "--trajectory-every", "10")
check(made.returncode == 0, f"the trajectory is made: {made.stderr}")
for name, (damage, said) in DAMAGES.items():
    path = os.path.join(WORK, name + ".h5")
    shutil.copy(os.path.join(WORK, "good.h5"), path)
    with h5py.File(path, "r+") as f:
        damage(f)
    for out in ("out.csv", "out.npy", "out.gsd", "out.xdmf"):
        if out == "out.xdmf" and name not in ("too-few-edges", "negative-box", "nan-box",
                                              "zero-box"):
            continue  # a description reads no frame
        for left in ("out.csv", "out.npy", "out.gsd", "out.xdmf"):
            if os.path.exists(os.path.join(WORK, left)):
                os.remove(os.path.join(WORK, left))
        done = run("convert", name + ".h5", out, *(["--frame", "1"] if name == "nan-position" and
                                                   out in ("out.csv", "out.npy") else []))
        what = f"convert {name}.h5 {out}"
        check(done.returncode == 2, f"{what} exits 2, not {done.returncode}: {done.stderr}")
        check(done.stderr.startswith(f"boids: error: trajectory '{name}.h5': "),
              f"{what} names the file: {done.stderr}")
        check(said in done.stderr, f"{what} says '{said}': {done.stderr}")
        check(done.stderr.count("\n") == 1, f"{what} says it in one line: {done.stderr}")
        check(not os.path.exists(os.path.join(WORK, out)), f"{what} writes nothing")

# A file that cannot be read is called so, not "not an HDF5 file".
os.chmod(os.path.join(WORK, "good.h5"), 0)
if os.geteuid() != 0:  # root reads it anyway
    unreadable = run("convert", "good.h5", "out.csv")
    check("cannot read it: Permission denied" in unreadable.stderr, unreadable.stderr)
os.chmod(os.path.join(WORK, "good.h5"), 0o644)
# A trajectory's name as an output is refused: its format would not follow its name.
other = run("convert", "good.h5", "other.h5")
check(other.returncode == 2 and "is written by boids run --trajectory" in other.stderr,
      f"convert good.h5 other.h5 is refused: {other.stderr}")
check(not os.path.exists(os.path.join(WORK, "other.h5")), "convert writes no other.h5")

print(f"{len(failures)} failures" if failures else "every hostile trajectory refused")
sys.exit(1 if failures else 0)
