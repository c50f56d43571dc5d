"""boids and numpy read each other's .npy state files.

Usage: npy_interop.py BOIDS WORK_DIR. Exits 77 (skipped) when numpy is missing.
"""
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("numpy is not installed for " + sys.executable + ": skipped (apt install python3-numpy)")
    sys.exit(77)

boids, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)


def run(*args):
    result = subprocess.run([boids, "run", "--backend", "cpu", *args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("boids run " + " ".join(args) + " failed: " + result.stderr)


def read_csv(path):
    return np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)


# numpy.load opens what boids writes, and holds the same numbers as the CSV file.
saved_npy, saved_csv = os.path.join(work, "saved.npy"), os.path.join(work, "saved.csv")
run("--count", "300", "--steps", "7", "--save", saved_npy)
run("--count", "300", "--steps", "7", "--save", saved_csv)
array = np.load(saved_npy)
assert array.dtype == np.dtype("<f8"), array.dtype
assert array.shape == (300, 4), array.shape
assert array.flags["C_CONTIGUOUS"]
assert np.array_equal(array, read_csv(saved_csv)), "the .npy and CSV states differ"

# boids reads what numpy.save writes, C and Fortran order, bit for bit.
rng = np.random.default_rng(5)
state = np.column_stack([rng.uniform(0, 100, 50), rng.uniform(0, 100, 50),
                         rng.normal(size=50), rng.normal(size=50)])
state[3] = [0.0, np.nextafter(100, 0), -0.0, 5e-324]
for name, data in [("c.npy", state), ("fortran.npy", np.asfortranarray(state))]:
    path = os.path.join(work, name)
    np.save(path, data)
    out = os.path.join(work, name + ".csv")
    run("--init", path, "--precision", "double", "--steps", "0", "--save", out)
    back = read_csv(out)
    assert back.tobytes() == state.tobytes(), name + " did not come back bit for bit"

# A float32 array is refused, naming its dtype.
path = os.path.join(work, "float32.npy")
np.save(path, state.astype(np.float32))
result = subprocess.run([boids, "run", "--init", path], capture_output=True, text=True)
assert result.returncode == 2 and "'<f4' (float32)" in result.stderr, result.stderr
print("numpy and boids agree on .npy files")
