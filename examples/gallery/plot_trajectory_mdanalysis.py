"""
A trajectory in MDAnalysis, and on to OVITO
===========================================

``boids run --trajectory flight.h5`` records the flight in H5MD, the HDF5 layout of molecular
dynamics: positions, velocities, the box and the flock's metrics a frame, read by MDAnalysis,
h5py and ``boids.read_trajectory``. ``boids convert flight.h5 flight.gsd`` writes the GSD file
that OVITO and HOOMD-blue open. Here a 3D flight of 2,000 boids is read in MDAnalysis, its
nearest-neighbour distances measured with MDAnalysis' own distance search in the periodic box,
and converted for OVITO. Run as a script, it saves the figure as trajectory_mdanalysis.png and
the GSD file as trajectory_mdanalysis.gsd in the current directory, or in BOIDS_GALLERY_OUT
where that is set.
"""
import os
import subprocess
import sys
import tempfile

import matplotlib.pyplot as plt
import numpy as np
from MDAnalysis.coordinates.H5MD import H5MDReader
from MDAnalysis.lib.distances import self_capped_distance

import boids.sweeping

# The boids command that goes with the module, as boids.sweep finds it: the package's own
# (pip install), BOIDS_COMMAND (scripts/docs names the build's), the build tree's, or PATH's.
try:
    command = boids.sweeping.command()
except RuntimeError:
    sys.exit("plot_trajectory_mdanalysis: no boids command found: install the package with pip "
             "(README.md), or set BOIDS_COMMAND to build/bin/boids")
out_dir = os.environ.get("BOIDS_GALLERY_OUT", ".")  # where the figure and the GSD file go
work = tempfile.TemporaryDirectory()  # the H5MD flight, removed at the end
flight = os.path.join(work.name, "flight.h5")

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
fig.savefig(out := os.path.join(out_dir, "trajectory_mdanalysis.png"))
print("saved", out)

# %%
# For OVITO: GSD, positions centred on the box as HOOMD-blue has them, kept beside the figure.
gsd_file = os.path.join(out_dir, "trajectory_mdanalysis.gsd")
subprocess.run([command, "convert", flight, gsd_file], check=True)
print(f"saved {gsd_file} ({os.path.getsize(gsd_file):,} bytes of GSD for OVITO: "
      "File > Load File)")
work.cleanup()
plt.show()
