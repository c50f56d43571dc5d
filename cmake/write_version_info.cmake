# Writes OUTPUT, the definitions of host/base/version.h: VERSION, and the commit of the
# checkout at SOURCE ("-dirty" after it where tracked files differ from it; "" outside a
# checkout or without git). The file is rewritten only when its text changes.
set(commit "")
if(EXISTS "${SOURCE}/.git")
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE}" rev-parse --short=12 HEAD
                    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE failed ERROR_QUIET)
    if(failed)
      set(commit "")
    else()
      execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE}" status --porcelain
                              --untracked-files=no
                      OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(NOT changes STREQUAL "")
        string(APPEND commit "-dirty")
      endif()
    endif()
  endif()
endif()
set(text "// Written at build time by cmake/write_version_info.cmake.
#include \"host/base/version.h\"

namespace boids {

const char* version() {
  return \"${VERSION}\";
}

const char* source_commit() {
  return \"${commit}\";
}

}  // namespace boids
")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
