// boids-picture-bench: what a whole-flock picture of `boids serve` costs to draw, by the
// renderer (host/render, through EGL: the GPU's, or Mesa's llvmpipe) and by the CPU, and to
// encode as a JPEG, apart from the flock's steps (bench/serve_rate.sh measures what a page gets).
//   boids-picture-bench [REPEATS [COUNT,DIMENSIONS ...]]   (default 5; 1e6 and 1e7 boids, 2D and
//   3D)
// Prints CSV: count, dimensions, drawer, the picture's pixels, ms a picture drawn (best of the
// repeats), ms to encode it, and boids drawn a second.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/flock_cases.h"
#include "host/base/errors.h"
#include "host/serve/flock_image.h"
#include "host/serve/frame.h"
#include "host/serve/rendered_pictures.h"

namespace {

using namespace boids;
using namespace boids::serve;

// A uniform random flock of `count` boids with random headings, in a world of side 1000.
Snapshot random_flock(std::size_t count, int dimensions) {
  std::mt19937_64 random(count);
  std::uniform_real_distribution<double> uniform(0, 1);
  FlockState s;
  s.dimensions = dimensions;
  s.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    s.x[i] = 1000 * uniform(random);
    s.y[i] = 1000 * uniform(random);
    if (dimensions == 3) s.z[i] = 1000 * uniform(random);
    const double heading = 2 * kPi * uniform(random);
    s.vx[i] = std::cos(heading);
    s.vy[i] = std::sin(heading);
  }
  return make_snapshot(s, World{1000, 1000, Boundary::kTorus, 1000}, 1, 1, false);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  bench::FlockCases cases;
  if (!bench::read_flock_cases(argc, argv, "boids-picture-bench", cases)) return 2;
  const int repeats = cases.repeats;
  ImageView view;
  view.width = 1280;
  view.height = 800;
  view.center[0] = view.center[1] = view.center[2] = 500;
  std::unique_ptr<PictureDrawer> renderer;
  try {
    renderer = open_rendered_pictures();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "boids-picture-bench: no renderer (%s): the CPU alone\n", e.what());
  }
  PictureMaker cpu;
  std::printf("count,dimensions,drawer,pixels,draw_ms,jpeg_ms,boids_per_second\n");
  for (const auto& [count, dimensions] : cases.flocks) {
    const Snapshot snapshot = random_flock(count, dimensions);
    for (PictureDrawer* drawer : {renderer.get(), static_cast<PictureDrawer*>(&cpu)}) {
      if (!drawer) continue;
      double best = 1e30, jpeg = 1e30;
      for (int r = 0; r < repeats + 1; ++r) {  // the first warms up (memory, shaders)
        auto start = std::chrono::steady_clock::now();
        const std::string& rgb = drawer->pixels(snapshot, view);
        const double drawn = seconds_since(start);
        start = std::chrono::steady_clock::now();
        const std::string encoded = encode_jpeg(rgb, view.width, view.height, 80);
        if (r > 0) {
          best = std::min(best, drawn);
          jpeg = std::min(jpeg, seconds_since(start));
        }
      }
      std::printf("%zu,%d,%s,%dx%d,%.2f,%.2f,%.4g\n", count, dimensions, drawer->describe().c_str(),
                  view.width, view.height, 1e3 * best, 1e3 * jpeg,
                  static_cast<double>(count) / best);
      std::fflush(stdout);
    }
  }
  return 0;
}
