# The world terms' entries in the parameter table and the catalogue of variants: each a file of
# host/model/terms/, which joins the build without an edit here. boids_host_terms(target)
# writes host_terms.inc, including every one, and compiles host/model/host_terms.cpp, which
# takes them in the kernels' order of their terms (AllTerms, kernels/world_terms.h).
function(boids_host_terms target source_dir binary_dir)
  file(GLOB entries CONFIGURE_DEPENDS ${source_dir}/host/model/terms/*.h)
  list(SORT entries)
  set(includes "// Written by cmake/BoidsTerms.cmake: every file of host/model/terms/.\n")
  foreach(entry IN LISTS entries)
    file(RELATIVE_PATH relative ${source_dir} ${entry})
    string(APPEND includes "#include \"${relative}\"\n")
  endforeach()
  file(CONFIGURE OUTPUT ${binary_dir}/generated/terms/host_terms.inc CONTENT "${includes}")
  target_sources(${target} PRIVATE ${source_dir}/host/model/host_terms.cpp)
  target_include_directories(${target} PRIVATE ${binary_dir}/generated/terms)
endfunction()
