# CUDA: detected, never required. BOIDS_HAVE_CUDA tells the rest of the build.
#
# Default architectures: sm_80 (A100) and sm_90 (H100/H200) machine code, plus compute_90
# PTX that newer GPUs compile at load time. Never "native": the build machine may have no GPU.
# Override with -DCMAKE_CUDA_ARCHITECTURES=...
set(BOIDS_HAVE_CUDA OFF)
if(BOIDS_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "80-real;90" CACHE STRING "CUDA architectures")
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(BOIDS_HAVE_CUDA ON)
    message(STATUS "boids: CUDA backend on (architectures ${CMAKE_CUDA_ARCHITECTURES})")
  else()
    message(STATUS "boids: no CUDA compiler found, CUDA backend off")
  endif()
else()
  message(STATUS "boids: CUDA backend off (BOIDS_ENABLE_CUDA=OFF)")
endif()

# Per-precision CUDA code generation. Double kernels round every operation on its own
# (no fused multiply-add), so that naive double on a GPU matches the reference bit for bit.
# Float kernels use fused multiply-add and fast division: they are validated to 1e-4.
function(boids_cuda_exact_double source)
  set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "--fmad=false")
endfunction()
function(boids_cuda_fast_float source)
  set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "--fmad=true;--prec-div=false;--prec-sqrt=false")
endfunction()
