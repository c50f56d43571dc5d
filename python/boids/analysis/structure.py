"""Structure with distance: the radial distribution function g(r), velocity and orientation
correlations C(r) (Cavagna et al. 2010) and their correlation length."""

import math
from dataclasses import dataclass

import numpy as np

from ._space import (ball, bin_of, bins_between, checked_r_max, frames_of, pairs, positive,
                     real, sides_of, whole, wrapped)


@dataclass(frozen=True)
class RDF:
    """g(r), as freud.density.RDF names it: ``rdf`` g in each bin (r_k, r_k+1] of
    ``bin_edges``, whose centres are ``bin_centers``, and ``n_r`` the mean number of
    neighbours at distances <= r_k+1 (from r = 0)."""

    bin_centers: np.ndarray
    bin_edges: np.ndarray
    rdf: np.ndarray
    n_r: np.ndarray


@dataclass(frozen=True)
class Correlation:
    """C(r), as freud.density.CorrelationFunction names it: ``correlation`` in each bin
    (r_k, r_k+1] of ``bin_edges``, whose centres are ``bin_centers`` (nan in a bin without
    pairs), and ``bin_counts`` the pairs i < j in each bin, over every frame."""

    bin_centers: np.ndarray
    bin_edges: np.ndarray
    correlation: np.ndarray
    bin_counts: np.ndarray


# ----------------------------------------------------------------------------------------------
# The radial distribution function


def rdf(positions, box, r_max, bins=100, r_min=0.0, *, volume=None):
    """The radial distribution function of N boids at ``positions`` (N, D), D = 2 or 3:

        g_k = V / (N (N - 1) S_k) * #{ordered pairs i != j: r_k < r_ij <= r_k+1},
        n_r[k] = (1/N) * #{ordered pairs i != j: r_ij <= r_k+1},

    over ``bins`` equal bins from ``r_min`` to ``r_max``, S_k the area (2D) or volume (3D) of
    the shell between r_k and r_k+1: g = 1 for uniform random points. n_r counts from r = 0
    whatever ``r_min``.

    ``box``: the D sides of a periodic torus [0, L)^D, V their product, distances minimum
    images (positions outside are wrapped), ``r_max`` <= half the smallest side. None: open
    space, without an edge correction, V ``volume`` if given, else the volume of each frame's
    axis-aligned bounding box; boids near the edge of an open flock have fewer neighbours than
    V assumes, so g(r) falls below 1 as r grows towards the flock's size.

    ``positions`` (F, N, D): F frames of the same boids, g and n_r averaged over them (each
    with its own V). Returns an RDF (bin_centers, bin_edges, rdf, n_r).
    """
    frames = frames_of(positions, "positions")
    _, n, dims = frames.shape
    sides = sides_of(box, dims)
    r_max = checked_r_max(r_max, sides)
    bins = whole(bins, "bins")
    r_min = real(r_min, "r_min")
    if not 0 <= r_min < r_max:
        raise ValueError(f"r_min: expected 0 <= r_min < r_max ({r_max!r}), got {r_min!r}")
    if volume is not None:
        if sides is not None:
            raise ValueError("volume: given for a torus, whose volume is the box's")
        volume = positive(volume, "volume")
    edges, centers = bins_between(r_min, r_max, bins)
    shells = ball(dims, edges[1:]) - ball(dims, edges[:-1])
    g, n_r = np.zeros(bins), np.zeros(bins)
    for points in frames:
        points = wrapped(points, sides)
        v = _frame_volume(points, sides, volume)
        counted, below = np.zeros(bins), 0
        for _, _, r in pairs(points, sides, r_max):
            k = bin_of(r, r_min, (r_max - r_min) / bins, bins)
            below += int(np.count_nonzero(k < 0))
            counted += np.bincount(k[k >= 0], minlength=bins)
        # Each unordered pair is two ordered pairs and a neighbour to each of its boids.
        g += 2 * counted * v / (n * (n - 1) * shells)
        n_r += 2 * (below + np.cumsum(counted)) / n
    return RDF(centers, edges, g / len(frames), n_r / len(frames))


def _frame_volume(points, sides, volume):
    """V of one frame: the torus's, else ``volume``, else the bounding box's."""
    if sides is not None:
        return float(np.prod(sides))
    if volume is not None:
        return volume
    v = float(np.prod(points.max(axis=0) - points.min(axis=0)))
    if v <= 0:
        raise ValueError("positions: their bounding box has no volume (the boids lie on a "
                         "line or plane); pass volume=")
    return v


# ----------------------------------------------------------------------------------------------
# Correlations of velocities


def velocity_correlation(positions, velocities, box, r_max, bins=50, connected=True):
    """The correlation of velocities with distance (Cavagna et al., "Scale-free correlations
    in starling flocks", PNAS 107, 11865, 2010), in ``bins`` equal bins of [0, r_max]:

        C_k = (1/c0) sum_{i<j, r_k < r_ij <= r_k+1} u_i . u_j / #{i<j: r_k < r_ij <= r_k+1},
        c0 = (1/N) sum_i u_i . u_i,

    u_i = v_i - (1/N) sum_j v_j, the fluctuations (``connected``), or u_i = v_i. C(0) = 1;
    a bin without pairs has C = nan. Connected fluctuations sum to zero, so over the whole
    flock C(r) turns negative: its first zero is the correlation length
    (``correlation_length``).

    ``positions`` and ``velocities``: (N, D) or (F, N, D) alike; over frames, each frame has
    its own mean and c0 and the pairs of every frame are pooled. ``box`` and ``r_max``: as for
    ``rdf``. ValueError for velocities without fluctuations (c0 = 0: all equal when connected,
    all zero otherwise). Returns a Correlation (bin_centers, bin_edges, correlation,
    bin_counts).
    """
    frames, moving = _positions_and_velocities(positions, velocities)
    return _correlation(frames, moving, box, r_max, bins, connected)


def orientation_correlation(positions, velocities, box, r_max, bins=50, connected=True):
    """``velocity_correlation`` of the headings ``v_i / |v_i|`` in place of the velocities: the
    correlation of directions, which speeds do not weigh (Cavagna et al. 2010). ValueError for
    a boid at rest, which has no heading."""
    frames, moving = _positions_and_velocities(positions, velocities)
    speeds = np.linalg.norm(moving, axis=2, keepdims=True)
    if not (speeds > 0).all():
        f, i, _ = np.argwhere(speeds == 0)[0]
        raise ValueError(f"velocities: frame {f}, row {i} is at rest and has no heading")
    return _correlation(frames, moving / speeds, box, r_max, bins, connected)


def _positions_and_velocities(positions, velocities):
    """Both as (F, N, D) frames of one shape."""
    frames = frames_of(positions, "positions")
    moving = frames_of(velocities, "velocities")
    if moving.shape != frames.shape:
        raise ValueError(f"velocities: shape {np.shape(velocities)} differs from the "
                         f"positions' {np.shape(positions)}")
    return frames, moving


def _correlation(frames, moving, box, r_max, bins, connected):
    """C(r) of the vectors ``moving`` carried by boids at ``frames``, both (F, N, D)."""
    _, n, dims = frames.shape
    sides = sides_of(box, dims)
    r_max = checked_r_max(r_max, sides)
    bins = whole(bins, "bins")
    edges, centers = bins_between(0.0, r_max, bins)
    sums, counts = np.zeros(bins), np.zeros(bins, dtype=np.int64)
    for f, (points, v) in enumerate(zip(frames, moving)):
        u = v - v.mean(axis=0) if connected else v
        c0 = np.einsum("ij,ij->", u, u) / n
        # Fluctuations a rounding away from zero are none: compare with the velocities' size.
        if c0 <= 1e-24 * max(np.einsum("ij,ij->", v, v) / n, 1e-300):
            what = "all equal" if connected else "all zero"
            raise ValueError(f"velocities: frame {f} has no fluctuations ({what}), so C(r) is "
                             f"undefined")
        points = wrapped(points, sides)
        for i, j, r in pairs(points, sides, r_max):
            k = bin_of(r, 0.0, r_max / bins, bins)
            sums += np.bincount(k, weights=np.einsum("ij,ij->i", u[i], u[j]) / c0,
                                minlength=bins)
            counts += np.bincount(k, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return Correlation(centers, edges, correlation, counts)


def correlation_length(result):
    """Cavagna's correlation length xi: the first r at which C(r) falls from > 0 to <= 0,
    linearly interpolated between bin centres, starting from C(0) = 1 at r = 0. Bins without
    pairs (nan) are passed over.

    ``result``: a Correlation (or anything with ``bin_centers`` and ``correlation``). nan when
    C(r) stays positive up to the last bin: xi is then beyond r_max (a longer r_max, or a
    larger flock, is needed).
    """
    try:
        r = np.asarray(result.bin_centers, dtype=np.float64)
        c = np.asarray(result.correlation, dtype=np.float64)
    except AttributeError:
        raise ValueError("result: expected a Correlation (bin_centers, correlation)") from None
    if r.ndim != 1 or c.shape != r.shape:
        raise ValueError(f"result: bin_centers {r.shape} and correlation {c.shape} differ")
    known = np.isfinite(c)
    r, c = np.concatenate(([0.0], r[known])), np.concatenate(([1.0], c[known]))
    after = np.nonzero(c <= 0)[0]
    if len(after) == 0:
        return math.nan
    k = after[0]  # c[k - 1] > 0 >= c[k]
    return float(r[k - 1] + c[k - 1] * (r[k] - r[k - 1]) / (c[k - 1] - c[k]))
