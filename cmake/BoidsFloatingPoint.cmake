# The reference must agree with the published double-precision algorithm bit for bit, and
# the naive double kernels must agree with the reference. That needs every addition and
# multiplication rounded on its own, in source order, everywhere in the project:
#   -ffp-contract=off  no fusing of a*b+c into one multiply-add (GCC fuses by default as soon
#                      as the target has FMA, which x86-64-v3 has);
#   -fno-fast-math     no value-changing optimisation, ever;
#   -fno-trapping-math lets the compiler evaluate both sides of a select (which vectorises the
#                      rules); it changes no value, only which exceptions could be observed;
#   -fno-math-errno    sqrt is one instruction, which vectorises, not a call that may set
#                      errno for a negative argument; nothing here reads errno.
# x86-64 arithmetic is SSE/AVX, never x87 extended precision. CMake's Release flags
# (-O3 -DNDEBUG) change none of this.
add_compile_options($<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-ffp-contract=off>
                    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-fno-fast-math>
                    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-fno-trapping-math>
                    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-fno-math-errno>)

# CPU instruction set. The kernels vectorise across boids, so wider vectors pay directly:
# AVX2 steps the naive flock about 3.5 times as fast as SSE2, and AVX-512 the hashed flock
# about 1.5 times as fast as AVX2.
#   BOIDS_CPU_ARCH         all host code; default x86-64-v3 (AVX2, every x86 server since
#                          about 2013); x86-64 runs anywhere.
#   BOIDS_CPU_KERNEL_ARCH  the cpu backend's kernels alone; default native, the build
#                          machine's widest vectors. A build for other machines sets it too.
# GCC 12's superword (SLP) vectoriser miscompiles some AVX-512 code (seen here: a vector built
# from a one-element initializer list came out wrong under -march=x86-64-v4), so the kernels'
# file is built with loop vectorisation only, which is what its lane loops use, and the rest of
# the project stays at AVX2. The engine tests compare those kernels with the reference.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(BOIDS_CPU_ARCH "x86-64-v3" CACHE STRING "-march for host code (x86-64-v3, x86-64, native, ...)")
  set(BOIDS_CPU_KERNEL_ARCH "native" CACHE STRING "-march for the cpu backend's kernels")
  if(BOIDS_CPU_ARCH)
    add_compile_options($<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-march=${BOIDS_CPU_ARCH}>)
  endif()
endif()

# Compiles the sources given (files that instantiate the kernels for CPU threads) for the
# kernels' instruction set.
function(boids_cpu_kernel_source)
  if(BOIDS_CPU_KERNEL_ARCH AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS
                                "-march=${BOIDS_CPU_KERNEL_ARCH};-fno-tree-slp-vectorize")
  endif()
endfunction()
