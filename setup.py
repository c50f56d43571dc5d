"""Builds the Python package with the project's CMake, for `pip install .` (pyproject.toml).

The backend is setuptools; this file only tells it that the package's core is CMake's target
`boids_python` and that the `boids` command travels inside it (boids/bin/boids, with the plot
and conversion scripts beside it, where the command looks for them). Options, from the
environment:

    BOIDS_BACKEND=auto|cuda|cpu   auto (default): the CUDA backend when nvcc and a usable GPU
                                  are found, else the cpu backend alone
    BOIDS_BUILD_DIR=DIR           a CMake build tree to build in (reused as it is configured),
                                  else build-python/ beside this file
"""

import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(SOURCE, "build-wheel"), exist_ok=True)  # setuptools' own files


def project_version():
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        return re.search(r"project\(boids VERSION (\d+\.\d+\.\d+)", f.read()).group(1)


def cuda_wanted():
    backend = os.environ.get("BOIDS_BACKEND", "auto")
    if backend not in ("auto", "cuda", "cpu"):
        sys.exit(f"BOIDS_BACKEND: expected auto, cuda or cpu, got {backend!r}")
    if backend != "auto":
        return backend == "cuda"
    gpu = shutil.which("nvidia-smi") and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True, text=True).stdout.startswith("GPU")
    return bool(shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")) and bool(gpu)


def progress_stream():
    """Where the build's progress goes: the terminal itself, which pip does not capture (it
    shows a build's output only with -v), else standard error."""
    try:
        return open("/dev/tty", "w")
    except OSError:
        return sys.stderr


def build_with_progress(command):
    """Runs the build, passing its output on to standard error (pip -v shows it) and saying on
    the terminal how far it is, a line at each tenth of its steps: a first build compiles the
    engine's kernels for a few minutes to half an hour on two cores. Fails as the build does,
    with its last lines."""
    out = progress_stream()
    said, tail = -1, []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace") as build:
        for line in build.stdout:
            sys.stderr.write(line)
            tail = (tail + [line])[-40:]
            step = re.match(r"\[(\d+)/(\d+)\]", line)  # Ninja's; Make's is [ NN%]
            percent = re.match(r"\[\s*(\d+)%\]", line)
            share = (int(step.group(1)) / int(step.group(2)) if step else
                     int(percent.group(1)) / 100 if percent else None)
            if share is not None and int(share * 10) > said:
                said = int(share * 10)
                out.write(f"boids: building the package: {int(share * 100)}%\n")
                out.flush()
    if out is not sys.stderr:
        out.close()
    if build.returncode != 0:
        sys.exit("boids: the build failed:\n" + "".join(tail))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        tree = os.environ.get("BOIDS_BUILD_DIR") or os.path.join(SOURCE, "build-python")
        # ccache, where it is installed, as scripts/build uses it: a second install, or one
        # beside a build of the project, takes the objects already compiled.
        launchers = []
        if shutil.which("ccache"):
            launchers = [f"-DCMAKE_{lang}_COMPILER_LAUNCHER=ccache"
                         for lang in ("C", "CXX", "CUDA")]
            os.environ.setdefault("CCACHE_BASEDIR", SOURCE)
            os.environ.setdefault("CCACHE_NOHASHDIR", "1")
        if not os.path.exists(os.path.join(tree, "CMakeCache.txt")):
            cuda = "ON" if cuda_wanted() else "OFF"
            subprocess.run(["cmake", "-S", SOURCE, "-B", tree, "-DCMAKE_BUILD_TYPE=Release",
                            *launchers, "-DBOIDS_BUILD_PYTHON=ON", "-DBOIDS_BUILD_TESTS=OFF",
                            "-DBOIDS_BUILD_BENCH=OFF", "-DBOIDS_BUILD_VIEWER=OFF",
                            "-DBOIDS_BUILD_SERVE=ON", "-DBOIDS_ENABLE_MPI=OFF",
                            f"-DBOIDS_ENABLE_CUDA={cuda}", f"-DBOIDS_PYTHON={sys.executable}"],
                           check=True)
        build_with_progress(["cmake", "--build", tree, "--target", "boids_python", "boids",
                             "--parallel", str(os.cpu_count() or 2)])
        package = os.path.join(os.path.abspath(self.build_lib), "boids")
        os.makedirs(os.path.join(package, "bin"), exist_ok=True)
        built = os.path.join(tree, "python", "boids")
        for name in os.listdir(built):
            if name.startswith("_boids") or name.endswith(".pyi"):
                shutil.copy2(os.path.join(built, name), package)
        shutil.copy2(os.path.join(tree, "bin", "boids"), os.path.join(package, "bin"))
        scripts = os.path.join(SOURCE, "host", "cli")  # the plots' and GSD's, run by the command
        for script in os.listdir(scripts):
            if script.endswith(".py"):
                shutil.copy2(os.path.join(scripts, script), os.path.join(package, "bin"))


setup(
    version=project_version(),
    packages=["boids", "boids.analysis"],
    package_dir={"": "python"},
    package_data={"boids": ["py.typed"]},
    ext_modules=[Extension("boids._boids", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-wheel"}, "egg_info": {"egg_base": "build-wheel"}},
    zip_safe=False,
)
