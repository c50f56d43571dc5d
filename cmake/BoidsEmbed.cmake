# Files built into a program as bytes: boids_embed_files(OUTPUT NAMESPACE FUNCTION FILES...)
# writes OUTPUT, a C++ source defining FUNCTION(std::string_view path) -> const PageFile*, each
# file at "/" + its name with its Content-Type by extension ("/" itself is /index.html). The
# source is made again when a file changes.
set(BOIDS_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/BoidsEmbedScript.cmake)

function(boids_embed_files output)
  cmake_parse_arguments(EMBED "" "HEADER" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DHEADER=${EMBED_HEADER}
            "-DFILES=${EMBED_FILES}" -P ${BOIDS_EMBED_SCRIPT}
    DEPENDS ${EMBED_FILES} ${BOIDS_EMBED_SCRIPT}
    COMMENT "Building the page's files into ${output}"
    VERBATIM)
endfunction()
