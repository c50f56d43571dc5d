"""boids.analysis against cases worked by hand: g(r) of a gas and of a lattice, correlations
of fields whose C(r) is a cosine, number fluctuations of a gas, of clusters and of a lattice,
Binder cumulants and their crossings; and its command's refusals. The command's run on a real
flight, as `python3 -m boids.analysis`, needs BOIDS_EXECUTABLE to fly it."""

import itertools
import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from boids import analysis


def square_lattice(side, spacing=1.0, dims=2):
    """Every point (k + 1/4) * spacing, k < side, in each dimension: no point on a bin edge."""
    axis = (np.arange(side) + 0.25) * spacing
    return np.array(list(itertools.product(axis, repeat=dims)))


def lattice_neighbours(r, dims=2):
    """The points of the unit square (cubic) lattice at distances in (0, r] from one."""
    reach = int(r) + 1
    steps = np.array(list(itertools.product(range(-reach, reach + 1), repeat=dims)))
    squares = (steps ** 2).sum(axis=1)
    return int(np.count_nonzero((squares > 0) & (squares <= r * r + 1e-9)))


# ----------------------------------------------------------------------------------------------
# g(r)


@pytest.mark.parametrize("dims", [2, 3])
def test_an_ideal_gas_on_a_torus_has_g_of_one_in_every_bin_beyond_the_first_few(dims):
    rng = np.random.default_rng(7)
    n, side = 20_000, 100.0 if dims == 2 else 27.0
    g = analysis.rdf(rng.random((n, dims)) * side, [side] * dims, r_max=3.0, bins=30)
    assert np.allclose(g.rdf[5:], 1, atol=0.05)
    # n(r) of a gas: (N - 1)/V times the ball within the outer edge.
    ball = math.pi * g.bin_edges[1:] ** 2 if dims == 2 else 4 / 3 * math.pi * g.bin_edges[1:] ** 3
    expected = (n - 1) / side ** dims * ball
    assert np.allclose(g.n_r[5:], expected[5:], rtol=0.03)
    assert np.allclose(g.bin_centers, (g.bin_edges[1:] + g.bin_edges[:-1]) / 2)


def test_a_square_lattice_has_its_first_peak_at_its_spacing_and_nothing_below():
    points = square_lattice(40)
    # Bins 2/11 wide, so that the spacing 1 is the centre of bin 5.
    g = analysis.rdf(points, (40, 40), r_max=2.0, bins=11)
    assert g.bin_centers[5] == pytest.approx(1.0)
    assert not g.rdf[:5].any()
    assert np.argmax(g.rdf) == 5
    # Four neighbours at 1, in a shell of area pi (r2^2 - r1^2), against (N - 1)/V of a gas.
    n = len(points)
    shell = math.pi * (g.bin_edges[6] ** 2 - g.bin_edges[5] ** 2)
    assert g.rdf[5] == pytest.approx(4 * 40 * 40 / ((n - 1) * shell))
    assert list(g.n_r) == [lattice_neighbours(r) for r in g.bin_edges[1:]]


def test_a_cubic_lattice_counts_its_shells_of_six_twelve_and_eight_neighbours():
    g = analysis.rdf(square_lattice(12, 2.0, dims=3), (24, 24, 24), r_max=4.0, bins=40)
    assert list(g.n_r) == [lattice_neighbours(r / 2, dims=3) for r in g.bin_edges[1:]]
    assert g.n_r[-1] == 6 + 12 + 8 + 6  # distances 2, 2 sqrt 2, 2 sqrt 3 and 4


def test_r_min_leaves_out_the_bins_below_it_and_n_r_still_counts_from_zero():
    points = square_lattice(20)
    whole = analysis.rdf(points, (20, 20), r_max=2.0, bins=20)
    part = analysis.rdf(points, (20, 20), r_max=2.0, bins=10, r_min=1.0)
    assert np.allclose(part.rdf, whole.rdf[10:])
    assert np.allclose(part.n_r, whole.n_r[10:])


def test_frames_average_and_identical_frames_change_nothing():
    rng = np.random.default_rng(3)
    a, b = rng.random((2, 2000, 2)) * 50
    one = analysis.rdf(a, (50, 50), 5.0, bins=10)
    both = analysis.rdf(np.stack([a, b]), (50, 50), 5.0, bins=10)
    other = analysis.rdf(b, (50, 50), 5.0, bins=10)
    assert np.allclose(analysis.rdf(np.stack([a, a]), (50, 50), 5.0, bins=10).rdf, one.rdf)
    assert np.allclose(both.rdf, (one.rdf + other.rdf) / 2)
    assert np.allclose(both.n_r, (one.n_r + other.n_r) / 2)


def test_positions_outside_the_torus_are_its_images():
    rng = np.random.default_rng(5)
    points = rng.random((1000, 3)) * 20
    moved = points + 20 * rng.integers(-3, 4, points.shape)
    assert np.allclose(analysis.rdf(moved, (20, 20, 20), 4.0).rdf,
                       analysis.rdf(points, (20, 20, 20), 4.0).rdf)


def test_open_space_normalises_by_the_volume_given_or_the_bounding_box():
    rng = np.random.default_rng(11)
    points = rng.random((20_000, 2)) * 100
    bounded = analysis.rdf(points, None, r_max=2.0, bins=10)
    extent = np.prod(points.max(axis=0) - points.min(axis=0))
    given = analysis.rdf(points, None, r_max=2.0, bins=10, volume=extent)
    assert np.allclose(bounded.rdf, given.rdf)
    # Without wrapping a boid within r of the edge misses part of its shell: g falls by about
    # the share of boids that near it, perimeter * r / (pi * area) on the whole.
    edge = 4 * 100 * bounded.bin_centers / (math.pi * 100 * 100)
    assert np.allclose(bounded.rdf[3:], 1 - edge[3:], atol=0.04)
    assert np.allclose(analysis.rdf(points, None, 2.0, 10, volume=2 * extent).rdf,
                       2 * given.rdf)


@pytest.mark.parametrize("call, named", [
    (lambda a: a.rdf(np.zeros((10, 4)), None, 1.0), "positions"),
    (lambda a: a.rdf(np.zeros(10), None, 1.0), "positions"),
    (lambda a: a.rdf([[0, 0], [1, np.nan]], None, 1.0), "positions"),
    (lambda a: a.rdf(np.ones((10, 2)), (5, 5, 5), 1.0), "box"),
    (lambda a: a.rdf(np.ones((10, 2)), (5, -5), 1.0), "box"),
    (lambda a: a.rdf(np.ones((10, 2)), (5, 5), 0.0), "r_max"),
    (lambda a: a.rdf(np.ones((10, 2)), (5, 8), 2.6), "r_max"),
    (lambda a: a.rdf(np.ones((10, 2)), (5, 5), 1.0, bins=0), "bins"),
    (lambda a: a.rdf(np.ones((10, 2)), (5, 5), 1.0, r_min=1.0), "r_min"),
    (lambda a: a.rdf(np.ones((10, 2)), (5, 5), 1.0, volume=3.0), "volume"),
    (lambda a: a.rdf(np.ones((10, 2)), None, 1.0), "positions"),  # no bounding volume
])
def test_bad_input_is_refused_naming_the_argument(call, named):
    with pytest.raises(ValueError, match=f"^{named}: "):
        call(analysis)


# ----------------------------------------------------------------------------------------------
# Correlations


def wave_on_a_line(n=200, side=100.0, waves=1):
    """n boids evenly along x on a (side, side) torus, velocities (cos kx, sin kx): any two at
    separation r have u_i . u_j = cos(k r) exactly."""
    x = (np.arange(n) + 0.25) * side / n
    k = 2 * math.pi * waves / side
    positions = np.column_stack([x, np.full(n, side / 2)])
    return positions, np.column_stack([np.cos(k * x), np.sin(k * x)]), k


def test_a_rotating_field_on_a_torus_correlates_as_the_cosine_of_the_separation():
    positions, velocities, k = wave_on_a_line()
    # Bins as wide as the spacing 1/2: bin m holds the separation (m + 1) / 2 alone.
    c = analysis.velocity_correlation(positions, velocities, (100, 100), 50.0, bins=100)
    separations = c.bin_edges[1:]
    assert np.allclose(c.correlation, np.cos(k * separations), atol=1e-9)
    assert list(c.bin_counts[:-1]) == [200] * 99 and c.bin_counts[-1] == 100  # L/2: one image


def test_orientation_correlation_ignores_the_speeds_that_velocity_correlation_weighs():
    positions, headings, k = wave_on_a_line()
    speeds = np.random.default_rng(2).uniform(0.5, 3, len(headings))[:, None]
    oriented = analysis.orientation_correlation(positions, headings * speeds, (100, 100), 50.0,
                                                bins=100, connected=False)
    assert np.allclose(oriented.correlation, np.cos(k * oriented.bin_edges[1:]), atol=1e-9)
    weighed = analysis.velocity_correlation(positions, headings * speeds, (100, 100), 50.0,
                                            bins=100, connected=False)
    assert not np.allclose(weighed.correlation, oriented.correlation, atol=1e-3)


def test_the_correlation_length_of_a_cosine_is_its_first_zero_within_a_bin():
    positions, velocities, k = wave_on_a_line(n=400, waves=2)
    u = np.column_stack([np.cos(k * positions[:, 0]), np.zeros(len(positions))])
    c = analysis.velocity_correlation(positions, u, (100, 100), 40.0, bins=80)
    width = c.bin_edges[1] - c.bin_edges[0]
    # Averaged over the line, cos(kx) cos(k(x + r)) is cos(k r) / 2, and c0 is 1/2.
    assert abs(analysis.correlation_length(c) - math.pi / (2 * k)) < width


def test_a_correlation_that_never_crosses_zero_has_no_length():
    positions, velocities, k = wave_on_a_line(waves=1)
    c = analysis.velocity_correlation(positions, velocities, (100, 100), 20.0, bins=20)
    assert math.isnan(analysis.correlation_length(c))  # zero at 25, beyond r_max


def test_connected_correlations_of_a_perfectly_ordered_flock_are_refused():
    positions = np.random.default_rng(1).random((100, 2)) * 10
    same = np.tile([0.3, -1.2], (100, 1))
    with pytest.raises(ValueError, match="^velocities: .*no fluctuations"):
        analysis.velocity_correlation(positions, same, (10, 10), 3.0)
    with pytest.raises(ValueError, match="^velocities: .*no fluctuations"):
        analysis.orientation_correlation(positions, same, (10, 10), 3.0)
    unconnected = analysis.velocity_correlation(positions, same, (10, 10), 3.0,
                                                connected=False)
    paired = np.isfinite(unconnected.correlation)  # the first bins may hold no pair
    assert paired.sum() > 40 and np.allclose(unconnected.correlation[paired], 1)


def test_correlations_refuse_velocities_that_do_not_match_or_stand_still():
    positions = np.random.default_rng(1).random((50, 3)) * 10
    with pytest.raises(ValueError, match="^velocities: shape"):
        analysis.velocity_correlation(positions, np.ones((50, 2)), None, 3.0)
    still = np.ones((50, 3))
    still[7] = 0
    with pytest.raises(ValueError, match="^velocities: frame 0, row 7 is at rest"):
        analysis.orientation_correlation(positions, still, None, 3.0)


def test_a_gas_of_random_velocities_is_uncorrelated_and_pools_frames():
    rng = np.random.default_rng(9)
    positions, velocities = rng.random((3, 4000, 2)) * 50, rng.normal(size=(3, 4000, 2))
    c = analysis.velocity_correlation(positions, velocities, (50, 50), 10.0, bins=10)
    assert np.all(np.abs(c.correlation) < 0.02)
    one = analysis.velocity_correlation(positions[0], velocities[0], (50, 50), 10.0, bins=10)
    assert c.bin_counts.sum() > 2.5 * one.bin_counts.sum()


def test_the_pairs_found_in_slices_are_those_found_at_once(monkeypatch):
    rng = np.random.default_rng(4)
    positions, velocities = rng.random((3000, 3)) * 10, rng.normal(size=(3000, 3))
    at_once = analysis.velocity_correlation(positions, velocities, (10, 10, 10), 2.0)
    gas = analysis.rdf(positions, (10, 10, 10), 2.0)
    monkeypatch.setattr(analysis._space, "PAIR_BUDGET", 20_000)  # counted, then sliced
    sliced = analysis.velocity_correlation(positions, velocities, (10, 10, 10), 2.0)
    assert np.array_equal(sliced.bin_counts, at_once.bin_counts)
    assert np.allclose(sliced.correlation, at_once.correlation, equal_nan=True)
    assert np.allclose(analysis.rdf(positions, (10, 10, 10), 2.0).rdf, gas.rdf)


# ----------------------------------------------------------------------------------------------
# Number fluctuations


def test_a_uniform_gas_has_no_giant_number_fluctuations():
    rng = np.random.default_rng(21)
    f = analysis.number_fluctuations(rng.random((4, 20_000, 2)) * 100, (100, 100))
    assert np.all(np.diff(f.sizes) > 0) and len(f.sizes) >= 5
    assert np.allclose(f.mean, 20_000 * f.sizes ** 2 / 100 ** 2)
    # The fit's error underestimates the spread between configurations (the sizes count the
    # same boids): alpha spreads by about 0.01 between sets of four frames.
    assert f.alpha_error > 0
    assert abs(f.alpha - 0.5) < max(4 * f.alpha_error, 0.03)


def test_boids_in_dense_clusters_fluctuate_giantly():
    rng = np.random.default_rng(8)
    centres = rng.random((20, 2)) * 100
    angle, radius = rng.random((2, 20, 500))
    offsets = 5 * np.sqrt(radius)[..., None] * np.stack(
        [np.cos(2 * np.pi * angle), np.sin(2 * np.pi * angle)], axis=-1)
    points = (centres[:, None, :] + offsets).reshape(-1, 2) % 100
    f = analysis.number_fluctuations(points, (100, 100), sizes=[0.5, 1, 1.5, 2, 3])
    assert f.alpha > 0.8


def test_a_lattice_has_no_fluctuations_in_boxes_it_fills_evenly():
    points = square_lattice(100)
    f = analysis.number_fluctuations(points, (100, 100), sizes=[5, 10, 20])
    assert list(f.mean) == [25, 100, 400] and not f.std.any()
    assert math.isnan(f.alpha) and math.isnan(f.alpha_error)


def test_sub_boxes_that_do_not_divide_the_torus_tile_floor_l_over_size_of_them():
    points = square_lattice(30)
    f = analysis.number_fluctuations(points, (30, 30), sizes=[7.0], samples=1)
    assert f.mean[0] == 49 and f.std[0] == 0  # 4 x 4 boxes of 7 x 7 boids; 2 strips left out


def test_open_space_tiles_the_bounding_box():
    points = square_lattice(20) + 100
    f = analysis.number_fluctuations(points, None, sizes=[4.75], samples=1)
    assert f.mean[0] == pytest.approx(len(points) / 16)  # (19/4.75)^2 boxes cover it all


def test_every_boid_on_a_torus_is_counted_however_its_coordinates_round():
    # 7 / 1.4 = 5 sub-boxes per axis, but the largest float below 7 divided by 1.4 rounds to 5,
    # and -1e-20 modulo 7 is 7 itself: both are in the last box and the first.
    below = np.nextafter(7.0, 0.0)
    points = np.array([[below, 3.5], [-1e-20, 3.5], [3.5, below], [1.0, 1.0]])
    f = analysis.number_fluctuations(points, (7, 7), sizes=[1.4, 3.5])
    assert list(f.mean) == [4 / 25, 4 / 4]


@pytest.mark.parametrize("kwargs, named", [
    (dict(sizes=[0]), "sizes"), (dict(sizes=[60]), "sizes"), (dict(samples=0), "samples"),
    (dict(sizes="big"), "sizes")])
def test_number_fluctuations_refuse_bad_sizes(kwargs, named):
    with pytest.raises(ValueError, match=f"^{named}: "):
        analysis.number_fluctuations(square_lattice(10), (50, 50), **kwargs)


# ----------------------------------------------------------------------------------------------
# Binder cumulants, crossings and the limit of large sizes


def test_a_constant_order_parameter_has_a_binder_cumulant_of_two_thirds():
    u, error = analysis.binder_cumulant(np.full(50, 0.8))
    assert u == pytest.approx(2 / 3) and error == pytest.approx(0, abs=1e-12)


def test_a_gaussian_order_parameter_has_a_binder_cumulant_of_zero():
    u, error = analysis.binder_cumulant(np.random.default_rng(0).normal(size=20_000))
    assert 0 < error < 0.05
    assert abs(u) < 4 * error


def test_the_jackknife_error_is_the_hand_computed_one():
    phi = [1, 2, 3, 4]

    def cumulant(values):
        m2 = Fraction(sum(v ** 2 for v in values), len(values))
        m4 = Fraction(sum(v ** 4 for v in values), len(values))
        return 1 - m4 / (3 * m2 ** 2)

    partial = [cumulant(phi[:k] + phi[k + 1:]) for k in range(4)]
    mean = sum(partial) / 4
    expected = math.sqrt(Fraction(3, 4) * sum((p - mean) ** 2 for p in partial))
    u, error = analysis.binder_cumulant(phi)
    assert u == pytest.approx(float(cumulant(phi)))
    assert error == pytest.approx(expected)
    # Two blocks of two: the estimates without each half.
    halves = [cumulant([3, 4]), cumulant([1, 2])]
    _, blocked = analysis.binder_cumulant(phi, blocks=2)
    assert blocked == pytest.approx(math.sqrt(0.5 * float(sum((h - sum(halves) / 2) ** 2
                                                              for h in halves))))


def test_binder_cumulant_refuses_what_it_cannot_average():
    for samples, named in [([1.0], "samples"), ([0.0, 0.0], "samples"), ([[1, 2]], "samples"),
                           ([1, np.inf], "samples")]:
        with pytest.raises(ValueError, match=f"^{named}: "):
            analysis.binder_cumulant(samples)
    with pytest.raises(ValueError, match="^blocks: "):
        analysis.binder_cumulant([1, 2, 3], blocks=4)


def test_two_straight_lines_cross_where_their_difference_vanishes():
    x = np.linspace(0, 1, 11)
    curves = {16: 0.7 - 0.9 * x, 8: 0.6 - 0.5 * x, 32: 0.75 - 1.2 * x}
    crossings = analysis.binder_crossing(x, curves)
    # 0.6 - 0.5x = 0.7 - 0.9x at x = 1/4; 0.7 - 0.9x = 0.75 - 1.2x at x = 1/6.
    assert [(a, b) for a, b, _, _ in crossings] == [(8, 16), (16, 32)]
    assert [c[2] for c in crossings] == pytest.approx([0.25, 1 / 6])
    assert all(math.isnan(c[3]) for c in crossings)


def test_the_crossing_error_propagates_the_curves_errors_through_the_interpolation():
    x = np.array([0.0, 1.0])
    curves = {8: np.array([0.6, 0.2]), 16: np.array([0.5, 0.4])}  # d = 0.1, -0.2: x = 1/3
    errors = {8: np.array([0.01, 0.02]), 16: np.array([0.01, 0.02])}
    (_, _, where, error), = analysis.binder_crossing(x, curves, errors)
    assert where == pytest.approx(1 / 3)
    # x = d0 / (d0 - d1): dx/dd0 = -d1 / (d0 - d1)^2, dx/dd1 = d0 / (d0 - d1)^2.
    var0, var1 = 2 * 0.01 ** 2, 2 * 0.02 ** 2
    assert error == pytest.approx(math.sqrt(0.2 ** 2 * var0 + 0.1 ** 2 * var1) / 0.3 ** 2)


def test_curves_that_never_cross_have_no_crossing_and_bad_curves_are_refused():
    x = np.linspace(0, 1, 5)
    assert analysis.binder_crossing(x, {8: x + 1, 16: x}) == []
    with pytest.raises(ValueError, match=r"^curves\[16\]: "):
        analysis.binder_crossing(x, {8: x, 16: x[:3]})
    with pytest.raises(ValueError, match="^x: "):
        analysis.binder_crossing(x[::-1], {8: x, 16: x})
    with pytest.raises(ValueError, match="^curves: "):
        analysis.binder_crossing(x, [x, x])
    with pytest.raises(ValueError, match="^errors: "):
        analysis.binder_crossing(x, {8: x, 16: x}, {8: x})


def test_finite_size_fit_recovers_the_limit_of_crossings_going_as_one_over_l():
    sizes = np.array([16, 32, 64, 128])
    x_c, error = analysis.finite_size_fit(sizes, 0.6 + 2.0 / sizes)
    assert x_c == pytest.approx(0.6, abs=1e-12) and error == pytest.approx(0, abs=1e-12)
    x_c, error = analysis.finite_size_fit([16, 32], [0.6 + 2 / 16, 0.6 + 2 / 32])
    assert x_c == pytest.approx(0.6) and math.isnan(error)
    with pytest.raises(ValueError, match="^x_cross: "):
        analysis.finite_size_fit(sizes, [1, 2])
    with pytest.raises(ValueError, match="^sizes: "):
        analysis.finite_size_fit([16, 16], [1, 2])


# ----------------------------------------------------------------------------------------------
# The command


def test_the_command_refuses_a_bad_option_naming_it(capsys, tmp_path):
    there = tmp_path / "flight.h5"
    there.write_bytes(b"")
    for argv, named in [([str(there), "--bogus"], "--bogus"),
                        ([str(there), "--bins", "0"], "--bins"),
                        ([str(there), "--r-max", "-1"], "--r-max"),
                        ([str(there), "--frames", "1:2:0"], "--frames"),
                        ([str(there), "--frames", "a:b"], "--frames")]:
        assert analysis.main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("boids analyse: error: ") and named in err, err
    assert analysis.main(["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: boids analyse ")


def test_the_command_refuses_a_missing_trajectory_naming_it(capsys, tmp_path):
    missing = tmp_path / "nowhere.h5"
    assert analysis.main([str(missing), "--json"]) == 2
    err = capsys.readouterr().err
    assert err == f"boids analyse: error: trajectory '{missing}': no such file\n"


def test_the_package_imports_without_the_compiled_module():
    """The analyses import without boids/__init__.py (which loads the compiled module): the
    trajectory reader alone needs it, which the command imports when it runs."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(analysis.__file__)))
    code = ("import json, sys, types\n"
            "sys.modules['boids'] = types.ModuleType('boids')\n"
            "sys.modules['boids'].__path__ = [sys.argv[1]]\n"
            "from boids.analysis import *\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('boids'))))\n")
    done = subprocess.run([sys.executable, "-c", code, package], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["boids", "boids.analysis", "boids.analysis._space",
                                       "boids.analysis.binder", "boids.analysis.fluctuations",
                                       "boids.analysis.structure"]


def test_the_command_analyses_a_real_flight(tmp_path):
    executable = os.environ.get("BOIDS_EXECUTABLE")
    if not executable:
        pytest.skip("BOIDS_EXECUTABLE is not set: no `boids run` to fly a trajectory with")
    pytest.importorskip("h5py", reason="python3-h5py is not installed")
    path = tmp_path / "flight.h5"
    subprocess.run([executable, "run", "--count", "500", "--steps", "20", "--trajectory",
                    str(path), "--trajectory-every", "10"], check=True, capture_output=True)
    command = [sys.executable, "-m", "boids.analysis", str(path)]
    done = subprocess.run([*command, "--json"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    report = json.loads(done.stdout)
    assert report["count"] == 500 and report["frames"] == [2] and report["steps"] == [20]
    assert len(report["rdf"]["rdf"]) == 100 and len(report["correlation"]["velocity"]) == 50
    assert sum(report["correlation"]["bin_counts"]) > 0
    assert report["fluctuations"]["mean"][0] > 0
    table = subprocess.run([*command, "--frames", "0:3", "--rdf"], capture_output=True,
                           text=True)
    assert table.returncode == 0, table.stderr
    assert "radial distribution function" in table.stdout and "alpha" not in table.stdout
    # `boids analyse` runs the same module, the package beside the command found without
    # PYTHONPATH (a build's python/, or the package pip installed the command in).
    alone = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    analysed = subprocess.run([executable, "analyse", str(path), "--json"], capture_output=True,
                              text=True, env=alone)
    assert analysed.returncode == 0, analysed.stderr
    assert json.loads(analysed.stdout) == report
    refused = subprocess.run([executable, "analyse", str(tmp_path / "none.h5")],
                             capture_output=True, text=True, env=alone)
    assert refused.returncode == 2 and "none.h5" in refused.stderr, refused.stderr
