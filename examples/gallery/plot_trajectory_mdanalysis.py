"""
A trajectory in MDAnalysis, and on to OVITO
===========================================

``boids run --trajectory flight.h5`` records the flight in H5MD, the HDF5 layout of molecular
dynamics: positions, velocities, the box and the flock's metrics a frame, read by MDAnalysis,
h5py and ``boids.read_trajectory``. ``boids convert flight.h5 flight.gsd`` writes the GSD file
that OVITO and HOOMD-blue open. Here a 3D flight of 2,000 boids is read in MDAnalysis, its
nearest-neighbour distances measured with MDAnalysis' own distance search in the periodic box,
and converted for OVITO.
"""
import os
import shutil
import subprocess
import tempfile

import matplotlib.pyplot as plt
import numpy as np
from MDAnalysis.coordinates.H5MD import H5MDReader
from MDAnalysis.lib.distances import self_capped_distance

# The boids command beside the module (pip install .), or the one scripts/docs names.
command = os.environ.get("BOIDS_COMMAND") or shutil.which("boids")
work = tempfile.mkdtemp()
flight = os.path.join(work, "flight.h5")

# %%
# Fly and record: a frame every 50 steps.
subprocess.run([command, "run", "--dimensions", "3", "--count", "2000", "--steps", "500",
                "--trajectory", flight, "--trajectory-every", "50"], check=True,
               stdout=subprocess.DEVNULL)

# %%
# MDAnalysis reads the frames; each carries its step and the flock's metrics. The box is the
# torus, so distances wrap.
steps, nearest = [], []
for ts in H5MDReader(flight, convert_units=False):
    pairs, distances = self_capped_distance(ts.positions, max_cutoff=20.0, box=ts.dimensions)
    closest = np.full(ts.n_atoms, np.inf)
    np.minimum.at(closest, pairs[:, 0], distances)
    np.minimum.at(closest, pairs[:, 1], distances)
    steps.append(ts.data["step"])
    nearest.append(np.median(closest[np.isfinite(closest)]))
fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(steps, nearest, "o-")
ax.set(xlabel="step", ylabel="median nearest-neighbour distance",
       title="2,000 boids in a box, read by MDAnalysis")
fig.tight_layout()

# %%
# For OVITO: GSD, positions centred on the box as HOOMD-blue has them.
gsd_file = os.path.join(work, "flight.gsd")
subprocess.run([command, "convert", flight, gsd_file], check=True)
print(f"{os.path.getsize(gsd_file):,} bytes of GSD for OVITO: File > Load File > flight.gsd")
shutil.rmtree(work)
plt.show()
