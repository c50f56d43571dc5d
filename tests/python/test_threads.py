"""A step runs without the GIL: other Python threads go on while it does, and two threads
stepping one flock take turns. OpenMP's idle threads sleep rather than spin, in the tools and
in the module, unless the user chose otherwise (host/io/omp_waiting.h)."""

import os
import subprocess
import sys
import threading
import time

import boids
import pytest
from conftest import BOIDS

# The user's choice, the spin count the runtime then holds, and what `info` says of it. The spin
# count is the effect: libgomp displays OMP_WAIT_POLICY as PASSIVE when it is unset, whatever
# its threads do, but spins 300000 times before sleeping unless passive was read.
CHOICES = [({}, "0", "OMP_WAIT_POLICY=passive"),
           ({"OMP_WAIT_POLICY": "active"}, None, "OMP_WAIT_POLICY=active"),
           ({"GOMP_SPINCOUNT": "1000"}, "1000", "GOMP_SPINCOUNT=1000")]


def environment(chosen):
    """This environment without a wait policy, then `chosen`, the runtime asked to show its
    settings at start (OMP_DISPLAY_ENV)."""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(chosen, OMP_DISPLAY_ENV="verbose")
    return env


def runtime_spin_count(stderr):
    """The spin count the runtime started with, from its display (once: a tool that executes
    itself again displays only in the process that runs)."""
    lines = [line for line in stderr.splitlines() if "GOMP_SPINCOUNT = " in line]
    assert len(lines) == 1, stderr
    return lines[0].split("'")[1]


@pytest.mark.parametrize("chosen,spins,said", CHOICES)
def test_the_tools_idle_threads_sleep_unless_the_user_chose(chosen, spins, said):
    done = subprocess.run([BOIDS, "info"], capture_output=True, text=True, env=environment(chosen))
    assert done.returncode == 0, done.stderr
    if spins:
        assert runtime_spin_count(done.stderr) == spins
    assert f"(idle threads: {said})" in done.stdout


@pytest.mark.parametrize("chosen,spins,said", CHOICES)
def test_the_modules_idle_threads_sleep_unless_the_user_chose(chosen, spins, said):
    code = "import boids; print(boids.info()['backends']['cpu']['wait_policy'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environment(chosen))
    assert done.returncode == 0, done.stderr
    if spins:
        assert runtime_spin_count(done.stderr) == spins
    assert done.stdout.strip() == said


def test_other_threads_run_while_a_flock_steps():
    flock = boids.Flock(count=20000, backend="cpu", precision="double")
    flock.step(1)
    started = time.perf_counter()
    flock.step(5)
    seconds_per_step = (time.perf_counter() - started) / 5
    steps = max(10, int(1.0 / seconds_per_step))  # about a second of stepping

    stepping = threading.Thread(target=flock.step, args=(steps,))
    ticks = 0
    stepping.start()
    while stepping.is_alive():
        ticks += 1  # Python work, possible only while the step has let the GIL go
        time.sleep(0.001)
    stepping.join()
    assert flock.steps_taken == 6 + steps
    # About a thousand ticks in a second; with the GIL held, one or two.
    assert ticks > 50, f"only {ticks} ticks ran during {steps} steps"


def test_two_threads_stepping_one_flock_take_turns():
    alone = boids.Flock(count=3000, backend="cpu", seed=4)
    alone.step(60)
    shared = boids.Flock(count=3000, backend="cpu", seed=4)
    threads = [threading.Thread(target=shared.step, args=(30,)) for _ in range(2)]
    for thread in threads:
        thread.start()
    readers = [threading.Thread(target=lambda: (shared.state, shared.metrics()))
               for _ in range(4)]
    for reader in readers:
        reader.start()
    for thread in threads + readers:
        thread.join()
    assert shared.steps_taken == 60
    assert shared.state.tobytes() == alone.state.tobytes()


def test_changes_from_two_threads_are_both_kept():
    for _ in range(30):
        flock = boids.Flock(count=50, backend="cpu")
        barrier = threading.Barrier(2)

        def change(**params):
            barrier.wait()
            flock.set_params(**params)

        threads = [threading.Thread(target=change, kwargs=dict(noise=0.1)),
                   threading.Thread(target=change, kwargs=dict(radius=5))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert (flock.params["noise"], flock.params["radius"]) == (0.1, 5)
