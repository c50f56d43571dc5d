# -DBOIDS_SANITIZE=ON: AddressSanitizer and UndefinedBehaviorSanitizer on every target.
if(BOIDS_SANITIZE)
  if(BOIDS_ENABLE_CUDA)
    message(STATUS "boids: sanitizers requested, so the CUDA backend is off")
    set(BOIDS_ENABLE_CUDA OFF CACHE BOOL "" FORCE)
  endif()
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
