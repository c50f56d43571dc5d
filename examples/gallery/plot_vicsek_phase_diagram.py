"""
Vicsek's phase diagram, with error bars and the Binder cumulant
===============================================================

The Vicsek model's order-disorder transition: the polarization φ against the noise η at
density 4, for two flock sizes, each point the mean of independent replicas with its standard
error. The Binder cumulant U = 1 - <φ⁴> / (3 <φ²>²) tends to 2/3 in the ordered phase and to
1/3 in the disordered one in two dimensions; the curves of different sizes cross near the
transition. Its error bars are the sweep's jackknife standard errors over the replicas
(``binder_sem``). ``boids.sweep`` flies the grid (``boids sweep`` from Python: the replicas side
by side on CPU threads, batched on a GPU) and returns its table. The full size is 400 and 1,600
particles, 8 replicas of 4,000 steps; the site's build flies 100 and 400 particles, 4 replicas
of 800 steps (docs/vicsek.md has the recorded sweeps). Run as a script, it saves the figure as
vicsek_phase_diagram.png in the current directory, or in BOIDS_GALLERY_OUT where that is set.
"""
import os

import matplotlib.pyplot as plt

import boids

SMALL = os.environ.get("BOIDS_GALLERY") == "small"
sizes = [100, 400] if SMALL else [400, 1600]
replicas, transient, measured = (4, 400, 400) if SMALL else (8, 2000, 2000)

# %%
# Each replica flies a transient, then samples φ every 10 steps; φ's standard error is over
# the replicas' means (independent), U over every sample with its error by the jackknife, each
# replica left out in turn.
points = boids.sweep({"noise": "0.5:5.5:0.5", "count": sizes}, model="vicsek", density=4,
                     replicas=replicas, discard=transient, steps=measured, every=10)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
for count in sizes:
    p = points[points["count"] == count]
    left.errorbar(p["noise"], p["polarization"], yerr=p["polarization_sem"], marker="o",
                  capsize=3, label=f"N = {count}")
    right.errorbar(p["noise"], p["binder"], yerr=p["binder_sem"], marker="o", capsize=3,
                   label=f"N = {count}")
left.set(xlabel="noise η (radians)", ylabel="polarization φ", title="order parameter φ",
         ylim=(0, 1.05))
right.set(xlabel="noise η (radians)", ylabel="Binder cumulant U", title="Binder cumulant U",
          ylim=(0, 0.75))
right.axhline(2 / 3, color="grey", lw=0.8, ls=":")
right.axhline(1 / 3, color="grey", lw=0.8, ls=":")
right.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))
fig.suptitle(f"Vicsek model, density 4, {replicas} replicas a point, mean ± standard error, "
             f"boids {points.attrs['made_by']['boids_version']}")
fig.tight_layout()
out = os.path.join(os.environ.get("BOIDS_GALLERY_OUT", "."), "vicsek_phase_diagram.png")
fig.savefig(out)
print("saved", out)
plt.show()
