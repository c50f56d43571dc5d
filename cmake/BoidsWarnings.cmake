# Warnings for the project's own C++ code (not for CUDA device code, where nvcc's
# host-compiler pass-through would drown them in library noise).
add_library(boids_warnings INTERFACE)
target_compile_options(boids_warnings INTERFACE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
if(BOIDS_WERROR)
  target_compile_options(boids_warnings INTERFACE $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Werror>)
endif()
