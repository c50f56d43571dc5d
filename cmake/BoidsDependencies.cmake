# Third-party dependencies, all from Debian packages (scripts/install-deps).
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
if(BOIDS_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
