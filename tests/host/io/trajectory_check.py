"""`boids run --trajectory` read with h5py: the H5MD layout (a flat flock's at z = 0 in a box
one unit deep, as readers of 3D files open it), every frame equal bit for bit to
`boids run --steps k --save` in input order, the observables equal to --metrics, and the whole
frames kept when the disk fills (a file-size limit) or the run is killed.

Usage: trajectory_check.py BOIDS WORK_DIR. Exits 77 (skipped) without python3-h5py.
"""

import csv
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

try:
    import h5py
    import numpy as np
except ImportError as missing:
    print(f"SKIP: {missing.name} is not installed (Debian: python3-h5py python3-numpy)")
    sys.exit(77)

BOIDS, WORK = os.path.abspath(sys.argv[1]), sys.argv[2]
FLOCK = ["--backend", "cpu", "--seed", "7", "--count", "300"]
OBSERVABLES = ["polarization", "order", "flocks", "largest_flock", "mean_nn_distance",
               "mean_neighbors"]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(args, limit=None):
    def limited():
        # A file-size limit stands for a full disk; SIGXFSZ ignored, writes fail with EFBIG.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([BOIDS, "run", *args], cwd=WORK, capture_output=True, text=True,
                          preexec_fn=limited if limit else None)


def saved_state(flock, steps):
    """The state after `steps` steps, from --save: an (N, 4) array of x, y, vx, vy."""
    result = run([*flock, "--steps", str(steps), "--save", "state.csv"])
    assert result.returncode == 0, result.stderr
    with open(os.path.join(WORK, "state.csv")) as f:
        rows = list(csv.reader(f))[1:]
    return np.array([[float(v) for v in row] for row in rows])


def check_frames(f, flock, what):
    steps = f["particles/flock/position/step"][:]
    check(np.all(np.diff(steps) > 0), f"{what}: steps increase")
    for frame, step in enumerate(steps):
        state = saved_state(flock, int(step))
        position = f["particles/flock/position/value"][frame]
        velocity = f["particles/flock/velocity/value"][frame]
        check(np.array_equal(position[:, :2], state[:, :2]), f"{what}: positions at step {step}")
        check(np.array_equal(velocity[:, :2], state[:, 2:]), f"{what}: velocities at step {step}")
        check(not position[:, 2:].any() and not velocity[:, 2:].any(), f"{what}: z = vz = 0")
    return steps


def layout_and_frames():
    result = run([*FLOCK, "--steps", "20", "--trajectory", "t.h5", "--trajectory-every", "6",
                  "--metrics", "m.csv", "--metrics-every", "6"])
    check(result.returncode == 0, "the run succeeds: " + result.stderr)
    with h5py.File(os.path.join(WORK, "t.h5"), "r") as f:
        check(list(f["h5md"].attrs["version"]) == [1, 1], "h5md version [1, 1]")
        check(f["h5md/author"].attrs["name"] == b"boids", "author")
        check(f["h5md/creator"].attrs["name"] == b"boids", "creator")
        check(len(f["h5md/creator"].attrs["version"]) > 0, "creator version")
        box = f["particles/flock/box"]
        check(box.attrs["dimension"] == 3, "box dimension")
        check(list(box.attrs["boundary"]) == [b"periodic", b"periodic", b"none"], "periodic box")
        edges = box["edges/value"]
        check(edges.shape == (5, 3, 3), "box edges: a 3 x 3 matrix a frame")
        check(all(np.array_equal(e, np.diag([100.0, 100.0, 1.0])) for e in edges), "box edges")
        check(box["edges/step"] == f["particles/flock/position/step"], "box edges' steps")
        for element in ["position", "velocity"]:
            value = f[f"particles/flock/{element}/value"]
            check(value.shape == (5, 300, 3) and value.dtype == np.float64, element + " shape")
            check(value.chunks == (1, 300, 3), element + " chunks")
            check(value.compression == "gzip" and value.shuffle, element + " compression")
        steps = check_frames(f, FLOCK, "boids")
        check(list(steps) == [0, 6, 12, 18, 20], "frames at 0, every 6 and the last step")
        check(np.array_equal(f["particles/flock/position/time"][:], steps), "time = step")
        with open(os.path.join(WORK, "m.csv")) as m:
            rows = list(csv.DictReader(m))
        check([int(r["step"]) for r in rows] == list(steps), "metrics rows at the frames")
        for name in OBSERVABLES:
            group = f["observables/" + name]
            check(np.array_equal(group["step"][:], steps), name + " step")
            kind = int if name in ("flocks", "largest_flock") else float
            expected = [kind(r[name]) for r in rows]
            check(list(group["value"][:]) == expected, name + " equals --metrics")
        parameters = f["parameters"].attrs
        check(parameters["model"] == b"boids" and parameters["seed"] == 7, "parameters")
        check(parameters["backend"] == b"cpu" and parameters["method"] == b"hashed",
              "backend parameters")
        check(parameters["radius"] == 10.0 and parameters["world"] == 100.0, "flock parameters")


def steering_and_walls():
    flock = [*FLOCK, "--model", "steering", "--boundary", "walls"]
    result = run([*flock, "--steps", "9", "--trajectory", "s.h5md", "--trajectory-every", "4"])
    check(result.returncode == 0, "the steering run succeeds: " + result.stderr)
    with h5py.File(os.path.join(WORK, "s.h5md"), "r") as f:
        steps = check_frames(f, flock, "steering")
        check(list(steps) == [0, 4, 8, 9], "steering frames")
        check(np.array_equal(f["particles/flock/position/time"][:], steps * (1 / 60)),
              "steering time = step x dt")
        check(list(f["particles/flock/box"].attrs["boundary"]) == [b"none", b"none", b"none"],
              "walls have no periodic boundary")
        check(np.array_equal(f["particles/flock/box/edges/value"][-1],
                             np.diag([800.0, 600.0, 1.0])), "the lab's world")
        check(f["parameters"].attrs["dt"] == 1 / 60, "dt recorded")


def full_disk():
    flock = [*FLOCK[:-1], "2000"]
    result = run([*flock, "--steps", "400", "--trajectory", "full.h5", "--trajectory-every", "5"],
                 limit=1_500_000)
    check(result.returncode == 1, f"a full disk exits 1 (got {result.returncode})")
    lines = result.stderr.strip().split("\n")
    check(len(lines) == 1 and lines[0].startswith("boids: error: trajectory 'full.h5': "
                                                  "cannot write the frame at step"),
          "one error line: " + result.stderr)
    check("File too large" in result.stderr and "whole frames" in result.stderr,
          "the reason and what the file keeps: " + result.stderr)
    with h5py.File(os.path.join(WORK, "full.h5"), "r") as f:
        steps = f["particles/flock/position/step"][:]
        check(len(steps) >= 3, f"some frames were written ({len(steps)})")
        check(list(steps) == list(range(0, 5 * len(steps), 5)), "the frames up to the last")
        check(f"to step {steps[-1]}" in result.stderr, "the message names the last frame")
        positions = f["particles/flock/position/value"][: len(steps)]
        check(np.all(np.isfinite(positions)), "finite positions")
        check(np.all((positions >= 0) & (positions < 100)), "positions inside the world")
        last = saved_state(flock, int(steps[-1]))
        check(np.array_equal(positions[-1][:, :2], last[:, :2]), "the last frame equals --save")
        print(f"full disk: {len(steps)} frames kept, to step {steps[-1]}")
    # Failing before the first frame leaves an existing file as it was, and no other.
    with open(os.path.join(WORK, "kept.h5"), "w") as f:
        f.write("earlier")
    before = set(os.listdir(WORK))
    result = run([*flock, "--steps", "10", "--trajectory", "kept.h5"], limit=200_000)
    check(result.returncode == 1, "no room for the first frame exits 1")
    with open(os.path.join(WORK, "kept.h5")) as f:
        check(f.read() == "earlier", "an existing file is left untouched")
    check(set(os.listdir(WORK)) == before, "no temporary file is left")


def killed_run():
    args = [BOIDS, "run", *FLOCK[:-1], "100000", "--world", "2887", "--steps", "100000",
            "--trajectory", "killed.h5", "--trajectory-every", "1"]
    process = subprocess.Popen(args, cwd=WORK, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    path = os.path.join(WORK, "killed.h5")
    deadline = time.time() + 120
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)
    process.kill()
    process.wait()
    with h5py.File(path, "r") as f:
        steps = f["particles/flock/position/step"][:]
        check(len(steps) >= 1 and list(steps) == list(range(len(steps))),
              f"a killed run keeps its frames ({len(steps)})")
        positions = f["particles/flock/position/value"][: len(steps)]
        check(np.all(np.isfinite(positions)), "a killed run's positions are finite")
        print(f"killed run: {len(steps)} frames kept")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    layout_and_frames()
    steering_and_walls()
    full_disk()
    killed_run()
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("trajectory_check: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
