// The obstacle-file and path-file parsers (files of points the world holds): any bytes are
// parsed or refused with a clean InputError by each.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/io/obstacle_file.h"
#include "host/io/path_file.h"
#include "host/io/state_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boids;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const World world{100, 50, Boundary::kWalls};
  try {
    for (const Obstacle& o : parse_obstacles(text, "fuzz.csv", world)) {
      if (!(o.x >= 0 && o.x < world.width && o.y >= 0 && o.y < world.height && o.radius > 0)) {
        std::fprintf(stderr, "accepted an obstacle outside the world or without a radius\n");
        std::abort();
      }
    }
  } catch (const InputError& e) {
    boids::fuzz::check_message(e.what(), 300);
  }
  try {
    const std::vector<Vec3> path = parse_path(text, "fuzz.csv", world);
    for (std::size_t k = 0; k < path.size(); ++k) {
      const Vec3& v = path[k];
      const bool repeated = k > 0 && v.x == path[k - 1].x && v.y == path[k - 1].y;
      if (!(v.x >= 0 && v.x < world.width && v.y >= 0 && v.y < world.height) || repeated ||
          path.size() < 2) {
        std::fprintf(stderr, "accepted a path point outside the world or repeated\n");
        std::abort();
      }
    }
  } catch (const InputError& e) {
    boids::fuzz::check_message(e.what(), 300);
  }
  return 0;
}
