"""Giant number fluctuations: how the count of boids in a sub-box spreads with its mean."""

import math
from dataclasses import dataclass

import numpy as np

from ._space import frames_of, line, sides_of, whole, wrapped


@dataclass(frozen=True)
class NumberFluctuations:
    """Boids counted in sub-boxes of each side in ``sizes``: ``mean`` <n> and ``std`` Delta n,
    the standard deviation of the counts, for each size, and the exponent ``alpha`` of
    Delta n ~ <n>^alpha with its standard error ``alpha_error``."""

    sizes: np.ndarray
    mean: np.ndarray
    std: np.ndarray
    alpha: float
    alpha_error: float


def number_fluctuations(positions, box, sizes=None, samples=1):
    """Giant number fluctuations: the boids counted in square (2D) or cubic (3D) sub-boxes of
    each side in ``sizes``, their mean <n> and standard deviation Delta n = sqrt(<n^2> - <n>^2)
    over every box of every frame and grid, and alpha, the slope of the least-squares line

        log Delta n = alpha log <n> + c

    through the sizes with Delta n > 0. alpha is 0.5 for a uniform random gas (Poisson counts)
    and rises towards 1 where boids move in dense bands or clusters (active nematics, Vicsek
    bands). ``alpha_error`` is its standard error from the line's residuals: nan with fewer
    than three such sizes (alpha itself nan with fewer than two). The sizes count the same
    boids, so their points scatter less about the line than independent ones would, and this
    error is smaller than the spread of alpha between independent configurations (about 0.02
    for one frame of 20,000 boids of a gas in 2D): pool frames far apart, or compare repeats.

    On a torus (``box`` its sides) each grid tiles the box with floor(L/size) sub-boxes per
    axis from the origin; with ``samples`` > 1, also from the origins shifted by
    k * size / samples along every axis, 0 < k < samples (wrapping), so that a strip the floor
    leaves out is counted too. In open space (None) the grids tile the bounding box of each
    frame's positions from its lower corner, whole sub-boxes alone (a boid on the far face of
    the tiled region is in the sub-box beside it). Keep the sub-boxes much smaller than the
    box: one holding a fraction p of the boids has Delta n = sqrt(<n>(1 - p)) in a gas.

    ``sizes`` None: the smallest side (or extent) divided by about ten whole numbers from 4
    (2 or 3 for few boids) up to the one for which <n> is about 4. ``positions`` (F, N, D)
    pools the frames. Returns a NumberFluctuations (sizes, mean, std, alpha, alpha_error).
    """
    frames = frames_of(positions, "positions")
    _, n, dims = frames.shape
    sides = sides_of(box, dims)
    samples = whole(samples, "samples")
    spans = [sides] * len(frames) if sides is not None else \
        [f.max(axis=0) - f.min(axis=0) for f in frames]
    smallest = min(float(s.min()) for s in spans)
    if smallest <= 0:
        raise ValueError("positions: their bounding box is flat; number fluctuations need "
                         "boids spread in every dimension")
    sizes = _default_sizes(n, dims, smallest) if sizes is None else _sizes(sizes, smallest,
                                                                            sides is not None)
    mean, std = np.empty(len(sizes)), np.empty(len(sizes))
    for s, size in enumerate(sizes):
        total = squares = boxes = 0.0
        for points, span in zip(frames, spans):
            origin = np.zeros(dims) if sides is not None else points.min(axis=0)
            for k in range(samples):
                counts = _box_counts(points, origin + k * size / samples, size, span, sides)
                if counts is not None:
                    total += counts.sum()
                    squares += np.dot(counts, counts)
                    boxes += len(counts)
        mean[s] = total / boxes
        std[s] = math.sqrt(max(squares / boxes - mean[s] ** 2, 0.0))
    alpha, alpha_error = _slope(np.log(mean[std > 0]), np.log(std[std > 0]))
    return NumberFluctuations(sizes, mean, std, alpha, alpha_error)


def _default_sizes(n, dims, smallest):
    most = max(2, int((n / 4) ** (1 / dims)))
    fewest = max(2, min(4, most // 2))  # a few sizes even for a small flock in 3D
    parts = np.unique(np.round(np.geomspace(fewest, most, 10)).astype(int))
    return smallest / parts[::-1].astype(np.float64)


def _sizes(sizes, smallest, torus):
    try:
        sizes = np.atleast_1d(np.asarray(sizes, dtype=np.float64))
    except (TypeError, ValueError):
        raise ValueError(f"sizes: expected positive numbers, got {sizes!r}") from None
    if sizes.ndim != 1 or len(sizes) == 0:
        raise ValueError(f"sizes: expected a sequence of sub-box sides, got {sizes!r}")
    if not (np.isfinite(sizes).all() and (sizes > 0).all()):
        raise ValueError(f"sizes: expected finite numbers > 0, got {sizes.tolist()}")
    if sizes.max() > smallest * (1 + 1e-12):
        where = "smallest box side" if torus else "smallest extent of the positions"
        raise ValueError(f"sizes: {sizes.max()!r} exceeds the {where} ({smallest!r})")
    return sizes


def _box_counts(points, origin, size, span, sides):
    """The boids in each sub-box of a grid from ``origin``; None when no whole box fits."""
    if sides is not None:
        relative = wrapped(points - origin, sides)  # the grid wraps round the torus
        across = np.floor(sides / size * (1 + 1e-12)).astype(np.intp)  # L/(L/m) may round down
    else:
        relative = points - origin
        across = np.floor((span - (origin - points.min(axis=0))) / size * (1 + 1e-12))
        across = across.astype(np.intp)
    if (across < 1).any():
        return None
    cell = np.floor(relative / size).astype(np.intp)
    # A far face (open space's bounding box is closed) and a rounding beyond one (a boid just
    # below L where across * size rounds below L) belong to the last box.
    far = (cell == across) & (relative <= across * size * (1 + 1e-12))
    cell[far] -= 1
    inside = ((cell >= 0) & (cell < across)).all(axis=1)
    flat = np.ravel_multi_index(tuple(cell[inside].T), tuple(across))
    return np.bincount(flat, minlength=int(np.prod(across))).astype(np.float64)


def _slope(x, y):
    """The least-squares slope of y on x and its standard error (nan where undetermined)."""
    if len(x) < 2 or np.ptp(x) == 0:
        return math.nan, math.nan
    (slope, _), spread = line(x, y)
    return slope, spread[0]
