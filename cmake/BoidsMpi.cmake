# MPI (Debian's libopenmpi-dev): `boids run` under mpirun spreads the flock over its ranks
# (host/mpi). Without MPI, or with -DBOIDS_ENABLE_MPI=OFF, boids runs in one process as ever.
set(BOIDS_WITH_MPI OFF)
if(BOIDS_ENABLE_MPI)
  find_package(MPI COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(BOIDS_WITH_MPI ON)
    find_program(BOIDS_MPIEXEC NAMES mpirun mpiexec HINTS ${MPIEXEC_EXECUTABLE})
    message(STATUS "boids: MPI ${MPI_CXX_VERSION} (${BOIDS_MPIEXEC}): boids run under mpirun")
  else()
    message(STATUS "boids: no MPI found: boids runs in one process (libopenmpi-dev adds MPI)")
  endif()
endif()
