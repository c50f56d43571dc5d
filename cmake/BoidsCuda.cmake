# CUDA: detected, never required. BOIDS_HAVE_CUDA tells the rest of the build.
#
# Architectures, unless -DCMAKE_CUDA_ARCHITECTURES=... says: "native", the GPU this machine
# has, when nvidia-smi lists one; else "80-virtual", compute_80 PTX alone, which any GPU from
# the A100 on compiles when it loads it. A machine without a GPU only checks that the backend
# compiles and links, and machine code would double the cost for nothing: each unit spends
# about as long in ptxas, per architecture, as in cicc. A build that travels names its list:
# -DCMAKE_CUDA_ARCHITECTURES="80-real;90" for A100s and H100s, 90 for the H200 of
# scripts/gpu-check.
set(BOIDS_HAVE_CUDA OFF)
# A machine without a GPU builds the backend only to check that it compiles and links: at -O3
# cicc spends 100 s or more on each flock unit (it inlines and unrolls every variant of every
# kernel), at -O1 about a tenth of that. scripts/test turns this on where nvidia-smi lists no
# GPU. The code still runs, slower; `boids info` says so, and boids-bench will not time it.
option(BOIDS_CUDA_CHECK_ONLY "Compile CUDA device code at -O1, to check it, not to fly it" OFF)
if(BOIDS_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(boids_cuda_architectures 80-virtual)
      execute_process(COMMAND nvidia-smi -L OUTPUT_VARIABLE boids_gpus RESULT_VARIABLE boids_smi
                      ERROR_QUIET)
      if(boids_smi EQUAL 0 AND boids_gpus MATCHES "^GPU")
        set(boids_cuda_architectures native)
      endif()
      set(CMAKE_CUDA_ARCHITECTURES ${boids_cuda_architectures} CACHE STRING "CUDA architectures")
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(BOIDS_HAVE_CUDA ON)
    message(STATUS "boids: CUDA backend on (architectures ${CMAKE_CUDA_ARCHITECTURES})")
    if(BOIDS_CUDA_CHECK_ONLY)
      message(STATUS "boids: CUDA device code compiled to be checked, not flown: cicc at -O1 "
                     "(BOIDS_CUDA_CHECK_ONLY; boids-bench refuses to time it)")
    endif()
  else()
    message(STATUS "boids: no CUDA compiler found, CUDA backend off")
  endif()
else()
  message(STATUS "boids: CUDA backend off (BOIDS_ENABLE_CUDA=OFF)")
endif()

# Per-precision CUDA code generation for the flocks' units. No flock kernel fuses a multiply
# and an add: nvcc fuses where it sees fit, differently in each kernel a rule is inlined into,
# so that with fusing a batch's flock, a flock in a plane of a box and a part's measure each
# round otherwise than the flock alone, the 2D step and the whole flock (seen on an H200).
# Unfused, every operation rounds on its own, in every kernel alike, and naive double on a GPU
# matches the reference bit for bit. (bench/gpu_limits.cu calls fma itself, to measure the peak.)
# Float kernels divide and take square roots the fast way: they are validated to 1e-4.
# The device optimisation BOIDS_CUDA_CHECK_ONLY asks for, on the target's CUDA units.
function(boids_cuda_device_optimisation target)
  if(BOIDS_CUDA_CHECK_ONLY)
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcicc -O1>")
    target_compile_definitions(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:BOIDS_CUDA_CHECK_ONLY=1>)
  endif()
endfunction()
function(boids_cuda_exact_double)
  set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS "--fmad=false")
endfunction()
function(boids_cuda_fast_float)
  set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS "--fmad=false;--prec-div=false;--prec-sqrt=false")
endfunction()
