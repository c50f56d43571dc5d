# The switches a user may set on the command line (-DNAME=ON|OFF).
option(BOIDS_ENABLE_CUDA "Build the CUDA backend when a CUDA compiler is found" ON)
option(BOIDS_BUILD_TESTS "Build the GoogleTest suites" ON)
option(BOIDS_BUILD_BENCH "Build boids-bench" ON)
option(BOIDS_BUILD_PYTHON "Build the Python module (needs pybind11-dev and python3-dev)" ON)
option(BOIDS_BUILD_SERVE "Build `boids serve`, the browser viewer (needs libboost-dev)" ON)
option(BOIDS_BUILD_VIEWER "Build boids-viewer (needs GLFW, glad, Dear ImGui)" ON)
option(BOIDS_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(BOIDS_ENABLE_MPI "Distribute boids run over MPI ranks when CMake finds MPI (host/mpi)" ON)
