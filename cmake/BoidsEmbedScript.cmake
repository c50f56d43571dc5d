# Run by boids_embed_files (cmake/BoidsEmbed.cmake): writes OUTPUT from FILES, for HEADER.
set(types_html "text/html; charset=utf-8")
set(types_js "text/javascript; charset=utf-8")
set(types_css "text/css; charset=utf-8")
set(types_svg "image/svg+xml")
set(types_png "image/png")
set(body "")
set(table "")
set(index 0)
foreach(file IN LISTS FILES)
  get_filename_component(name ${file} NAME)
  get_filename_component(extension ${file} LAST_EXT)
  string(SUBSTRING "${extension}" 1 -1 extension)
  set(type "${types_${extension}}")
  if(type STREQUAL "")
    message(FATAL_ERROR "boids_embed_files: no Content-Type for ${name}")
  endif()
  file(READ ${file} hex HEX)
  string(LENGTH "${hex}" digits)
  math(EXPR size "${digits} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  string(APPEND body "const char file${index}[] = {${bytes} 0};\n")
  string(APPEND table "    {\"/${name}\", \"${type}\", {file${index}, ${size}}},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(WRITE ${OUTPUT}.new
"// Made by cmake/BoidsEmbedScript.cmake from the page's files: do not edit.
#include \"${HEADER}\"

namespace boids::serve {
namespace {

${body}
const PageFile kFiles[] = {
${table}};

}  // namespace

const PageFile* find_page_file(std::string_view path) {
  if (path == \"/\") path = \"/index.html\";
  for (const PageFile& file : kFiles) {
    if (file.path == path) return &file;
  }
  return nullptr;
}

}  // namespace boids::serve
")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
