"""`pip install .` into a fresh virtual environment, offline, with Debian's setuptools and
wheel (--no-build-isolation), its core built in the build tree the suite was built in: then
`import boids` and the `boids` command from the environment, away from the source and the
build tree, and the Python suites that fly flocks run against the installed package. And
`pip wheel .`: a wheel whose metadata names the licence, the version and the dependencies.

Usage: pip_install_check.py SOURCE_DIR BUILD_DIR WORK_DIR
"""

import os
import shutil
import subprocess
import sys

SOURCE, BUILD, WORK = (os.path.abspath(a) for a in sys.argv[1:4])


def run(command, **kwargs):
    print("+", " ".join(command), flush=True)
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-4000:])
        sys.exit(f"FAIL: {' '.join(command)} exited {done.returncode}")
    return done


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    venv = os.path.join(WORK, "venv")
    # Debian's NumPy, h5py and pytest, seen from the environment; boids itself is installed.
    run([sys.executable, "-m", "venv", "--system-site-packages", venv])
    python, command = os.path.join(venv, "bin", "python"), os.path.join(venv, "bin", "boids")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["BOIDS_BUILD_DIR"] = BUILD
    run([python, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
         "--no-cache-dir", SOURCE], env=env, cwd=WORK)
    env.pop("BOIDS_BUILD_DIR")
    where = run([python, "-c", "import boids; print(boids.__file__); print(boids.__version__)"],
                env=env, cwd=WORK).stdout.split()
    if not where[0].startswith(venv):
        sys.exit(f"FAIL: import boids found {where[0]}, not the installed package")
    said = run([command, "--version"], env=env, cwd=WORK).stdout.split()
    if said[:2] != ["boids", where[1]]:
        sys.exit(f"FAIL: boids --version said {said}, the package {where[1]}")
    run([command, "run", "--count", "50", "--steps", "5", "--save", "end.csv"], env=env, cwd=WORK)
    env["BOIDS_EXECUTABLE"] = command
    env["BOIDS_SOURCE_DIR"] = SOURCE
    tests = os.path.join(SOURCE, "tests", "python")
    run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         os.path.join(tests, "test_flock.py"), os.path.join(tests, "test_trajectories.py")],
        env=env, cwd=WORK)
    env["BOIDS_BUILD_DIR"] = BUILD
    wheels = os.path.join(WORK, "wheels")
    run([python, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
         "--no-cache-dir", "-w", wheels, SOURCE], env=env, cwd=WORK)
    import zipfile
    [wheel] = [os.path.join(wheels, w) for w in os.listdir(wheels) if w.endswith(".whl")]
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    for line in (f"Version: {where[1]}", "License: BSD-3-Clause", "Requires-Dist: numpy",
                 "Requires-Dist: h5py ; extra == 'trajectories'"):
        if line not in metadata.splitlines():
            sys.exit(f"FAIL: the wheel's metadata lacks {line!r}:\n{metadata}")
    for member in ("boids/bin/boids", "boids/__init__.pyi", "boids/trajectory.py"):
        if member not in names:
            sys.exit(f"FAIL: the wheel lacks {member}")
    print("the installed package imports, its command runs, its suites pass, and its wheel "
          "names its licence, version and dependencies")


if __name__ == "__main__":
    main()
