"""What the analyses share: their input checks (each names the argument it refuses), frames and
periodic boxes, the pair search (SciPy's cKDTree), distance bins and least-squares lines."""

import math
import numbers

import numpy as np

try:
    from scipy.spatial import cKDTree
except ImportError:  # pair searches are SciPy's: say so in one line
    raise ImportError("boids.analysis needs SciPy (Debian: python3-scipy)") from None

# Unordered pairs held at once (two indices and a distance each, about 24 bytes).
PAIR_BUDGET = 1 << 24
# Pairs whose distances are worked out at once, bounding the temporaries.
CHUNK = 1 << 22


# ----------------------------------------------------------------------------------------------
# Checks


def frames_of(values, name):
    """``values`` as a float64 (F, N, D) stack of F >= 1 frames of N >= 2 rows, D = 2 or 3;
    an (N, D) array is one frame."""
    try:
        a = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name}: expected an array of real numbers ({e})") from None
    if a.ndim == 2:
        a = a[np.newaxis]
    if a.ndim != 3:
        raise ValueError(f"{name}: expected shape (N, D) or (frames, N, D), got {a.shape}")
    if a.shape[2] not in (2, 3):
        raise ValueError(f"{name}: D (the last axis) must be 2 or 3, got shape {a.shape}")
    if a.shape[0] < 1 or a.shape[1] < 2:
        raise ValueError(f"{name}: expected at least one frame of at least 2 boids, "
                         f"got shape {a.shape}")
    bad = np.argwhere(~np.isfinite(a))
    if len(bad):
        f, i, _ = bad[0]
        raise ValueError(f"{name}: frame {f}, row {i} holds a value that is not finite")
    return a


def sides_of(box, dims):
    """The torus's ``dims`` sides as an array, or None (open space) for ``box`` None."""
    if box is None:
        return None
    try:
        sides = np.asarray(box, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"box: expected {dims} side lengths or None, got {box!r}") from None
    if sides.shape != (dims,):
        raise ValueError(f"box: expected {dims} side lengths (one per column of the "
                         f"positions) or None, got {box!r}")
    if not (np.isfinite(sides).all() and (sides > 0).all()):
        raise ValueError(f"box: the sides must be finite and > 0, got {box!r}")
    return sides


def real(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or \
            not math.isfinite(value):
        raise ValueError(f"{name}: expected a finite real number, got {value!r}")
    return float(value)


def positive(value, name):
    value = real(value, name)
    if value <= 0:
        raise ValueError(f"{name}: expected a number > 0, got {value!r}")
    return value


def whole(value, name, least=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise ValueError(f"{name}: expected a whole number >= {least}, got {value!r}")
    return int(value)


def checked_r_max(r_max, sides):
    """r_max > 0, and on a torus at most half the smallest side (one image per pair)."""
    r_max = positive(r_max, "r_max")
    if sides is not None and r_max > sides.min() / 2:
        raise ValueError(f"r_max: {r_max!r} exceeds half the smallest box side "
                         f"({sides.min() / 2!r}), where minimum images are no longer unique")
    return r_max


# ----------------------------------------------------------------------------------------------
# Space


def wrapped(points, sides):
    """Points folded into [0, L) on a torus (``sides`` L; None: unchanged)."""
    if sides is None:
        return points
    folded = np.mod(points, sides)
    folded[folded >= sides] = 0.0  # a tiny negative coordinate folds onto L itself
    return folded


def ball(dims, r):
    """The area (2D) or volume (3D) of a ball of radius r."""
    return math.pi * r * r if dims == 2 else 4.0 / 3.0 * math.pi * r ** 3


def _separations(points, i, j, sides):
    """|r_i - r_j|, minimum images on a torus (the points lie in [0, L))."""
    d = points[i] - points[j]
    if sides is not None:
        d -= sides * np.round(d / sides)
    return np.sqrt(np.einsum("ij,ij->i", d, d))


def pairs(points, sides, r_max):
    """Yields (i, j, r) arrays of every pair i < j with r = |r_i - r_j| <= r_max, in pieces.
    ``points`` (N, D) lie in [0, L) on a torus (``wrapped``).

    cKDTree.query_pairs finds them at once, its fastest way, where they fit in PAIR_BUDGET,
    as the neighbours of an evenly strided sample of at least 2048 boids tell; else they are
    found for strided slices of the boids, a slice at a time.
    """
    n = len(points)
    tree = cKDTree(points, boxsize=sides)
    probes = points[::max(1, n // 2048)]
    around = tree.query_ball_point(probes, r_max, return_length=True)
    total = (int(np.sum(around)) - len(probes)) * n / len(probes) / 2
    if total <= PAIR_BUDGET:
        found = tree.query_pairs(r_max, output_type="ndarray")
        for start in range(0, len(found), CHUNK):
            i, j = found[start:start + CHUNK].T
            yield i, j, _separations(points, i, j, sides)
        return
    slices = math.ceil(2 * total / PAIR_BUDGET)  # twice: room for an estimate too low
    for k in range(slices):
        rows = np.arange(k, n, slices)
        found = cKDTree(points[rows], boxsize=sides).sparse_distance_matrix(
            tree, r_max, output_type="ndarray")
        i, j = rows[found["i"]], found["j"]
        keep = i < j
        yield i[keep], j[keep], found["v"][keep]


# ----------------------------------------------------------------------------------------------
# Bins and lines


def bins_between(r_min, r_max, bins):
    """The edges of ``bins`` equal bins from r_min to r_max, and their centres."""
    edges = np.linspace(r_min, r_max, bins + 1)
    return edges, (edges[:-1] + edges[1:]) / 2


def bin_of(r, r_min, width, bins):
    """The bin k of each distance r, r_min + k w < r <= r_min + (k+1) w (w the ``width``); -1
    for r <= r_min, except r = 0 with r_min = 0 (boids on one spot), which is in bin 0."""
    k = np.ceil((r - r_min) / width).astype(np.intp) - 1
    if r_min == 0:
        np.maximum(k, 0, out=k)
    np.maximum(k, -1, out=k)
    np.minimum(k, bins - 1, out=k)  # a distance a rounding above r_max
    return k


def line(x, y):
    """The least-squares line y = b x + a through points (x, y), at least two of them with
    different x: ((b, a), (standard error of b, of a)), the errors from the residuals (nan
    for two points, which the line goes through)."""
    x_mean = x.mean()
    sxx = np.sum((x - x_mean) ** 2)
    b = np.sum((x - x_mean) * (y - y.mean())) / sxx
    a = y.mean() - b * x_mean
    if len(x) < 3:
        return (float(b), float(a)), (math.nan, math.nan)
    s2 = np.sum((y - a - b * x) ** 2) / (len(x) - 2)
    return (float(b), float(a)), (math.sqrt(s2 / sxx),
                                  math.sqrt(s2 * (1 / len(x) + x_mean ** 2 / sxx)))
