"""
Couzin's collective states, and collective memory
=================================================

Couzin, Krause, James, Ruxton & Franks (2002) found four collective states in their zonal
model as the zone of orientation Δr_o widens, the zone of attraction held at Δr_a = 14: a
**swarm** (neither polarized nor milling), a **torus** (the group mills about an empty core), a
**dynamic parallel** group and a **highly parallel** one. Two observables tell them apart: the
polarization φ and the milling m (the paper's p_group and m_group; docs/models.md). Here 100
individuals in three dimensions, the paper's parameters (``--model couzin``'s defaults), start
in a 20-unit cube in a world far larger than the group, each Δr_o flown by several seeds.

The states also depend on where the group comes from: lowered into the torus's range from a
parallel group, Δr_o keeps it parallel, where a random start mills. The paper calls it
collective memory. A flight lowers Δr_o with ``Flock.set_params`` here, or with
``boids run --resume FILE --new-flight --orientation-width W`` on the command line. Run as a
script, it saves the figure as couzin_collective_memory.png in the current directory, or in
BOIDS_GALLERY_OUT where that is set.
"""
import os

import matplotlib.pyplot as plt
import numpy as np

import boids

SMALL = os.environ.get("BOIDS_GALLERY") == "small"
WORLD = 300.0  # far larger than the group: open space until the group would cross it
seeds = range(3) if SMALL else range(8)
widths = np.arange(0, 16, 1.5 if SMALL else 1.0)
settle, sampled = (1500, 500) if SMALL else (3000, 1000)


def compact_start(seed, count=100, side=20.0):
    """Individuals in a cube of `side` at the world's middle, random headings at speed 3."""
    rng = np.random.default_rng(seed)
    positions = WORLD / 2 + side * (rng.random((count, 3)) - 0.5)
    headings = rng.normal(size=(count, 3))
    headings *= 3 / np.linalg.norm(headings, axis=1)[:, None]
    return np.hstack([positions, headings])


def observe(flock, steps, every=25):
    """The mean polarization and milling over `steps` more steps, sampled every `every`."""
    p, m = [], []
    for _ in range(steps // every):
        flock.step(every)
        metrics = flock.metrics()
        p.append(metrics["polarization"])
        m.append(metrics["milling"])
    return np.mean(p), np.mean(m)


def flock_of(seed, width):
    return boids.Flock.from_state(compact_start(seed), seed=seed, model="couzin",
                                  orientation_width=width, world=WORLD, backend="cpu")


def sem(values):
    """The standard error of the mean over the seeds (the last axis)."""
    return values.std(axis=-1, ddof=1) / np.sqrt(values.shape[-1])


# %%
# The four states against Δr_o: each seed settles, then is sampled; the points are the seeds'
# means, the bars their standard error (the seeds are independent).
states = np.zeros((len(widths), len(seeds), 2))
for i, width in enumerate(widths):
    for k, seed in enumerate(seeds):
        flock = flock_of(seed, width)
        flock.step(settle)
        states[i, k] = observe(flock, sampled)

# %%
# Collective memory: the same Δr_o reached two ways. A parallel group (settled at Δr_o = 8) has
# its zone of orientation narrowed; a random start begins there.
low = [1.0, 1.5, 2.0, 2.5]
memory = np.zeros((len(low), len(seeds), 2, 2))  # width, seed, (random, from parallel), (p, m)
for i, width in enumerate(low):
    for k, seed in enumerate(seeds):
        fresh = flock_of(seed, width)
        fresh.step(settle)
        memory[i, k, 0] = observe(fresh, sampled)
        parallel = flock_of(seed, 8.0)
        parallel.step(settle)
        parallel.set_params(orientation_width=width)
        parallel.step(settle)
        memory[i, k, 1] = observe(parallel, sampled)

fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.2))
for j, (name, colour) in enumerate([("polarization φ", "#5e81ac"), ("milling m", "#b48ead")]):
    by_seed = states[:, :, j]
    left.errorbar(widths, by_seed.mean(axis=1), yerr=sem(by_seed), marker="o", capsize=3,
                  color=colour, label=name)
    for start, marker, ls, how in ((0, "o", "-", "random start"),
                                   (1, "s", "--", "from a parallel group")):
        by_seed = memory[:, :, start, j]
        right.errorbar(low, by_seed.mean(axis=1), yerr=sem(by_seed), marker=marker, ls=ls,
                       capsize=3, color=colour, label=f"{name}, {how}")
for x, y, label in [(-0.5, 0.32, "swarm"), (1.4, 0.95, "torus"), (3.2, 0.62, "dynamic\nparallel"),
                    (7.5, 0.62, "highly\nparallel")]:
    left.text(x, y, label, ha="left", va="center", fontsize=9, color="#4c566a")
left.set(xlabel="zone of orientation Δr_o", ylabel="polarization φ, milling m", ylim=(0, 1.05),
         title="collective states (Δr_a = 14)")
right.set(xlabel="zone of orientation Δr_o", ylabel="polarization φ, milling m", ylim=(0, 1.05),
          title="collective memory")
left.legend(loc="center right", bbox_to_anchor=(1, 0.35))  # between the states' values
right.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.02, 0.5))
fig.suptitle(f"couzin model, 100 individuals in 3D, {len(seeds)} seeds a point "
             f"(mean ± standard error), boids {boids.__version__}")
fig.tight_layout()
out = os.path.join(os.environ.get("BOIDS_GALLERY_OUT", "."), "couzin_collective_memory.png")
fig.savefig(out)
print("saved", out)
plt.show()
