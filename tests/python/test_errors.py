"""Every way to get boids.Flock wrong: ValueError with the command line's own message for
what the command line refuses, ValueError or TypeError for what only Python can give, and
nothing that crashes the interpreter."""

import math
import os
import re
import resource
import subprocess
import sys

import numpy as np
import pytest

import boids
from conftest import BOIDS, CUDA, cli_error


# (keyword options, the same as `boids run` arguments)
REFUSED = [
    (dict(radius=-1), ["--radius", "-1"]),
    (dict(count=0), ["--count", "0"]),
    (dict(count=2**31), ["--count", str(2**31)]),
    (dict(seed=-1), ["--seed", "-1"]),
    (dict(noise=7), ["--noise", "7"]),
    (dict(noise=math.nan), ["--noise", "nan"]),
    (dict(fov=0), ["--fov", "0"]),
    (dict(model="bird"), ["--model", "bird"]),
    (dict(backend="gpu"), ["--backend", "gpu"]),
    (dict(method="fast"), ["--method", "fast"]),
    (dict(world=(1, 2, 3)), ["--world", "1,2,3"]),
    (dict(world=100, density=2), ["--world", "100", "--density", "2"]),
    (dict(goal=(150, 10)), ["--goal", "150,10"]),
    (dict(goal=(1, 2, 3)), ["--goal", "1,2,3"]),
    (dict(goal_weight=2), ["--goal-weight", "2"]),
    (dict(speed=0.1), ["--speed", "0.1"]),
    (dict(model="vicsek", alignment=1), ["--model", "vicsek", "--alignment", "1"]),
    (dict(dt=0.1), ["--dt", "0.1"]),
    (dict(backend="reference", method="hashed"), ["--backend", "reference", "--method", "hashed"]),
    (dict(backend="reference", precision="float"),
     ["--backend", "reference", "--precision", "float"]),
    (dict(update="in-place", model="steering", backend="cpu"),
     ["--update", "in-place", "--model", "steering", "--backend", "cpu"]),
    (dict(world=1e300, precision="float"), ["--world", "1e300", "--precision", "float"]),
    (dict(max_speed=200), ["--max-speed", "200"]),
    (dict(separation_radius=20), ["--separation-radius", "20"]),
    (dict(init="/nonexistent/start.npy"), ["--init", "/nonexistent/start.npy"]),
    (dict(obstacles="/nonexistent/discs.csv"), ["--obstacles", "/nonexistent/discs.csv"]),
    (dict(wall_distance=3), ["--wall-distance", "3"]),
    (dict(nearest=33), ["--nearest", "33"]),
    (dict(nearest=2.5), ["--nearest", "2.5"]),
    (dict(predators=1001), ["--predators", "1001"]),
    (dict(model="vicsek", predators=2), ["--model", "vicsek", "--predators", "2"]),
]


# Flock's keywords, as help(boids.Flock) lists them.
KEYWORDS = [line.split()[0] for line in boids.Flock.__doc__.splitlines()
            if line.startswith("        ") and not line.startswith("         ")]


def python_words(message):
    """The command line's message as Python says it: each flag of a keyword as the keyword."""
    for keyword in sorted(KEYWORDS, key=len, reverse=True):
        message = re.sub("--" + keyword.replace("_", "-") + r"\b(?!-)", keyword, message)
    return message


@pytest.mark.parametrize("options,args", REFUSED, ids=[" ".join(a) for _, a in REFUSED])
def test_refused_with_the_command_lines_message(options, args):
    with pytest.raises(ValueError) as refused:
        boids.Flock(**options)
    assert str(refused.value) == python_words(cli_error("run", "--steps", "1", *args))


def test_a_refusal_names_the_keyword_not_the_flag():
    assert "max_speed" in KEYWORDS and "count" in KEYWORDS and len(KEYWORDS) > 30
    with pytest.raises(ValueError) as refused:
        boids.Flock(max_speed=200)
    assert str(refused.value).startswith("max_speed: ") and "--" not in str(refused.value)
    with pytest.raises(ValueError, match="^separation_radius: "):
        boids.Flock(count=10).set_params(separation_radius=20)


def test_a_state_file_refused_by_the_command_line_is_refused_alike(tmp_path):
    start = tmp_path / "start.csv"
    start.write_text("x,y,vx,vy\n1,2,0.5,0\n120,3,0,0.5\n")
    with pytest.raises(ValueError) as refused:
        boids.Flock(init=start)  # a path-like is a file name
    assert str(refused.value) == python_words(cli_error("run", "--init", start))


def test_unknown_keywords_are_type_errors_that_list_the_known():
    with pytest.raises(TypeError, match="unexpected keyword argument 'radious'.*radius"):
        boids.Flock(radious=5)


@pytest.mark.parametrize("value", [True, "five", [1, "x"], {"a": 1}, 1j, b"5"])
def test_values_that_are_not_numbers_are_refused(value):
    with pytest.raises(ValueError, match="^radius: "):
        boids.Flock(radius=value)


def random_state(count=10, world=100):
    rng = np.random.default_rng(5)
    return np.column_stack([rng.uniform(0, world, count), rng.uniform(0, world, count),
                            rng.uniform(-1, 1, count), rng.uniform(-1, 1, count)])


BAD_STATES = [
    (np.zeros((5, 3)), r"state: its shape is \(5, 3\); expected \(N, 4\)"),
    (np.zeros((5, 5)), r"state: its shape is \(5, 5\); expected \(N, 4\)"),
    (np.zeros(4), r"state: its shape is \(4,\); expected \(N, 4\)"),
    (np.zeros((2, 2, 4)), r"state: its shape is \(2, 2, 4\)"),
    (np.zeros((0, 4)), "state: no boids"),
    (np.array([["a", "b", "c", "d"]]), "state: expected an array of numbers"),
    ("x,y,vx,vy", "state: expected an array of numbers"),
]


@pytest.mark.parametrize("array,message", BAD_STATES)
def test_bad_arrays_are_refused_by_shape_and_kind(array, message):
    with pytest.raises(ValueError, match=message):
        boids.Flock.from_state(array, backend="cpu")


def test_bad_rows_are_refused_naming_the_row():
    for column, value, message in [(0, 100.0, r"state, row 3: x = 100 is outside the world"),
                                   (1, -1e-9, r"state, row 3: y = -1e-09 is outside"),
                                   (2, np.nan, r"state, row 3: vx = nan is not finite"),
                                   (3, np.inf, r"state, row 3: vy = inf is not finite")]:
        array = random_state()
        array[3, column] = value
        with pytest.raises(ValueError, match=message):
            boids.Flock.from_state(array, backend="cpu")
    array = random_state()
    array[2, 2] = 1e30
    with pytest.raises(ValueError, match=r"state, row 2: vx = 1e30 is too large for "
                                         r"precision float \(at most 1e20\); use precision "
                                         r"double"):
        boids.Flock.from_state(array, backend="cpu")
    array = random_state()
    array[4, :2] = (20, 20)
    with pytest.raises(ValueError, match=r"state: .*obstacle"):
        boids.Flock.from_state(array, backend="cpu", obstacles=[(20, 20, 5)])


def test_from_state_refuses_a_count_or_a_file():
    with pytest.raises(ValueError, match="count: from_state takes the flock from the array"):
        boids.Flock.from_state(random_state(), count=10)
    with pytest.raises(ValueError, match="init: from_state"):
        boids.Flock.from_state(random_state(), init="start.npy")


def test_set_state_refuses_another_size_and_keeps_the_flock():
    flock = boids.Flock(count=10, backend="cpu")
    before = flock.state
    with pytest.raises(ValueError, match=r"set_state: expected shape \(10, 4\) for this flock "
                                         r"of 10 boids, got \(11, 4\)"):
        flock.set_state(random_state(11))
    bad = random_state()
    bad[9, 0] = -5
    with pytest.raises(ValueError, match="state, row 9"):
        flock.set_state(bad)
    assert flock.state.tobytes() == before.tobytes()


@pytest.mark.parametrize("rows,message", [
    ([(1, 2)], r"obstacles, row 0: expected three numbers \(x, y, radius\)"),
    ([(1, 2, 3), 5], r"obstacles, row 1: expected three numbers"),
    ([(1, 2, 0)], r"obstacles, row 0: radius = 0 is not > 0"),
    ([(1, 200, 3)], r"obstacles, row 0: y = 200 is outside the world \[0, 100\)"),
    ([(1, 2, "r")], r"obstacles, row 0: expected a real number"),
    (5, r"obstacles: expected rows \(x, y, radius\) or a file's name, got 5"),
])
def test_bad_obstacle_rows_are_refused_naming_the_row(rows, message):
    with pytest.raises(ValueError, match=message):
        boids.Flock(backend="cpu", obstacles=rows)


def test_set_params_refuses_what_is_fixed_and_keeps_the_flock():
    flock = boids.Flock(count=50, backend="cpu", alignment=0.5)
    before = flock.params
    for change, message in [(dict(count=60), "count: fixed for a flock's life"),
                            (dict(seed=1), "seed: fixed"), (dict(backend="reference"), "backend"),
                            (dict(precision="double"), "precision: fixed"),
                            (dict(world=50), "the world's size and boundary cannot change"),
                            (dict(boundary="walls"), "the world's size and boundary"),
                            (dict(model="vicsek"), "model: fixed for a flock's life"),
                            (dict(dimensions=3), "dimensions: fixed for a flock's life"),
                            (dict(model="boids"), "model: fixed"),
                            (dict(radius=0), "^radius: expected a number > 0"),
                            (dict(max_speed=1e9), "^max_speed: ")]:
        with pytest.raises(ValueError, match=message):
            flock.set_params(**change)
    with pytest.raises(TypeError, match="unexpected keyword argument 'weight'"):
        flock.set_params(weight=1)
    assert flock.params == before


def test_step_refuses_negative_counts():
    flock = boids.Flock(count=10, backend="cpu")
    with pytest.raises(ValueError, match="step: n must be >= 0"):
        flock.step(-1)
    with pytest.raises(TypeError):
        flock.step(1.5)
    assert flock.steps_taken == 0


@pytest.mark.parametrize("n,error,message", [
    (1.5, TypeError, "step: n must be a whole number (int), got 1.5"),
    ("3", TypeError, "step: n must be a whole number (int), got '3'"),
    (True, TypeError, "step: n must be a whole number (int), got True"),
    (-2**70, ValueError, f"step: n must be >= 0, got {-2**70}"),
    (2**64, ValueError, f"step: n = {2**64} would take the flock past 1000000000000000000 steps"),
    (10**18 + 1, ValueError, "would take the flock past 1000000000000000000 steps"),
])
def test_step_refuses_what_is_no_count_in_one_line(n, error, message):
    """The documented errors, one line each, naming no private class."""
    flock = boids.Flock(count=10, backend="cpu")
    with pytest.raises(error) as refused:
        flock.step(n)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value) and "_Flock" not in str(refused.value)
    assert flock.steps_taken == 0
    flock.step(np.int64(2))  # NumPy's integers are whole numbers
    assert flock.steps_taken == 2


def test_set_params_refuses_obstacles_over_boids_and_keeps_the_flock():
    flock = boids.Flock(count=50, backend="cpu")
    x, y = flock.state[7, :2]
    with pytest.raises(ValueError, match="obstacles: boid 7 would lie inside an obstacle"):
        flock.set_params(obstacles=[(x, y, 0.5)])
    assert flock.params["obstacles"] == 0
    positions = flock.state[:, :2]
    free = next((gx, gy) for gx in range(10, 91, 5) for gy in range(10, 91, 5)
                if np.hypot(*(positions - (gx, gy)).T).min() > 2)
    flock.set_params(obstacles=[(*free, 1)])
    assert flock.params["obstacles"] == 1


def test_set_params_holds_the_backend_to_the_command_lines_rules():
    flock = boids.Flock(count=50, backend="cpu", model="steering")
    with pytest.raises(ValueError, match="^update in-place: only the reference backend"):
        flock.set_params(update="in-place")
    assert flock.params["update"] == "synchronous"


@pytest.mark.parametrize("array,kind", [
    (random_state().astype(complex), "complex128"),
    (random_state() > 50, "bool"),
    (random_state().astype(str), "<U"),
    (np.where(np.arange(40).reshape(10, 4) == 5, "0", random_state().astype(object)),
     "object"),
])
def test_from_state_takes_real_numbers_only(array, kind):
    with pytest.raises(ValueError, match="state: expected an array of numbers") as refused:
        boids.Flock.from_state(array, backend="cpu")
    assert kind in str(refused.value) and "real numbers only" in str(refused.value)
    flock = boids.Flock(count=10, backend="cpu")
    with pytest.raises(ValueError, match="state: expected an array of numbers"):
        flock.set_state(array)


def test_from_state_takes_integers():
    flock = boids.Flock.from_state(np.array([[1, 2, 1, 0], [30, 40, 0, 1]]), backend="cpu")
    assert flock.state.tolist() == [[1, 2, 1, 0], [30, 40, 0, 1]]


def test_a_float_vicsek_flocks_state_starts_again():
    """Its speeds are V to float's rounding, which a start in float accepts."""
    flock = boids.Flock(model="vicsek", noise=1, backend="cpu", precision="float")
    flock.step(10)
    again = boids.Flock.from_state(flock.state, model="vicsek", noise=1, backend="cpu")
    assert again.count == flock.count


@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer reserves more address space than the limit")
def test_a_flock_beyond_the_process_memory_is_a_runtime_error_with_the_command_lines_message():
    """An allocation that fails (here under an address-space limit) raises RuntimeError with
    the message `boids run` prints, not MemoryError('std::bad_alloc')."""
    limit = 2 << 30
    script = (
        "import resource, boids\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
        "try:\n"
        "    boids.Flock(count=40_000_000, backend='cpu', density=0.012)\n"
        "except Exception as e:\n"
        "    print(type(e).__name__ + ': ' + str(e))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    reply = done.stdout.strip()
    assert reply.startswith("RuntimeError: "), reply
    if "needs" not in reply:  # not refused by the check of the machine's free memory first
        assert reply == "RuntimeError: " + command_line_message_under(limit)


def command_line_message_under(limit):
    """What `boids run` says of the same flock under the same limit."""
    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    done = subprocess.run([BOIDS, "run", "--count", "40000000", "--backend", "cpu", "--density",
                           "0.012", "--steps", "0"], capture_output=True, text=True,
                          preexec_fn=limited, timeout=300)
    assert done.returncode == 1, done.stderr
    return done.stderr.removeprefix("boids: error: ").rstrip("\n")


@pytest.mark.skipif(CUDA["available"], reason="a CUDA device is usable here")
def test_without_a_gpu_the_cuda_backend_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="cuda"):
        boids.Flock(backend="cuda")
    with pytest.raises(RuntimeError, match="--backend cuda: the cuda backend cannot run here"):
        boids.validate("cuda")


def test_device_state_of_a_host_flock_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="lives in host memory"):
        boids.Flock(count=10, backend="cpu").device_state()


def test_validate_refuses_an_unknown_backend_as_the_command_line_does():
    with pytest.raises(ValueError) as refused:
        boids.validate("reference")
    assert str(refused.value) == cli_error("validate", "--backend", "reference")


def test_a_flock_too_large_for_memory_is_refused_before_it_is_allocated():
    with pytest.raises(RuntimeError, match="memory"):
        boids.Flock(count=2**31 - 1, backend="reference")


def test_a_device_view_of_a_box_is_not_offered_yet():
    flock = boids.Flock(count=10, dimensions=3, backend="cpu")
    with pytest.raises(RuntimeError, match="not yet for flocks in three dimensions"):
        flock.device_state()


def test_a_port_out_of_range_is_one_line(tmp_path):
    flock = boids.Flock(count=20)
    with pytest.raises(ValueError, match="port: expected 0 .any. to 65535, got 9223372036854775808"):
        flock.serve(port=2**63)
