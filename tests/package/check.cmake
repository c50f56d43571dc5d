# The installed package, as a user meets it (CTest's package_consumer):
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX_COMPILER=... -DC_COMPILER=...
#         [-DCONFIG=Release] [-DGENERATOR=Ninja] [-DLIBDIR=lib64]
#         [-DPYTHON=/usr/bin/python3 -DPYTHON_DIR=lib/python3.11/dist-packages]
#         -P tests/package/check.cmake
# installs BUILD_DIR into WORK_DIR/prefix (made afresh), checks the tree, builds and runs the
# consumer project beside this script against it, and runs the installed executables. Any
# failure stops it with a message.
cmake_minimum_required(VERSION 3.25)

foreach(variable BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER C_COMPILER)
  if(NOT ${variable})
    message(FATAL_ERROR "check.cmake: -D${variable}=... is missing")
  endif()
endforeach()
if(NOT LIBDIR)
  set(LIBDIR lib)  # GNUInstallDirs' CMAKE_INSTALL_LIBDIR
endif()
set(prefix ${WORK_DIR}/prefix)
set(consumer ${WORK_DIR}/consumer)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# Runs a command; stops with its output unless it exits 0. The output is left in `out`.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "package: ${what} failed (${status}):\n${ARGN}\n${output}")
  endif()
  message(STATUS "package: ${what}: ok")
  set(out "${output}" PARENT_SCOPE)
endfunction()

function(require_file path)
  if(NOT EXISTS ${prefix}/${path})
    message(FATAL_ERROR "package: the installed tree has no ${path}")
  endif()
endfunction()

# Install.
set(config_option)
if(CONFIG)
  set(config_option --config ${CONFIG})
endif()
set(generator_option)
if(GENERATOR)
  set(generator_option -G ${GENERATOR})
endif()
run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
         ${config_option})

# The tree: headers under include/boids only, the library, the package, the executable and
# its script.
foreach(path include/boids/host/boids.h include/boids/host/core/simulation.h
             include/boids/kernels/rules.h ${LIBDIR}/libboids.a
             ${LIBDIR}/cmake/boids/boidsConfig.cmake ${LIBDIR}/cmake/boids/boidsConfigVersion.cmake
             ${LIBDIR}/cmake/boids/boidsTargets.cmake bin/boids share/boids/plot_metrics.py)
  require_file(${path})
endforeach()
file(GLOB top RELATIVE ${prefix}/include ${prefix}/include/*)
if(NOT top STREQUAL "boids")
  message(FATAL_ERROR "package: include/ holds ${top}; everything belongs under include/boids")
endif()
file(GLOB_RECURSE sources ${prefix}/*.cpp ${prefix}/*.cu)
if(sources)
  message(FATAL_ERROR "package: sources were installed: ${sources}")
endif()

# Every header an installed header includes is installed too.
file(GLOB_RECURSE headers ${prefix}/include/boids/*.h ${prefix}/include/boids/*.cuh)
foreach(header IN LISTS headers)
  file(STRINGS ${header} includes REGEX "^#include \"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
    if(NOT EXISTS ${prefix}/include/boids/${included})
      message(FATAL_ERROR "package: ${header} includes ${included}, which is not installed")
    endif()
  endforeach()
endforeach()

# The package names no path of the source or build tree: it works wherever the prefix goes.
file(GLOB package_files ${prefix}/${LIBDIR}/cmake/boids/*.cmake)
foreach(file IN LISTS package_files)
  file(READ ${file} text)
  foreach(tree ${SOURCE_DIR} ${BUILD_DIR})
    string(FIND "${text}" "${tree}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "package: ${file} names ${tree}")
    endif()
  endforeach()
endforeach()

# The consumer: configured against this prefix alone, with the build's compilers.
run_step("configure the consumer"
         ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR} -B ${consumer} ${generator_option}
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
         -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_BUILD_TYPE=${CONFIG}
         -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS ${consumer}/CMakeCache.txt found REGEX "^boids_DIR:")
if(NOT found STREQUAL "boids_DIR:PATH=${prefix}/${LIBDIR}/cmake/boids")
  message(FATAL_ERROR "package: the consumer found another boids: ${found}")
endif()
run_step("build the consumer" ${CMAKE_COMMAND} --build ${consumer} ${config_option})
find_program(app NAMES app PATHS ${consumer} ${consumer}/${CONFIG} NO_DEFAULT_PATH NO_CACHE)
run_step("run the consumer" ${app})
message(STATUS "${out}")
if(NOT out MATCHES "boids consumer: 120 boids, 100 steps on CPU"
   OR NOT out MATCHES "naive double equals the reference bit for bit")
  message(FATAL_ERROR "package: unexpected output of the consumer:\n${out}")
endif()

# The installed executables run from the prefix.
run_step("boids --help" ${prefix}/bin/boids --help)
if(NOT out MATCHES "Usage: boids <command>")
  message(FATAL_ERROR "package: unexpected output of boids --help:\n${out}")
endif()

# The Python package, where the install put it for the Python it was built for. (No `;` in
# the code: run_step's arguments are a CMake list.)
if(PYTHON)
  run_step("import boids" ${CMAKE_COMMAND} -E env PYTHONPATH=${prefix}/${PYTHON_DIR}
           PYTHONDONTWRITEBYTECODE=1 ${PYTHON} -c
           "import boids\nf = boids.Flock(count=50, backend='cpu')\nf.step(10)\nassert \
f.state.shape == (50, 4) and f.steps_taken == 10\nprint(boids.__file__)")
  if(NOT out MATCHES "^${prefix}/${PYTHON_DIR}/boids/__init__.py")
    message(FATAL_ERROR "package: boids was imported from elsewhere: ${out}")
  endif()
endif()

# --plot runs the scripts installed in share/boids, not the source tree's. A stand-in that
# names itself and fails shows which one ran, matplotlib or not (last: it spoils the prefix).
file(GLOB scripts ${prefix}/share/boids/*.py)
foreach(script IN LISTS scripts)
  file(WRITE ${script} "import sys\nprint('installed script', sys.argv[1:])\nsys.exit(3)\n")
endforeach()
function(check_installed_script name)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT output MATCHES "installed script \\['--check'\\]")
    message(FATAL_ERROR "package: ${name} --plot did not run share/boids's script:\n${output}")
  endif()
  message(STATUS "package: ${name} --plot runs share/boids's script: ok")
endfunction()
check_installed_script("boids run" ${prefix}/bin/boids run --steps 1 --plot ${WORK_DIR}/run.png)
if(EXISTS ${prefix}/bin/boids-bench)
  require_file(share/boids/plot.py)
  check_installed_script("boids-bench" ${prefix}/bin/boids-bench --quick --backend cpu --plot
                         ${WORK_DIR}/bench.png)
endif()
