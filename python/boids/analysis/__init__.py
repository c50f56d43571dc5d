"""The analyses a study of collective motion needs, NumPy in and NumPy out.

    >>> from boids import analysis
    >>> g = analysis.rdf(positions, box=(100, 100), r_max=10)         # g.bin_centers, g.rdf, g.n_r
    >>> c = analysis.velocity_correlation(positions, velocities, (100, 100), r_max=40)
    >>> analysis.correlation_length(c)                               # Cavagna's xi
    >>> analysis.number_fluctuations(positions, (100, 100)).alpha    # 0.5: no giant fluctuations
    >>> analysis.binder_cumulant(polarizations)                      # (U, jackknife error)

Structure with distance (``structure``):
    rdf                      the radial distribution function g(r) and n(r) (an RDF)
    velocity_correlation     C(r) of velocity fluctuations (Cavagna et al. 2010; a Correlation)
    orientation_correlation  C(r) of the headings ``v / |v|``
    correlation_length       the first zero of C(r)
Fluctuations (``fluctuations``):
    number_fluctuations      Delta n ~ <n>^alpha in sub-boxes (a NumberFluctuations)
Finite-size scaling (``binder``):
    binder_cumulant          U = 1 - <phi^4> / (3 <phi^2>^2) and its jackknife error
    binder_crossing          where the U of consecutive system sizes cross
    finite_size_fit          the limit of the crossings as 1/L -> 0

Positions are (N, D) arrays, D = 2 or 3, or (F, N, D) stacks of frames, which are pooled.
``box`` is the D side lengths of a periodic torus [0, L)^D, whose distances are minimum images
(positions outside it are wrapped into it), or None for open space. Names follow freud's
(freud.density.RDF, freud.density.CorrelationFunction) where freud has one; freud is not needed.
Pairs are found by SciPy's cKDTree; the work and memory grow with the number of pairs closer
than ``r_max``, which is held in bounded pieces.

The command line, ``python3 -m boids.analysis TRAJECTORY.h5 [--rdf] [--correlation]
[--fluctuations] [--frames A:B:S] [--r-max R] [--bins N] [--json]`` (``boids analyse``),
analyses a trajectory of ``boids run --trajectory``; ``main(argv)`` runs it from Python.
"""

from .binder import binder_crossing, binder_cumulant, finite_size_fit
from .fluctuations import NumberFluctuations, number_fluctuations
from .structure import (RDF, Correlation, correlation_length, orientation_correlation, rdf,
                        velocity_correlation)

__all__ = ["RDF", "Correlation", "NumberFluctuations", "rdf", "velocity_correlation",
           "orientation_correlation", "correlation_length", "number_fluctuations",
           "binder_cumulant", "binder_crossing", "finite_size_fit", "main"]


def main(argv=None):
    """The command line, as ``python3 -m boids.analysis ARGS`` runs it: see
    ``boids.analysis.__main__.main``. Returns the exit status."""
    from .__main__ import main as command  # on call: ``-m`` runs __main__ after this package

    return command(argv)
