"""A step runs without the GIL: other Python threads go on while it does, and two threads
stepping one flock take turns."""

import threading
import time

import boids


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
