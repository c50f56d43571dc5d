"""Binder cumulants, where those of different system sizes cross, and the limit of the
crossings at large sizes: locating a transition by finite-size scaling."""

import math
from collections.abc import Mapping

import numpy as np

from ._space import line, whole


def binder_cumulant(samples, blocks=None):
    """Binder's cumulant of scalar samples phi, with its jackknife error: returns (U, error),

        U = 1 - <phi^4> / (3 <phi^2>^2).

    U = 2/3 for a constant phi (order), 0 for a Gaussian phi of mean 0 (disorder). Samples of
    a magnitude, such as the polarization of each frame, tend in disorder to the U of the
    magnitude of a Gaussian vector instead: 1/3 in 2D, 4/9 in 3D.

    The jackknife leaves out one sample at a time (``blocks`` None), or one of ``blocks``
    consecutive blocks of nearly equal length (use blocks longer than the correlation time of
    a time series, whose successive samples are not independent):

        error^2 = (M - 1)/M sum_m (U_(m) - mean_m U_(m))^2,

    U_(m) the cumulant without block m, over the M blocks; nan where leaving a block out
    leaves only zeros.
    """
    phi = _series(samples, "samples", "at least 2 scalar samples")
    if not np.isfinite(phi).all():
        raise ValueError("samples: holds a value that is not finite")
    blocks = len(phi) if blocks is None else whole(blocks, "blocks", least=2)
    if blocks > len(phi):
        raise ValueError(f"blocks: {blocks} exceeds the {len(phi)} samples")
    squares = phi * phi
    if not squares.any():
        raise ValueError("samples: all zero, whose cumulant is 0/0")
    u = 1 - np.mean(squares ** 2) / (3 * np.mean(squares) ** 2)
    # The sums of phi^2, phi^4 and the count without each block give its estimate at once.
    starts = np.linspace(0, len(phi), blocks + 1).astype(np.intp)[:-1]
    s2 = squares.sum() - np.add.reduceat(squares, starts)
    s4 = (squares ** 2).sum() - np.add.reduceat(squares ** 2, starts)
    m = len(phi) - np.diff(np.append(starts, len(phi)))
    with np.errstate(invalid="ignore", divide="ignore"):
        partial = 1 - (s4 / m) / (3 * (s2 / m) ** 2)
    error = math.sqrt((blocks - 1) / blocks * np.sum((partial - partial.mean()) ** 2))
    return float(u), error


def binder_crossing(x, curves, errors=None):
    """Where the Binder cumulants of consecutive system sizes cross.

    ``x``: the control parameter's grid (the noise eta, say), increasing. ``curves``: a mapping
    of each system size L to U_L over ``x``; ``errors`` (optional) maps the sizes alike to the
    standard errors of U_L. For each pair of consecutive sizes L1 < L2, every x where
    d = U_L1 - U_L2 changes sign between grid points x_k and x_k+1 (from > 0 to <= 0, or from
    < 0 to >= 0: a zero on the grid counts once) is found by linear interpolation,

        x_cross = x_k + (x_k+1 - x_k) d_k / (d_k - d_k+1),
        sigma_x = (x_k+1 - x_k) sqrt(d_k+1^2 s_k^2 + d_k^2 s_k+1^2) / (d_k - d_k+1)^2,

    s_k^2 the sum of the two curves' variances at x_k (independent errors); sigma_x is nan
    without ``errors``. Returns a list of (L1, L2, x_cross, sigma_x), by size and then x.
    """
    grid = _grid(x)
    sizes = _curve_sizes(curves, "curves")
    values = {size: _curve(curves[size], grid, f"curves[{size!r}]") for size in sizes}
    spread = None
    if errors is not None:
        if _curve_sizes(errors, "errors") != sizes:
            raise ValueError("errors: expected the sizes of curves, "
                             f"{sizes}, got {_curve_sizes(errors, 'errors')}")
        spread = {size: _curve(errors[size], grid, f"errors[{size!r}]") for size in sizes}
        for size in sizes:
            if (spread[size] < 0).any():
                raise ValueError(f"errors[{size!r}]: holds a negative error")
    crossings = []
    for small, large in zip(sizes, sizes[1:]):
        d = values[small] - values[large]
        var = spread[small] ** 2 + spread[large] ** 2 if spread is not None else None
        for k in np.nonzero(((d[:-1] > 0) & (d[1:] <= 0)) | ((d[:-1] < 0) & (d[1:] >= 0)))[0]:
            step, fall = grid[k + 1] - grid[k], d[k] - d[k + 1]
            where = grid[k] + step * d[k] / fall
            error = math.nan if var is None else \
                step * math.sqrt(d[k + 1] ** 2 * var[k] + d[k] ** 2 * var[k + 1]) / fall ** 2
            crossings.append((small, large, float(where), float(error)))
    return crossings


def _series(values, name, what):
    """``values`` as a 1-D float64 array of at least 2, or ValueError naming ``name``."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected real numbers, got {values!r}") from None
    if array.ndim != 1 or len(array) < 2:
        raise ValueError(f"{name}: expected {what}, got shape {array.shape}")
    return array


def _grid(x):
    grid = _series(x, "x", "a grid of at least 2 values")
    if not np.isfinite(grid).all() or not (np.diff(grid) > 0).all():
        raise ValueError("x: expected finite values in increasing order")
    return grid


def _curve_sizes(curves, name):
    if not isinstance(curves, Mapping) or len(curves) < 2:
        raise ValueError(f"{name}: expected a mapping of at least 2 system sizes to arrays")
    try:
        return sorted(curves)
    except TypeError:
        raise ValueError(f"{name}: expected system sizes (numbers) as keys") from None


def _curve(values, grid, name):
    try:
        curve = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected real numbers") from None
    if curve.shape != grid.shape:
        raise ValueError(f"{name}: expected {len(grid)} values (one per x), got shape "
                         f"{curve.shape}")
    if not np.isfinite(curve).all():
        raise ValueError(f"{name}: holds a value that is not finite")
    return curve


def finite_size_fit(sizes, x_cross):
    """The infinite-size limit x_c of crossing points x_cross(L): the intercept of the
    least-squares line x_cross = x_c + a / L in 1/L. Returns (x_c, standard error of x_c), the
    error from the residuals (nan for two sizes, which the line goes through).

    The leading correction is taken as 1/L; for Binder crossings it is in general
    L^(-1/nu - omega), so trust x_c as far as the points lie on a line in 1/L. For a crossing
    of the sizes L1 and L2 pass one size for it, e.g. sqrt(L1 L2).
    """
    try:
        lengths = np.asarray(sizes, dtype=np.float64)
        points = np.asarray(x_cross, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("sizes: expected real numbers, and x_cross alike") from None
    if lengths.ndim != 1 or len(lengths) < 2:
        raise ValueError(f"sizes: expected at least 2 system sizes, got shape {lengths.shape}")
    if points.shape != lengths.shape:
        raise ValueError(f"x_cross: expected {len(lengths)} values (one per size), got shape "
                         f"{points.shape}")
    if not (np.isfinite(lengths).all() and (lengths > 0).all()):
        raise ValueError("sizes: expected finite sizes > 0")
    if len(np.unique(lengths)) < 2:
        raise ValueError("sizes: expected at least 2 different sizes")
    if not np.isfinite(points).all():
        raise ValueError("x_cross: holds a value that is not finite")
    (_, x_c), (_, error) = line(1 / lengths, points)
    return x_c, error
