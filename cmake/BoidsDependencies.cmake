# Third-party dependencies, all from Debian packages (scripts/install-deps).
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
# Trajectories (libhdf5-dev); FindHDF5 checks its C component with the C compiler.
enable_language(C)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(ZLIB REQUIRED)  # trajectory chunks compressed on every thread
if(BOIDS_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(BOIDS_BUILD_SERVE)
  # Boost.Beast and Boost.Asio, header-only (libboost-dev).
  find_package(Boost 1.74 CONFIG COMPONENTS headers)
  if(NOT Boost_FOUND)
    message(FATAL_ERROR "boids: `boids serve` needs Boost.Beast (Debian's libboost-dev, installed "
                        "by scripts/install-deps); -DBOIDS_BUILD_SERVE=OFF builds without it")
  endif()
endif()

# Debian's Python (not a pyenv or virtualenv one first on PATH): it draws the plots with
# python3-matplotlib, runs the Python tests and loads the Python module.
set(BOIDS_PYTHON "/usr/bin/python3" CACHE FILEPATH
    "Python with matplotlib (Debian's python3-matplotlib) that draws the plots")
if(BOIDS_BUILD_PYTHON)
  # pybind11 (pybind11-dev) finds the Python it builds for through FindPython, told which.
  set(Python_EXECUTABLE ${BOIDS_PYTHON} CACHE FILEPATH "Python the module is built for")
  set(PYBIND11_FINDPYTHON ON)
  find_package(Python 3.8 REQUIRED COMPONENTS Interpreter Development.Module)
  find_package(pybind11 2.6 CONFIG)
  if(NOT pybind11_FOUND)
    message(FATAL_ERROR "boids: the Python module needs pybind11 (Debian's pybind11-dev, "
                        "installed by scripts/install-deps); -DBOIDS_BUILD_PYTHON=OFF builds "
                        "without it")
  endif()
endif()
