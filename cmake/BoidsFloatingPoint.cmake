# The reference must agree with the published double-precision algorithm bit for bit, and
# the naive double kernels must agree with the reference. That needs every addition and
# multiplication rounded on its own, in source order, everywhere in the project:
#   -ffp-contract=off  no fusing of a*b+c into one multiply-add (GCC fuses by default as soon
#                      as the target has FMA, which x86-64-v3 has);
#   -fno-fast-math     no value-changing optimisation, ever;
#   -fno-trapping-math lets the compiler evaluate both sides of a select (which vectorises the
#                      rules); it changes no value, only which exceptions could be observed.
# x86-64 arithmetic is SSE/AVX, never x87 extended precision. CMake's Release flags
# (-O3 -DNDEBUG) change none of this.
add_compile_options($<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-ffp-contract=off>
                    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-fno-fast-math>
                    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-fno-trapping-math>)

# CPU instruction set. The kernels vectorise across boids, so wider vectors pay directly:
# x86-64-v3 (AVX2, every x86 server since about 2013) is the default; use
# -DBOIDS_CPU_ARCH=native for this machine's widest (e.g. AVX-512), or x86-64 for the oldest.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(BOIDS_CPU_ARCH "x86-64-v3" CACHE STRING "-march for host code (x86-64, x86-64-v3, native, ...)")
  if(BOIDS_CPU_ARCH)
    add_compile_options($<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-march=${BOIDS_CPU_ARCH}>)
  endif()
endif()
