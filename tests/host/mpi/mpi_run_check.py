"""`boids run` under `mpirun -np P` against one process: naive double bit for bit, hashed
double within 1e-9, the same flock count, in 2D and 3D, with the variants; a checkpoint written
under MPI resumed by one process and one process's under MPI; bad input refused on every rank
count.

Usage: mpi_run_check.py BOIDS MPIRUN RANKS WORKDIR
"""
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import h5py
import numpy as np

BOIDS, MPIRUN, RANKS, WORK = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1",
           OMP_WAIT_POLICY="passive",
           # A refused run's ranks have all ended by the time mpirun would signal them: no
           # second's wait before its SIGKILL.
           OMPI_MCA_odls_base_sigkill_timeout="0")
TIMEOUT = 300
failures = []


def mpirun(args):
    return [MPIRUN, "--oversubscribe", "-np", str(RANKS), BOIDS] + args


def run(command, name):
    done = subprocess.run(command, env=ENV, capture_output=True, text=True, timeout=TIMEOUT)
    if done.returncode != 0:
        raise SystemExit(f"{name}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def flight(name, options, ext="csv"):
    """The same flight in one process and over the ranks: their saved states and JSON. A .npy
    state is written by every rank, each its own rows (MPI-IO); a CSV one too, each rank its
    rows' text where the lengths before it end."""
    out = {}
    for where, launch in (("one", lambda a: [BOIDS] + a), ("ranks", mpirun)):
        save = os.path.join(WORK, f"{name}-{where}.{ext}")
        report = run(launch(["run"] + options + ["--save", save, "--json"]), f"{name} ({where})")
        out[where] = (save, json.loads(report))
    return out


def load(path):
    return np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL", message)


def refused_alike(what, options, words):
    """`boids run OPTIONS` refused under the ranks with one process's first line of error,
    which names `words`."""
    said = {}
    for where, launch in (("one", lambda a: [BOIDS] + a), ("ranks", mpirun)):
        done = subprocess.run(launch(["run"] + options), env=ENV, capture_output=True, text=True,
                              timeout=TIMEOUT)
        said[where] = (done.returncode, done.stderr.splitlines()[0] if done.stderr else "")
    check(said["one"][0] == 2 and said["ranks"][0] != 0 and said["one"][1] == said["ranks"][1]
          and words in said["one"][1], f"{what} under {RANKS} ranks: {said}")


def checksum(data):
    """A checkpoint's checksum (host/base/checksum.h) over `data`."""
    mask = (1 << 64) - 1

    def mix(h, word):
        h = ((h ^ word) * 0x9E3779B97F4A7C15) & mask
        return ((h << 31) | (h >> 33)) & mask

    h = 0x243F6A8885A308D3
    whole = len(data) // 8 * 8
    for word in np.frombuffer(data[:whole], dtype="<u8"):
        h = mix(h, int(word))
    tail = data[whole:]
    h = mix(h, int.from_bytes(tail, "little") ^ (len(tail) << 56))
    return h ^ (h >> 31)


def same_metrics(name, one, ranks, tolerance, counts=("flocks", "largest_flock", "mean_neighbors")):
    """The metrics the ranks measure where their boids lie against one process's: `counts`
    exactly; the sums to `tolerance`, relative."""
    for key in counts:
        check(one[key] == ranks[key], f"{name}: {key} {ranks[key]} under {RANKS} ranks, "
                                      f"{one[key]} in one process")
    for key in ("polarization", "order", "mean_nn_distance"):
        check(abs(one[key] - ranks[key]) <= tolerance * max(abs(one[key]), 1e-300),
              f"{name}: {key} {ranks[key]!r} under {RANKS} ranks, {one[key]!r} in one process")


def exact(name, options, ext="csv"):
    f = flight(name, options, ext)
    (one, one_json), (ranks, ranks_json) = f["one"], f["ranks"]
    with open(one, "rb") as a, open(ranks, "rb") as b:
        check(a.read() == b.read(), f"{name}: the states differ under {RANKS} ranks")
    same_metrics(name, one_json, ranks_json, 1e-12)
    print(f"{name}: bit for bit, {ranks_json['flocks']} flocks")


def close(name, options, sides, tolerance=1e-9, metrics_tolerance=1e-7):
    f = flight(name, options)
    (one, one_json), (ranks, ranks_json) = f["one"], f["ranks"]
    a, b = load(one), load(ranks)
    d = len(sides)
    offset = a[:, :d] - b[:, :d]
    for axis, side in enumerate(sides):  # across the torus's edge
        offset[:, axis] = np.minimum(np.abs(offset[:, axis]), side - np.abs(offset[:, axis]))
    worst = max(np.abs(offset).max(), np.abs(a[:, d:] - b[:, d:]).max())
    check(worst <= tolerance, f"{name}: differs by {worst:.3g} under {RANKS} ranks")
    if metrics_tolerance is None:
        check(one_json["flocks"] == ranks_json["flocks"], f"{name}: flocks differ")
    else:
        # Flights apart by rounding: a pair within it of r may count on one side alone.
        same_metrics(name, one_json, ranks_json, metrics_tolerance, counts=("flocks",))
    print(f"{name}: within {worst:.3g}, {ranks_json['flocks']} flocks")


def same_trajectory(name, options, tolerance=0.0):
    """The trajectory of a flight under mpirun against one process's: the same frames, the
    boids within `tolerance` (0: bit for bit), the metrics within 1e-12."""
    files = {}
    for where, launch in (("one", lambda a: [BOIDS] + a), ("ranks", mpirun)):
        files[where] = os.path.join(WORK, f"{name}-{where}.h5")
        run(launch(["run"] + options + ["--trajectory", files[where]]), f"{name} ({where})")
    with h5py.File(files["one"], "r") as one, h5py.File(files["ranks"], "r") as ranks:
        for quantity in ("position", "velocity"):
            a = one[f"particles/flock/{quantity}/value"][()]
            b = ranks[f"particles/flock/{quantity}/value"][()]
            check(a.shape == b.shape and (np.array_equal(a, b) if tolerance == 0 else
                                          np.allclose(a, b, rtol=0, atol=tolerance)),
                  f"{name}: the {quantity}s differ under {RANKS} ranks")
        check(np.array_equal(one["particles/flock/position/step"][()],
                             ranks["particles/flock/position/step"][()]),
              f"{name}: the frames' steps differ under {RANKS} ranks")
        for metric in ("flocks", "largest_flock", "polarization", "mean_nn_distance"):
            a = one[f"observables/{metric}/value"][()]
            b = ranks[f"observables/{metric}/value"][()]
            check(np.allclose(a, b, rtol=1e-12, atol=0) if tolerance == 0 else a.shape == b.shape,
                  f"{name}: {metric} differs under {RANKS} ranks: {a} {b}")
    check(os.path.exists(files["ranks"][:-3] + ".xdmf"), f"{name}: no XDMF beside the file")
    print(f"{name}: the same trajectory")


def rank_process(rank):
    """The pid of this test's boids process of MPI rank `rank`, or None."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read().split(b"\0")
        except OSError:
            continue
        if (command[0] == BOIDS.encode() and f"OMPI_COMM_WORLD_RANK={rank}".encode() in env
                and WORK.encode() in b" ".join(command)):
            return int(pid)
    return None


def kill_and_expect_the_output_kept(run_, victim, target, when):
    """Kills rank `victim` of the run `run_` (`when`: words for the moment, in messages): the run
    must end with an error, not hang, and leave `target` holding "the previous output"."""
    os.kill(victim, signal.SIGKILL)
    try:
        run_.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        run_.kill()
        check(False, f"a run whose rank was killed {when} hung")
        return False
    check(run_.returncode != 0, f"a run whose rank was killed {when} exited {run_.returncode}")
    with open(target) as f:
        check(f.read() == "the previous output",
              f"a run whose rank was killed {when} changed the file its --save names")
    return True


def with_previous_output(name):
    """A file in WORK holding "the previous output", for a run's --save to leave alone."""
    target = os.path.join(WORK, name)
    with open(target, "w") as f:
        f.write("the previous output")
    return target


def killed_rank_ends_the_run():
    """A rank killed in flight ends the whole run with an error, not a hang, and the output
    the ranks would have written together leaves the file there before it as it was."""
    marker = with_previous_output("long-flight.npy")
    run_ = subprocess.Popen(mpirun(["run", "--count", "20000", "--steps", "100000000", "--save",
                                    marker]), env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    victim = None
    for _ in range(300):  # up to 30 s for the ranks to start
        victim = rank_process(RANKS - 1)
        if victim or run_.poll() is not None:
            break
        time.sleep(0.1)
    check(victim is not None, "the last rank's process was not found")
    if victim is None:
        run_.kill()
        return
    time.sleep(1.0)  # well into the flight
    if kill_and_expect_the_output_kept(run_, victim, marker, "in flight"):
        print(f"a killed rank ended the run: exit {run_.returncode}")


def killed_rank_mid_write():
    """A rank killed while the ranks write a file together (MPI-IO into the output's temporary
    file, its size set first) ends the run with an error, and the file there before is whole."""
    if os.environ.get("BOIDS_SANITIZED"):
        print("a rank killed in the ranks' write: left to the default build (its flight of "
              "2,000,000 boids takes minutes under the sanitizers)")
        return
    target = with_previous_output("big-save.csv")
    run_ = subprocess.Popen(mpirun(["run", "--count", "2000000", "--density", "0.012", "--steps",
                                    "1", "--save", target]), env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    writing = None
    for _ in range(1200):  # up to 60 s for the flight to start its write
        for name in os.listdir(WORK):
            path = os.path.join(WORK, name)
            if name.startswith(".big-save.csv.tmp-") and os.path.getsize(path) > 0:
                writing = path
        if writing or run_.poll() is not None:
            break
        time.sleep(0.05)
    victim = rank_process(RANKS - 1)
    check(writing is not None and victim is not None,
          f"the ranks' write was not seen under way (exit {run_.poll()})")
    if writing is None or victim is None:
        run_.kill()
        run_.communicate()
        return
    if kill_and_expect_the_output_kept(run_, victim, target, "in a write"):
        print(f"a rank killed in the ranks' write ended the run: exit {run_.returncode}, "
              "the previous output whole")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    naive = ["--backend", "cpu", "--method", "naive", "--precision", "double", "--steps", "10"]
    hashed = ["--backend", "cpu", "--method", "hashed", "--precision", "double", "--steps", "10"]
    obstacles = os.path.join(WORK, "obstacles.csv")
    with open(obstacles, "w") as f:
        f.write("x,y,radius\n30,40,6\n70,75,4\n")
    spheres = os.path.join(WORK, "spheres.csv")
    with open(spheres, "w") as f:
        f.write("x,y,z,radius\n20,25,30,5\n")

    exact("naive", naive + ["--count", "400", "--world", "220"])
    exact("naive-noise-walls-goal", naive + ["--count", "400", "--noise", "0.8", "--boundary",
                                             "walls", "--goal", "70,20", "--obstacles", obstacles,
                                             "--fov", "270", "--wind", "0.01,0.02"])
    exact("naive-float", naive[:4] + ["--precision", "float", "--steps", "10", "--count", "400",
                                      "--noise", "0.3"])
    exact("naive-vicsek", naive + ["--model", "vicsek", "--count", "400", "--world", "25",
                                   "--noise", "1.5"])
    exact("naive-steering", naive + ["--model", "steering", "--count", "300"])
    # Saved as .npy, each rank writes its own rows into the file: the bytes of one process's.
    exact("naive-npy", naive + ["--count", "700", "--noise", "0.4"], ext="npy")
    exact("naive-box-npy", naive + ["--dimensions", "3", "--count", "500"], ext="npy")
    exact("naive-box", naive + ["--dimensions", "3", "--count", "600", "--noise", "0.5",
                                "--obstacles", spheres])
    # A flock gathered in a fifth of the world: the slabs start, and after 100 steps move, to
    # hold about as many boids each.
    clumped = os.path.join(WORK, "clumped.csv")
    rng = np.random.default_rng(5)
    start = np.column_stack([rng.uniform(0, 100, 300), rng.uniform(0, 20, 300),
                             rng.uniform(-0.7, 0.7, 300), rng.uniform(-0.7, 0.7, 300)])
    np.savetxt(clumped, start, delimiter=",", header="x,y,vx,vy", comments="", fmt="%.17g")
    exact("naive-clumped-balanced", naive[:-1] + ["120", "--init", clumped, "--noise", "0.3"])
    # The same start as .npy files, C and Fortran order: each rank reads its own rows by byte
    # ranges, and a row any rank refuses is refused as one process refuses it.
    for order in ("C", "F"):
        npy = os.path.join(WORK, f"clumped-{order}.npy")
        np.save(npy, np.asarray(start, order=order))
        exact(f"naive-clumped-npy-{order}", naive[:-1] + ["120", "--init", npy, "--noise", "0.3"])
    bad = os.path.join(WORK, "bad-row.npy")
    rows = start.copy()
    rows[len(rows) - 7, 1] = 250.0
    np.save(bad, rows)
    refused_alike("a bad row of a .npy start", ["--init", bad, "--steps", "3"], "row 293")
    # A CSV start is read by every rank, its own lines (from the first line break in its byte
    # range): a file with CRLF line breaks, a line longer than a rank's range and no final line
    # break flies as one process flies it, and a bad line is refused as one process refuses it,
    # by its number in the whole file (a NUL byte anywhere before any bad value).
    text = "x,y,vx,vy\r\n" + "".join(f"{a!r},{b!r},{c!r},{d!r}\r\n" for a, b, c, d in start)
    long_row = "1." + "0" * 3000 + "1,10,0.5,0.5"
    odd = os.path.join(WORK, "odd-lines.csv")
    with open(odd, "w", newline="") as f:
        f.write(text.replace("\r\n", "\r\n" + long_row + "\r\n", 1)[:-2])
    exact("naive-odd-lines-csv", naive[:-1] + ["20", "--init", odd])
    lines = text.split("\r\n")
    bad_value = lines[:250] + ["1,2,nan,0"] + lines[251:]
    nul = lines[:40] + ["1,2,3"] + lines[41:200] + ["1,\0,2,3"] + lines[201:]
    empty_line = lines[:120] + [""] + lines[121:]
    for kind, rows, words in (("bad-value", bad_value, "line 251"), ("nul", nul, "NUL"),
                              ("empty-line", empty_line, "line 121")):
        bad_csv = os.path.join(WORK, f"{kind}.csv")
        with open(bad_csv, "w", newline="") as f:
            f.write("\r\n".join(rows))
        refused_alike(f"a CSV start's {kind}", ["--init", bad_csv, "--steps", "3"], words)
    # The same on the hashed method, whose parts' grids are cut again when the slabs move. Its
    # sums add in another order than one process's, and the two flights part by rounding that
    # grows some tenfold every ten steps (7e-6 and 2e-5 after 120 here); a boid or ghost lost
    # at the balance would part them by whole units.
    close("hashed-clumped-balanced", hashed[:-1] + ["120", "--init", clumped, "--noise", "0.3"],
          [100, 100], tolerance=1e-3, metrics_tolerance=None)
    # A wide world: a rank's slab is held as three parts, the interior stepped while the
    # bands' records are in flight. The flock starts gathered in a fifth of it, which leaves
    # the first slab too narrow for three parts, and the wind carries it on, so that the
    # balance widens that slab into three.
    wide = os.path.join(WORK, "wide-clumped.csv")
    start = np.column_stack([rng.uniform(0, 400, 900), rng.uniform(0, 80, 900),
                             rng.uniform(-0.7, 0.7, 900), rng.uniform(-0.7, 0.7, 900)])
    np.savetxt(wide, start, delimiter=",", header="x,y,vx,vy", comments="", fmt="%.17g")
    exact("naive-wide-clumped-balanced", naive[:-1] + ["120", "--init", wide, "--noise", "0.3",
                                                       "--world", "400", "--wind", "0,0.8"])
    close("hashed-wide", hashed + ["--count", "4000", "--world", "600", "--noise", "0.3"],
          [600, 600])
    # A flock flying along the slabs' axis through a thin background: the balance narrows
    # the slab it flies into from three parts to one (and widens the one it leaves).
    moving = os.path.join(WORK, "moving.csv")
    background = np.column_stack([rng.uniform(0, 400, 300), rng.uniform(0, 400, 300),
                                  rng.uniform(-0.7, 0.7, 300), rng.uniform(-0.7, 0.7, 300)])
    flying = np.column_stack([rng.uniform(0, 400, 600), rng.uniform(220, 280, 600),
                              rng.uniform(-0.1, 0.1, 600), rng.uniform(0.8, 1.0, 600)])
    np.savetxt(moving, np.vstack([background, flying]), delimiter=",", header="x,y,vx,vy",
               comments="", fmt="%.17g")
    exact("naive-moving-flock", naive[:-1] + ["120", "--init", moving, "--world", "400"])
    close("hashed-moving-flock", hashed[:-1] + ["120", "--init", moving, "--world", "400"],
          [400, 400], tolerance=1e-3, metrics_tolerance=None)
    # Boids far apart, whose nearest often lies beyond the ghosts' reach, in another slab.
    exact("naive-sparse", naive + ["--count", "60", "--world", "400"])
    exact("naive-sparse-walls-box", naive + ["--count", "50", "--world", "300", "--dimensions",
                                             "3", "--boundary", "walls"])
    exact("naive-sparse-float", naive[:4] + ["--precision", "float", "--steps", "10", "--count",
                                             "60", "--world", "400", "--max-speed", "0.3"])
    # Metrics every few steps, across a balance of the slabs: each measure brings the ghosts
    # up to date without a step, and the flight goes on as it would have.
    series, saved = {}, {}
    for where, launch in (("one", lambda a: [BOIDS] + a), ("ranks", mpirun)):
        series[where] = os.path.join(WORK, f"series-{where}.csv")
        saved[where] = os.path.join(WORK, f"series-{where}-final.csv")
        run(launch(["run"] + naive[:-1] + ["120", "--init", clumped, "--noise", "0.3",
                                           "--metrics", series[where], "--metrics-every", "7",
                                           "--save", saved[where]]), f"series ({where})")
    a, b = (np.loadtxt(series[w], delimiter=",", skiprows=1, ndmin=2) for w in ("one", "ranks"))
    check(a.shape == b.shape and np.allclose(a, b, rtol=1e-12, atol=0),
          f"the metrics series differ under {RANKS} ranks")
    with open(saved["one"], "rb") as f, open(saved["ranks"], "rb") as g:
        check(f.read() == g.read(), f"measured every 7 steps, the flight differs under {RANKS} ranks")

    close("hashed", hashed + ["--count", "3000", "--world", "500"], [500, 500])
    close("hashed-noise-walls", hashed + ["--count", "2000", "--world", "400,300", "--noise",
                                          "0.5", "--boundary", "walls"], [400, 300])
    close("hashed-box", hashed + ["--dimensions", "3", "--count", "3000", "--world",
                                  "140,150,160", "--noise", "0.3"], [140, 150, 160])

    # boids-bench under mpirun times a flock spread over the ranks.
    bench = os.path.join(os.path.dirname(BOIDS), "boids-bench")
    if os.path.exists(bench):
        table = os.path.join(WORK, "bench.csv")
        run([MPIRUN, "--oversubscribe", "-np", str(RANKS), bench, "--quick", "--counts", "3000",
                      "--backend", "cpu", "--methods", "hashed", "--precisions", "float",
                      "--states", "random", "--repeats", "1", "--min-time", "0.01", "--csv",
                      table], "boids-bench")
        with open(table, newline="") as f:
            rows = list(csv.DictReader(f))
        check(len(rows) == 1 and float(rows[0]["boid_steps_per_second"]) > 0,
              f"boids-bench over {RANKS} ranks: {rows}")
        check(RANKS == 1 or f"{RANKS} MPI ranks" in rows[0]["device"],
              f"boids-bench over {RANKS} ranks names them: {rows}")
        if RANKS > 1:  # the ranks follow one flock at a time: two variants are refused
            done = subprocess.run(
                [MPIRUN, "--oversubscribe", "-np", str(RANKS), bench, "--quick", "--counts", "2000",
                 "--backend", "cpu", "--methods", "hashed", "--precisions", "float", "--states",
                 "random", "--variants", "seed,noise", "--repeats", "1", "--min-time", "0.01"],
                env=ENV, capture_output=True, text=True, timeout=TIMEOUT)
            check(done.returncode != 0 and "one flock at a time" in done.stderr,
                  f"boids-bench, two variants over {RANKS} ranks: {done.stderr[-300:]!r}")

    # A trajectory under mpirun: each rank compresses its own boids' chunks and rank 0 writes
    # them, the frames one process's (2D, 3D, a flat flock in a 3D box; a flock of two chunks,
    # whose second is short and whose stripes leave a rank without one).
    same_trajectory("naive-trajectory", naive[:-1] + ["4", "--count", "500", "--noise", "0.4",
                                                      "--trajectory-every", "2"])
    same_trajectory("naive-trajectory-box", naive[:-1] + ["4", "--count", "400", "--dimensions",
                                                          "3", "--trajectory-every", "3"])
    same_trajectory("naive-trajectory-flat-in-box", naive[:-1] + ["2", "--count", "300",
                                                                  "--trajectory-layout", "3d"])
    same_trajectory("hashed-trajectory-two-chunks", hashed[:-1] + ["2", "--count", "70000",
                                                                   "--world", "1000"],
                    tolerance=1e-9)

    # A checkpoint written over the ranks continues in one process as the whole flight.
    checkpoint = os.path.join(WORK, "flight.ckpt")
    start = naive[:-2] + ["--count", "300", "--noise", "0.4"]
    run(mpirun(["run"] + start + ["--steps", "6", "--checkpoint", checkpoint]), "checkpoint")
    # Each rank writes its own boids' part of it (MPI-IO), rank 0 the checksum: on the naive
    # method, whose order is the input order, the bytes of one process's checkpoint.
    alone = os.path.join(WORK, "alone.ckpt")
    run([BOIDS, "run"] + start + ["--steps", "6", "--checkpoint", alone], "checkpoint alone")
    with open(checkpoint, "rb") as a, open(alone, "rb") as b:
        check(a.read() == b.read(), f"a checkpoint written by {RANKS} ranks differs from one "
                                    "process's")
    resumed = os.path.join(WORK, "resumed.csv")
    whole = os.path.join(WORK, "whole.csv")
    run([BOIDS, "run", "--resume", checkpoint, "--steps", "12", "--save", resumed], "resume")
    run([BOIDS, "run"] + start + ["--steps", "12", "--save", whole], "whole")
    with open(resumed, "rb") as a, open(whole, "rb") as b:
        check(a.read() == b.read(), "a checkpoint written over the ranks resumes off the flight")

    # A one-process checkpoint continues under mpirun, each rank reading its own boids by byte
    # ranges: the whole flight again, and a checkpoint of it the bytes of one process's.
    resumed = os.path.join(WORK, "resumed-over-ranks.csv")
    again = os.path.join(WORK, "again.ckpt")
    run(mpirun(["run", "--resume", alone, "--steps", "12", "--save", resumed, "--checkpoint",
                again]), "resume over the ranks")
    with open(resumed, "rb") as a, open(whole, "rb") as b:
        check(a.read() == b.read(), f"a checkpoint resumed over {RANKS} ranks leaves the flight")
    again_alone = os.path.join(WORK, "again-alone.ckpt")
    run([BOIDS, "run", "--resume", alone, "--steps", "12", "--checkpoint", again_alone],
        "resume alone")
    with open(again, "rb") as a, open(again_alone, "rb") as b:
        check(a.read() == b.read(), f"resumed over {RANKS} ranks, a checkpoint differs")
    # A damaged checkpoint, and one whose boid was moved out of the world and summed again, are
    # refused under mpirun as one process refuses them.
    with open(alone, "rb") as f:
        data = bytearray(f.read())
    columns_at = 16 + int.from_bytes(data[12:16], "little")
    boid = 300 - 9
    at = columns_at + (300 + boid) * 8  # its y
    damaged = os.path.join(WORK, "damaged.ckpt")
    data[at + 3] ^= 0x10
    with open(damaged, "wb") as f:
        f.write(data)
    moved = os.path.join(WORK, "moved.ckpt")
    data[at:at + 8] = np.float64(250.0).tobytes()
    data[-8:] = checksum(bytes(data[:-8])).to_bytes(8, "little")
    with open(moved, "wb") as f:
        f.write(data)
    for name, file, words in (("damaged", damaged, "checksum"), ("moved", moved, f"boid {boid}")):
        refused_alike(f"a {name} checkpoint", ["--resume", file, "--steps", "12"], words)

    # Bad input: a clear error and a nonzero exit, not a hang.
    done = subprocess.run(mpirun(["run", "--backend", "reference", "--steps", "2"]), env=ENV,
                          capture_output=True, text=True, timeout=TIMEOUT)
    if RANKS > 1:
        check(done.returncode != 0 and "mpirun" in done.stderr,
              f"the reference under {RANKS} ranks: exit {done.returncode}, {done.stderr!r}")
    done = subprocess.run(mpirun(["run", "--backend", "cpu", "--nearest", "7", "--steps", "2"]),
                          env=ENV, capture_output=True, text=True, timeout=TIMEOUT)
    if RANKS > 1:
        check(done.returncode != 0 and "--nearest" in done.stderr and "one process" in done.stderr,
              f"--nearest under {RANKS} ranks: exit {done.returncode}, {done.stderr!r}")
    done = subprocess.run(mpirun(["run", "--backend", "cpu", "--predators", "2", "--steps", "2"]),
                          env=ENV, capture_output=True, text=True, timeout=TIMEOUT)
    if RANKS > 1:
        check(done.returncode != 0 and "--predators" in done.stderr
              and "one process" in done.stderr,
              f"--predators under {RANKS} ranks: exit {done.returncode}, {done.stderr!r}")
    done = subprocess.run(mpirun(["run", "--count", "0"]), env=ENV, capture_output=True,
                          text=True, timeout=TIMEOUT)
    check(done.returncode != 0 and "--count" in done.stderr, f"--count 0: {done.stderr!r}")

    if RANKS > 1:
        killed_rank_ends_the_run()
        killed_rank_mid_write()

    if failures:
        raise SystemExit(f"{len(failures)} checks failed under {RANKS} ranks")
    print(f"every check passed under {RANKS} ranks")


main()
