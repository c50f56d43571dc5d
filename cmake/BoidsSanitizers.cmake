# -DBOIDS_SANITIZE=ON: AddressSanitizer and UndefinedBehaviorSanitizer on every target.
if(BOIDS_SANITIZE)
  if(BOIDS_ENABLE_CUDA)
    message(STATUS "boids: sanitizers requested, so the CUDA backend is off")
    set(BOIDS_ENABLE_CUDA OFF CACHE BOOL "" FORCE)
  endif()
  # -O1 with line tables (-g1), after the build type's flags: a report needs no more than
  # lines, and the heaviest units compile in less than half the time of -O2 -g.
  add_compile_options(-O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# The kernels' instance units keep UndefinedBehaviorSanitizer's arithmetic checks (overflow,
# shifts, division, unreachable code, bool and enum values) and leave its pointer checks
# (alignment, null, object size, pointer overflow, bounds, vptr) to AddressSanitizer, which
# checks every access they make: in these template-heavy units the pointer checks cost more
# than half the sanitizers' build (docs/testing.md).
function(boids_sanitize_kernel_units)
  if(BOIDS_SANITIZE)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS
                 -fno-sanitize=alignment,null,object-size,pointer-overflow,bounds,vptr)
  endif()
endfunction()
