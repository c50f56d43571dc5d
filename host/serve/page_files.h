// The page's files, built into the program from host/serve/page/ (cmake/BoidsEmbed.cmake), so
// that `boids serve` needs nothing installed beside it and no network.
#pragma once

#include <cstddef>
#include <string_view>

namespace boids::serve {

struct PageFile {
  std::string_view path;  // "/index.html", "/app.js", ...
  std::string_view type;  // its Content-Type
  std::string_view bytes;
};

// The file served at `path` ("/" is "/index.html"); null for any other path.
const PageFile* find_page_file(std::string_view path);

}  // namespace boids::serve
