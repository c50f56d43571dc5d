// serve's pictures drawn by the renderer every screen shares (host/serve/rendered_pictures.h,
// host/render/density.h) in an OpenGL context with no display (Mesa's here, the GPU's on a GPU
// server): the same pictures the CPU draws, in 2D and in a box, whatever the boids' order; and
// the painter that draws them for the pages off the server's thread, on either.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <future>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "host/render/density.h"
#include "host/serve/flock_image.h"
#include "host/serve/frame.h"
#include "host/serve/picture_painter.h"
#include "host/serve/rendered_pictures.h"

namespace {

using namespace boids;
using namespace boids::serve;

// `count` boids in clumps, flying the clumps' ways with some spread, in a world of side 100.
Snapshot clumped(std::size_t count, int dimensions, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::normal_distribution<double> spread(0, 1);
  FlockState s;
  s.dimensions = dimensions;
  s.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double clump = static_cast<double>(i % 7);
    const double cx = 10 + 11 * clump, angle = 0.9 * clump;
    s.x[i] = std::fmod(cx + 6 * spread(random) + 100, 100.0);
    s.y[i] = std::fmod(20 + 8 * clump + 6 * spread(random) + 100, 100.0);
    if (dimensions == 3) s.z[i] = std::fmod(50 + 15 * spread(random) + 100, 100.0);
    const double heading = angle + 0.4 * spread(random);
    s.vx[i] = std::cos(heading);
    s.vy[i] = std::sin(heading);
    if (dimensions == 3) s.vz[i] = 0.3 * spread(random);
    if (uniform(random) < 0.2) s.x[i] = 100 * uniform(random);  // and some strays
  }
  const World world{100, 100, Boundary::kTorus, 100};
  return make_snapshot(s, world, 1, 1, false);
}

ImageView view() {
  ImageView v;
  v.width = 320;
  v.height = 200;
  v.zoom = 1.4;
  v.center[0] = 45;
  v.center[1] = 52;
  v.center[2] = 50;
  v.yaw = 0.7;
  v.pitch = 0.4;
  v.distance = 1.6;
  return v;
}

// The pixels where the two pictures differ by more than `tolerance` in a channel, and the
// pixels either lights.
struct Difference {
  std::size_t differ = 0, lit = 0;
};
Difference compare(const std::string& a, const std::string& b, int tolerance) {
  Difference d;
  for (std::size_t p = 0; p + 2 < a.size(); p += 3) {
    int worst = 0;
    bool lit = false;
    for (int c = 0; c < 3; ++c) {
      const int x = static_cast<unsigned char>(a[p + c]), y = static_cast<unsigned char>(b[p + c]);
      worst = std::max(worst, std::abs(x - y));
      lit = lit || x != render::kDensityBackground[c] || y != render::kDensityBackground[c];
    }
    d.lit += lit ? 1 : 0;
    d.differ += worst > tolerance ? 1 : 0;
  }
  return d;
}

// The renderer's picture is the CPU's but for boids on a pixel's edge (floats, not doubles, find
// their pixel) and the mean heading's hue (summed in 64ths): a pixel in a hundred at most.
void expect_as_the_cpu_draws(const Snapshot& snapshot) {
  const ImageView v = view();
  const std::string cpu = flock_pixels(snapshot, v);
  const auto renderer = open_rendered_pictures();
  const std::string drawn = renderer->pixels(snapshot, v);
  ASSERT_EQ(drawn.size(), cpu.size());
  const Difference d = compare(cpu, drawn, 6);
  EXPECT_GT(d.lit, 3000u) << "too few pixels lit to tell";
  EXPECT_LT(d.differ, d.lit / 100)
      << d.differ << " of " << d.lit << " lit pixels differ (" << renderer->describe() << ")";
}

}  // namespace

TEST(RenderedPictures, AreTheCpusInTwoDimensions) {
  expect_as_the_cpu_draws(clumped(60000, 2, 1));
}

TEST(RenderedPictures, AreTheCpusInABox) {
  expect_as_the_cpu_draws(clumped(60000, 3, 2));
}

TEST(RenderedPictures, DoNotDependOnTheBoidsOrder) {
  // Each pixel's sums are integers, added by atomics in whatever order the GPU takes the boids.
  const Snapshot snapshot = clumped(50000, 2, 3);
  Snapshot reversed = snapshot;
  for (int a = 0; a < 2; ++a) {
    std::reverse(reversed.boids.position[a].begin(), reversed.boids.position[a].end());
  }
  std::reverse(reversed.boids.heading[0].begin(), reversed.boids.heading[0].end());
  const auto renderer = open_rendered_pictures();
  const std::string forwards = renderer->pixels(snapshot, view());
  EXPECT_TRUE(renderer->pixels(reversed, view()) == forwards);
}

TEST(RenderedPictures, FollowTheFlocksSizeAndThePicturesSize) {
  const auto renderer = open_rendered_pictures();
  ImageView v = view();
  const Snapshot small = clumped(500, 2, 4), large = clumped(40000, 3, 5);
  const Difference d = compare(renderer->pixels(small, v), flock_pixels(small, v), 6);
  EXPECT_GT(d.lit, 300u);
  EXPECT_EQ(d.differ, 0u);  // few boids: none on a pixel's edge
  v.width = 64;
  v.height = 48;
  EXPECT_EQ(renderer->pixels(large, v).size(), 3u * 64 * 48);
  renderer->release();
  EXPECT_EQ(renderer->pixels(small, view()).size(), 3u * 320 * 200);
}

// What the painter hands back for a picture of `snapshot`: the frame and the error.
std::pair<std::string, std::string> painted(PicturePainter& painter, const Snapshot& snapshot) {
  std::promise<std::pair<std::string, std::string>> result;
  painter.paint(&result, std::make_shared<Snapshot>(snapshot), view(), "",
                [&result](std::string frame, std::string error) {
                  result.set_value({std::move(frame), std::move(error)});
                });
  return result.get_future().get();
}

TEST(PicturePainter, DrawsFramesWithTheRendererOrTheCpu) {
  const Snapshot snapshot = clumped(20000, 2, 6);
  for (const PictureDevice device : {PictureDevice::kRenderer, PictureDevice::kCpu}) {
    PicturePainter painter(device);
    EXPECT_EQ(painter.describe(), "");  // nothing is opened before a page asks
    const auto [frame, error] = painted(painter, snapshot);
    EXPECT_EQ(error, "");
    ASSERT_GT(frame.size(), kFrameHeaderBytes + 2);
    EXPECT_EQ(static_cast<unsigned char>(frame[kFrameHeaderBytes]), 0xFF);  // a JPEG
    EXPECT_EQ(
        painter.describe().rfind(device == PictureDevice::kCpu ? "the CPU" : "the renderer on", 0),
        0u)
        << painter.describe();
  }
  // Left to choose, the renderer on a GPU and the CPU beside a software renderer.
  const bool gpu = open_rendered_pictures()->on_gpu();
  PicturePainter automatic(PictureDevice::kAuto);
  EXPECT_EQ(painted(automatic, snapshot).second, "");
  EXPECT_EQ(automatic.describe().rfind(gpu ? "the renderer on EGL device" : "the CPU", 0), 0u)
      << automatic.describe();
}

TEST(PicturePainter, GivesItsMemoryBackAndDrawsAgain) {
  PicturePainter painter(PictureDevice::kRenderer, 0.05);
  const Snapshot snapshot = clumped(5000, 3, 7);
  const std::string first = painted(painter, snapshot).first;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // idle: released
  EXPECT_TRUE(painted(painter, snapshot).first == first);
}

TEST(PicturePainter, LeavesThePicturesNotDrawnWhenItGoes) {
  int called = 0;
  {
    PicturePainter painter(PictureDevice::kCpu);
    const auto snapshot = std::make_shared<Snapshot>(clumped(200000, 2, 8));
    int pages[20];
    for (int& page : pages) {
      painter.paint(&page, snapshot, view(), "", [&called](std::string, std::string) { ++called; });
    }
  }
  EXPECT_LT(called, 20);
}
