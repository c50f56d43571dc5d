# `cmake --install BUILD --prefix P`: the library as a CMake package, the executables and the
# scripts they run. A consumer says find_package(boids 0.1) and links boids::boids.
#   P/include/boids/host/*.h, P/include/boids/kernels/...   included as "host/core/simulation.h",
#                                                           as in the source tree
#   P/lib/libboids.a
#   P/lib/cmake/boids/boidsConfig.cmake (+ Version, Targets) the package
#   P/bin/boids, boids-bench, boids-viewer (those built)
#   P/share/boids/*.py                                      the plot scripts (--plot)
include(CMakePackageConfigHelpers)

set(boids_install_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/boids)

# The headers of the public API, by folder: host/boids.h and the library's folders, each
# without its detail/ (io/detail: HDF5's helpers, whose headers the package does not give its
# users; reference/detail: the reference's insides). backends/, parts/, mpi/, tools/ and cli/
# are the engine's insides and the tools'; no installed header includes them (tests/package/check.cmake).
set(boids_public_folders base model metrics core io validation reference config)
install(FILES ${PROJECT_SOURCE_DIR}/host/boids.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/boids/host)
foreach(folder IN LISTS boids_public_folders)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/host/${folder}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/boids/host/${folder}
          FILES_MATCHING PATTERN "*.h" PATTERN "detail" EXCLUDE)
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/boids/kernels
        FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh")

# A sanitizer build's library calls the sanitizers' runtimes: its users must link them.
if(BOIDS_SANITIZE)
  target_link_options(boids_core INTERFACE $<INSTALL_INTERFACE:-fsanitize=address>
                                            $<INSTALL_INTERFACE:-fsanitize=undefined>)
endif()

install(TARGETS boids_core boids_kernels EXPORT boidsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/boids)
install(EXPORT boidsTargets NAMESPACE boids:: DESTINATION ${boids_install_cmakedir})

# The CUDA code links the static runtime of a toolkit of the major version that compiled it.
set(boids_cuda_major "")
if(BOIDS_HAVE_CUDA)
  set(boids_cuda_major ${CUDAToolkit_VERSION_MAJOR})
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/boidsConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/boidsConfig.cmake
                              INSTALL_DESTINATION ${boids_install_cmakedir})
# 0.x: every minor version may change the API, so 0.1.y satisfies find_package(boids 0.1) and
# 0.2 does not (SameMajorVersion would accept any 0.x). From 1.0, SameMajorVersion.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/boidsConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/boidsConfig.cmake ${PROJECT_BINARY_DIR}/boidsConfigVersion.cmake
        DESTINATION ${boids_install_cmakedir})

# The executables, and the scripts they look for in ../share/boids (host/tools/python_script.cpp).
install(TARGETS boids RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/host/cli/plot_metrics.py ${PROJECT_SOURCE_DIR}/host/cli/plot_sweep.py
              ${PROJECT_SOURCE_DIR}/host/cli/convert_gsd.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/boids)
if(TARGET boids-bench)
  install(TARGETS boids-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/bench/plot.py DESTINATION ${CMAKE_INSTALL_DATADIR}/boids)
endif()
if(TARGET boids-viewer)
  install(TARGETS boids-viewer RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
