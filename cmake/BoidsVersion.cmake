# One version: the project's (CMakeLists.txt), with the commit of the checkout it was built
# from, both read through host/base/version.h by every tool and output. The commit is read at
# build time (cmake/write_version_info.cmake), so a build after a commit names it; the file it
# writes changes only when the commit does.
set(BOIDS_VERSION_SOURCE ${PROJECT_BINARY_DIR}/generated/version_info.cpp)
add_custom_target(boids_version_info
  COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR} -DOUTPUT=${BOIDS_VERSION_SOURCE}
          -DVERSION=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/write_version_info.cmake
  BYPRODUCTS ${BOIDS_VERSION_SOURCE}
  VERBATIM)
