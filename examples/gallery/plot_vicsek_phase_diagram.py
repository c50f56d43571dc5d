"""
Vicsek's phase diagram, with error bars and the Binder cumulant
===============================================================

The Vicsek model's order-disorder transition: the polarization φ against the noise η at
density 4, for two flock sizes, each point the mean of independent replicas with its standard
error. The Binder cumulant G = 1 - <φ⁴> / (3 <φ²>²) tends to 2/3 in the ordered phase and to
1/3 in the disordered one in two dimensions; the curves of different sizes cross near the
transition. ``boids.sweep`` flies the grid (``boids sweep`` from Python: the replicas side by
side on CPU threads, batched on a GPU) and returns its table. The full size is 400 and 1,600
particles, 8 replicas of 4,000 steps; the site's build flies 100 and 400 particles, 4 replicas
of 800 steps (docs/vicsek.md has the recorded sweeps).
"""
import os

import matplotlib.pyplot as plt

import boids

SMALL = os.environ.get("BOIDS_GALLERY") == "small"
sizes = [100, 400] if SMALL else [400, 1600]
replicas, transient, measured = (4, 400, 400) if SMALL else (8, 2000, 2000)

# %%
# Each replica flies a transient, then samples φ every 10 steps; the standard error is over the
# replicas' means (independent), the cumulant over every sample.
points = boids.sweep({"noise": "0.5:5.5:0.5", "count": sizes}, model="vicsek", density=4,
                     replicas=replicas, discard=transient, steps=measured, every=10)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
for count in sizes:
    p = points[points["count"] == count]
    left.errorbar(p["noise"], p["polarization"], yerr=p["polarization_sem"], marker="o",
                  capsize=3, label=f"N = {count}")
    right.plot(p["noise"], p["binder"], marker="o", label=f"N = {count}")
left.set(xlabel="noise η (radians)", ylabel="polarization φ", title="order parameter")
right.set(xlabel="noise η (radians)", ylabel="G", title="Binder cumulant", ylim=(0, 0.75))
right.axhline(2 / 3, color="grey", lw=0.8, ls=":")
right.axhline(1 / 3, color="grey", lw=0.8, ls=":")
for ax in (left, right):
    ax.legend()
fig.suptitle(f"Vicsek model, density 4, {replicas} replicas a point, "
             f"boids {points.attrs['made_by']['boids_version']}")
fig.tight_layout()
plt.show()
