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
