"""boids.Flock against the command line: the same flight bit for bit on every backend, method
and precision; states in and out exact; parameters and metrics as `boids run --json` has them."""

import csv
import subprocess

import numpy as np
import pytest

import boids
from conftest import BOIDS, CONFIGS, cli_json, run_cli


def same_bits(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def options_args(options):
    """Keyword options as `boids run` arguments."""
    args = []
    for key, value in options.items():
        if isinstance(value, tuple):
            value = ",".join(repr(float(v)) for v in value)
        args += ["--" + key.replace("_", "-"), str(value)]
    return args


# Flights flown by both: the published example and variants of each model.
FLIGHTS = {
    "seed": dict(count=300, seed=5),
    "steering": dict(count=200, seed=9, model="steering", boundary="walls", noise=0.3, fov=270),
    "vicsek": dict(count=400, seed=2, model="vicsek", noise=1.5, density=4),
    "goal-wind-wander": dict(count=250, seed=4, goal=(30.0, 60.0), goal_weight=0.5,
                             wind=(0.01, -0.02), wander=0.7),
    "arrival": dict(count=200, seed=7, model="steering", goal=(400.0, 300.0), goal_weight=2,
                    arrival_radius=150),
    "nearest": dict(count=200, seed=8, nearest=7, fov=300),
    "predators": dict(count=250, seed=3, predators=3, flee_radius=25),
}


@pytest.mark.parametrize("backend,method,precision", CONFIGS)
def test_step_600_equals_boids_run_save(tmp_path, backend, method, precision):
    options = dict(FLIGHTS["seed"], backend=backend, method=method, precision=precision)
    saved = tmp_path / "end.npy"
    run_cli("run", "--steps", 600, "--save", saved, *options_args(options))
    flock = boids.Flock(**options)
    flock.step(600)
    assert flock.steps_taken == 600
    assert same_bits(flock.state, np.load(saved))


@pytest.mark.parametrize("flight", ["steering", "vicsek", "goal-wind-wander", "arrival",
                                    "nearest", "predators"])
@pytest.mark.parametrize("method", ["naive", "hashed"])
def test_variants_equal_boids_run_save(tmp_path, flight, method):
    options = dict(FLIGHTS[flight], backend="cpu", method=method)
    saved = tmp_path / "end.npy"
    run_cli("run", "--steps", 200, "--save", saved, *options_args(options))
    flock = boids.Flock(**options)
    flock.step(200)
    assert same_bits(flock.state, np.load(saved))
    if "predators" in options:  # saved beside the boids
        assert flock.predators.shape == (options["predators"], 4)
        assert same_bits(flock.predators, np.load(tmp_path / "end.predators.npy"))
        assert 0 <= flock.metrics()["within_reach"] <= options["count"]
    else:
        assert flock.predators.shape == (0, 4)
        assert "within_reach" not in flock.metrics()


def test_init_takes_the_predators_saved_beside_the_state(tmp_path):
    first, again = tmp_path / "first.npy", tmp_path / "again.npy"
    run_cli("run", "--count", 150, "--predators", 2, "--steps", 40, "--save", first)
    run_cli("run", "--init", first, "--predators", 2, "--steps", 0, "--save", again)
    assert same_bits(np.load(tmp_path / "again.predators.npy"),
                     np.load(tmp_path / "first.predators.npy"))
    refused = subprocess.run([BOIDS, "run", "--init", str(first), "--predators", "3",
                              "--steps", "1"], capture_output=True, text=True)
    assert refused.returncode == 2 and "first.predators.npy" in refused.stderr
    assert "2 predators, not 3" in refused.stderr
    (tmp_path / "first.predators.npy").unlink()  # without it, drawn as a random start's
    run_cli("run", "--init", first, "--predators", 2, "--steps", 0, "--save", again)
    fresh = tmp_path / "fresh.npy"
    run_cli("run", "--count", 150, "--predators", 2, "--steps", 0, "--save", fresh)
    assert same_bits(np.load(tmp_path / "again.predators.npy"),
                     np.load(tmp_path / "fresh.predators.npy"))


def test_obstacles_as_rows_equal_an_obstacle_file(tmp_path):
    rows = [(20.0, 20.0, 5.0), (70.5, 40.0, 8.25)]
    file = tmp_path / "obstacles.csv"
    file.write_text("x,y,radius\n" + "".join(f"{x!r},{y!r},{r!r}\n" for x, y, r in rows))
    from_rows = boids.Flock(count=200, backend="cpu", obstacles=rows)
    from_file = boids.Flock(count=200, backend="cpu", obstacles=str(file))
    from_rows.step(100)
    from_file.step(100)
    assert same_bits(from_rows.state, from_file.state)
    assert from_rows.params["obstacles"] == 2


def test_a_path_as_rows_equals_a_path_file(tmp_path):
    rows = [(20.0, 20.0), (80.5, 25.0), (50.0, 80.0), (20.0, 20.0)]
    file = tmp_path / "path.csv"
    file.write_text("x,y\n" + "".join(f"{x!r},{y!r}\n" for x, y in rows))
    from_rows = boids.Flock(count=200, backend="cpu", path=rows, path_radius=4)
    from_file = boids.Flock(count=200, backend="cpu", path=str(file), path_radius=4)
    from_rows.step(100)
    from_file.step(100)
    assert same_bits(from_rows.state, from_file.state)
    assert from_rows.params["path_points"] == 4 and from_rows.params["path_closed"]
    run_cli("run", "--steps", 100, "--save", tmp_path / "end.npy", "--backend", "cpu",
            "--count", 200, "--path", file, "--path-radius", 4)
    assert same_bits(from_file.state, np.load(tmp_path / "end.npy"))
    with pytest.raises(ValueError, match=r"path, row 1: the same point as the one before it"):
        boids.Flock(backend="cpu", path=[(1, 2), (1, 2)])
    with pytest.raises(ValueError, match=r"path, row 0: expected two numbers \(x, y\) or three"):
        boids.Flock(backend="cpu", path=[(1, 2, 3, 4)])


def test_steps_in_pieces_equal_one_call():
    whole = boids.Flock(count=500, seed=3, backend="cpu", noise=0.5)
    whole.step(300)
    pieces = boids.Flock(count=500, seed=3, backend="cpu", noise=0.5)
    for n in (1, 0, 2, 97, 200):
        pieces.step(n)
    assert pieces.steps_taken == 300
    assert same_bits(pieces.state, whole.state)


@pytest.mark.parametrize("backend,method,precision", CONFIGS)
def test_from_state_and_state_round_trip_exactly(backend, method, precision):
    rng = np.random.default_rng(11)
    array = np.column_stack([rng.uniform(0, 100, 1000), rng.uniform(0, 100, 1000),
                             rng.uniform(-1, 1, 1000), rng.uniform(-1, 1, 1000)])
    if precision == "float":  # a float flock holds float values
        array = array.astype(np.float32).astype(np.float64)
    flock = boids.Flock.from_state(array, backend=backend, method=method, precision=precision)
    assert flock.count == 1000
    assert same_bits(flock.state, array)
    flock.step(3)  # the hashed method reorders its boids; state comes back in input order
    flock.set_state(array)
    assert same_bits(flock.state, array)


def test_from_state_flies_as_boids_run_init(tmp_path):
    start = boids.Flock(count=400, seed=8, backend="cpu", precision="double")
    start.step(50)
    array = start.state
    np.save(tmp_path / "start.npy", array)
    run_cli("run", "--init", tmp_path / "start.npy", "--steps", 100, "--backend", "cpu",
            "--precision", "double", "--noise", "0.2", "--save", tmp_path / "end.npy")
    flock = boids.Flock.from_state(array, backend="cpu", precision="double", noise=0.2)
    flock.step(100)
    assert same_bits(flock.state, np.load(tmp_path / "end.npy"))


def test_from_state_takes_the_count_for_density():
    array = boids.Flock(count=250, density=0.5, backend="cpu").state
    flock = boids.Flock.from_state(array, density=0.5, backend="cpu")
    assert flock.params["world"] == pytest.approx((250 / 0.5) ** 0.5)


def test_positions_and_velocities_are_views_of_the_state():
    flock = boids.Flock(count=50, backend="cpu")
    positions, velocities = flock.positions, flock.velocities
    assert positions.shape == velocities.shape == (50, 2)
    assert positions.base is not None and velocities.base is not None
    assert same_bits(np.hstack([positions, velocities]), flock.state)


def test_input_arrays_of_other_layouts_are_taken():
    array = boids.Flock(count=64, backend="cpu", precision="double").state
    fortran = np.asfortranarray(array)
    flock = boids.Flock.from_state(fortran, backend="cpu", precision="double")
    assert same_bits(flock.state, array)
    flock = boids.Flock.from_state(array.tolist(), backend="cpu", precision="double")
    assert same_bits(flock.state, array)


def test_metrics_and_params_are_boids_run_json(tmp_path):
    options = dict(count=300, seed=6, backend="cpu", fov=300, boundary="walls")
    report = cli_json("run", "--steps", 150, *options_args(options))
    flock = boids.Flock(**options)
    flock.step(150)
    metrics = flock.metrics()
    assert list(metrics) == ["polarization", "order", "milling", "flocks", "largest_flock",
                             "mean_nn_distance", "mean_neighbors"]
    assert metrics == {key: report[key] for key in metrics}
    params = flock.params
    assert params == {key: report[key] for key in params}
    assert (flock.count, flock.seed, flock.backend, flock.method, flock.precision,
            flock.device) == tuple(report[k] for k in (
                "count", "seed", "backend", "method", "precision", "device"))


def test_set_params_flies_as_a_flock_made_with_them():
    changed = boids.Flock(count=300, seed=1, backend="cpu")
    changed.set_params(alignment=0.25, noise=0.1, wind=(0.01, 0))
    made = boids.Flock(count=300, seed=1, backend="cpu", alignment=0.25, noise=0.1,
                       wind=(0.01, 0))
    assert changed.params == made.params
    changed.step(100)
    made.step(100)
    assert same_bits(changed.state, made.state)
    changed.set_params(noise=None)  # back to the default
    assert changed.params["noise"] == 0 and changed.params["alignment"] == 0.25


def test_defaults_are_the_models():
    assert boids.Flock(backend="cpu").count == 120
    assert boids.Flock(model="steering", backend="cpu").count == 220
    vicsek = boids.Flock(model="vicsek", backend="cpu")
    assert vicsek.count == 400 and vicsek.params["world"] == 10
    reference = boids.Flock(backend="reference")
    assert (reference.method, reference.precision) == ("naive", "double")


def test_numbers_of_every_python_kind_are_taken_exactly():
    flock = boids.Flock(count=np.int64(100), radius=np.float32(7.5), alignment=0.1,
                        world=(np.float64(90.0), 80), seed=2**64 - 1, backend="cpu")
    p = flock.params
    assert (flock.count, flock.seed) == (100, 2**64 - 1)
    assert (p["radius"], p["alignment"], p["world"]) == (7.5, 0.1, [90.0, 80.0])


def test_help_explains_every_option():
    for keyword in boids._boids.flock_keywords():
        assert keyword in boids.Flock.__doc__, keyword


def test_files_are_read_once_when_the_flock_is_made(tmp_path):
    start, rocks = tmp_path / "start.npy", tmp_path / "rocks.csv"
    np.save(start, boids.Flock(count=200, density=0.05, backend="cpu", precision="double").state)
    rocks.write_text("x,y,radius\n10,10,2\n")
    flock = boids.Flock(init=start, density=0.05, obstacles=rocks, backend="cpu",
                        precision="double")
    start.unlink()
    rocks.write_text("x,y,radius\n10,10,2\n20,20,2\n")
    flock.set_params(noise=0.1)  # neither file is read again
    assert flock.params["obstacles"] == 1 and flock.params["noise"] == 0.1
    assert flock.params["world"] == pytest.approx((200 / 0.05) ** 0.5)


def test_zero_dimensional_arrays_are_numbers():
    assert boids.Flock(count=10, radius=np.array(5.0), backend="cpu").params["radius"] == 5


def test_run_returns_the_metrics_history_as_the_command_line_writes_it(tmp_path):
    """flock.run(steps, every=k) holds the rows boids run --metrics --metrics-every k writes."""
    flock = boids.Flock(count=150, seed=4, backend="cpu")
    flock.step(3)
    history = flock.run(25, every=10)
    run_cli("run", "--backend", "cpu", "--count", "150", "--seed", "4", "--steps", "28",
            "--metrics", tmp_path / "m.csv", "--metrics-every", "10")
    with open(tmp_path / "m.csv") as f:
        rows = list(csv.DictReader(f))
    wanted = [r for r in rows if int(r["step"]) >= 3]  # the flock's run began at step 3
    steps = [3] + [int(r["step"]) for r in wanted]
    assert list(history["step"]) == steps
    for column in ("polarization", "order", "mean_nn_distance", "largest_flock"):
        assert [float(v) for v in history[column]][1:] == \
            pytest.approx([float(r[column]) for r in wanted], rel=0, abs=0)
    pandas = pytest.importorskip("pandas", reason="python3-pandas is not installed")
    assert isinstance(history, pandas.DataFrame)
    assert list(flock.run(0)["step"]) == [28]
    with pytest.raises(ValueError, match="every: expected a whole number >= 1"):
        flock.run(5, every=0)


def test_whole_numbers_follow_the_command_lines_rule():
    # A whole value as int or float (count=1e3, nearest=3.0), as the command line takes 1e3 and
    # 3.0; a fraction or a sign on zero is refused alike.
    flock = boids.Flock(count=1e3, nearest=3.0, backend="cpu")
    assert flock.count == 1000 and flock.params["nearest"] == 3
    for bad in (2.5, -0.0):
        with pytest.raises(ValueError, match="nearest: expected a whole number"):
            boids.Flock(count=10, nearest=bad, backend="cpu")


def test_a_change_that_turns_a_need_off_is_refused_for_itself():
    # predator_speed, given before, needs predators: predators=0 was refused as "predator_speed
    # needs predators K", an option not given with the change. What needed it is dropped, and
    # the change is refused for its own reason.
    flock = boids.Flock(count=50, predators=2, predator_speed=1.5, backend="cpu")
    with pytest.raises(ValueError, match="the number of predators cannot change in flight"):
        flock.set_params(predators=0)
    assert flock.params["predators"] == 2 and flock.params["predator_speed"] == 1.5
    flock.set_params(flee_radius=30)  # what was given before stays given
    assert flock.params["predator_speed"] == 1.5


def _taken(make):
    """Whether `make()` takes its values: True, or False for a ValueError (a refusal); None
    where the refusal says that what it changes cannot change in flight."""
    try:
        make()
        return True
    except ValueError as refused:
        return None if "cannot change in flight" in str(refused) else False


@pytest.mark.parametrize("model,dimensions", [("boids", 2), ("steering", 2), ("vicsek", 2),
                                              ("couzin", 2), ("boids", 3)])
def test_set_params_takes_and_refuses_what_a_fresh_flock_does(model, dimensions):
    """Every number a flying flock's set_params takes is taken or refused as Flock() takes it
    for a fresh flock in the same world (as --new-flight and the page are, by test_cli)."""
    made = dict(model=model, count=30, dimensions=dimensions, backend="cpu")
    flock = boids.Flock(**made)
    world = flock.params["world"]
    checked = 0
    for key, now in flock.params.items():
        if isinstance(now, bool) or not isinstance(now, (int, float)) or key in (
                "dimensions", "world", "count"):
            continue
        if not _taken(lambda: boids.Flock(**made).set_params(**{key: now})):
            continue  # not a change a flying flock takes
        whole = isinstance(now, int)
        for value in ([now + 1, 0, -1, 10 ** 9] if whole
                      else [now * 2 + 1, now / 2, 0.0, -1.0, 1e300]):
            fresh = _taken(lambda: boids.Flock(**made, world=world, **{key: value}))
            changed = _taken(lambda: boids.Flock(**made).set_params(**{key: value}))
            if changed is None:
                break  # a new flock's (predators): no flying flock takes another
            assert changed == fresh, f"{model} {dimensions}D: {key} = {value}"
            checked += 1
    assert checked >= 8
