// The painter (host/serve/picture_painter.h) as the server's pages meet it, on the CPU: points
// coloured by a measure made off the caller's thread, bounded at a page's largest radius; one
// job a page, dropped with its page; and its memory given back once no page asks.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>
#include <string>
#include <thread>

#include "host/serve/picture_painter.h"
#include "tests/support/test_support.h"

namespace {

using namespace boids;
using namespace boids::serve;

using boids::test_support::random_state;
using boids::test_support::read_at;

const World kWorld{100, 100, Boundary::kTorus};

Snapshot snapshot_of(std::size_t n, double radius, std::uint64_t seed) {
  return make_snapshot(random_state(n, 100, 4, 8, seed), kWorld, 0, 1, false, radius);
}

// What the painter hands back for `page`'s frame of `snapshot` coloured by `colouring`.
std::pair<std::string, std::string> encoded(PicturePainter& painter,
                                            std::shared_ptr<const Snapshot> snapshot,
                                            Colouring colouring) {
  std::promise<std::pair<std::string, std::string>> result;
  painter.encode(&result, std::move(snapshot), 1 << 20, colouring, "",
                 [&result](std::string frame, std::string error) {
                   result.set_value({std::move(frame), std::move(error)});
                 });
  return result.get_future().get();
}

TEST(PicturePainter, MakesMeasuredFramesAsTheServersThreadWould) {
  PicturePainter painter(PictureDevice::kCpu);
  for (const Colouring colouring : {Colouring::kNeighbors, Colouring::kFlock}) {
    const auto snapshot = std::make_shared<Snapshot>(snapshot_of(3000, 6, 31));
    const Snapshot fresh = snapshot_of(3000, 6, 31);
    const auto [frame, error] = encoded(painter, snapshot, colouring);
    EXPECT_EQ(error, "");
    EXPECT_TRUE(frame == encode_frame(fresh, 1 << 20, colouring)) << colouring_name(colouring);
    EXPECT_EQ(read_at<std::uint16_t>(frame, 6) & 4, 0);  // counted whole
  }
}

// At a page's largest radius every boid neighbours the whole flock: counted to the bound, which
// the header says, and joined as one flock.
TEST(PicturePainter, BoundsTheMeasuresAtTheLargestRadius) {
  PicturePainter painter(PictureDevice::kCpu);
  const auto snapshot = std::make_shared<Snapshot>(snapshot_of(20000, 50, 32));
  const auto [frame, error] = encoded(painter, snapshot, Colouring::kNeighbors);
  EXPECT_EQ(error, "");
  EXPECT_EQ(read_at<std::uint8_t>(frame, 56), 2);  // by neighbours
  EXPECT_EQ(read_at<std::uint16_t>(frame, 6) & 4, 4);
  EXPECT_EQ(read_at<float>(frame, 60), static_cast<float>(kMostNeighbors));
  const auto flocks = encoded(painter, snapshot, Colouring::kFlock).first;
  EXPECT_EQ(read_at<float>(flocks, 60), 1.0f);  // one flock
}

// A page asks for one frame at a time: a newer ask replaces the one waiting, and a page that
// leaves takes its job with it.
TEST(PicturePainter, HoldsOneJobAPageAndDropsAPageThatLeft) {
  PicturePainter painter(PictureDevice::kCpu);
  const auto snapshot = std::make_shared<Snapshot>(snapshot_of(500, 6, 33));
  std::promise<void> release, holding;
  int first = 0, second = 0, third = 0, gone = 0;
  // The first page's frame holds the painter until the others have asked.
  painter.encode(&first, snapshot, 100, Colouring::kNeighbors, "", [&](std::string, std::string) {
    holding.set_value();
    release.get_future().wait();
  });
  holding.get_future().wait();
  std::promise<void> last;
  painter.encode(&second, snapshot, 100, Colouring::kFlock, "",
                 [&](std::string, std::string) { second += 10; });
  painter.encode(&second, snapshot, 100, Colouring::kFlock, "",
                 [&](std::string, std::string) { second += 1; });
  painter.encode(&gone, snapshot, 100, Colouring::kFlock, "",
                 [&](std::string, std::string) { gone += 1; });
  painter.encode(&third, snapshot, 100, Colouring::kFlock, "", [&](std::string, std::string) {
    third += 1;
    last.set_value();
  });
  EXPECT_EQ(painter.waiting(), 3u);
  painter.forget(&gone);
  EXPECT_EQ(painter.waiting(), 2u);
  release.set_value();
  last.get_future().wait();
  EXPECT_EQ(second, 1);
  EXPECT_EQ(third, 1);
  EXPECT_EQ(gone, 0);
}

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// docs/serve.md: the pictures' memory goes back once no page has asked for a while.
TEST(PicturePainter, GivesThePicturesMemoryBackWhenNoPageAsks) {
#if defined(BOIDS_SANITIZED)
  GTEST_SKIP() << "AddressSanitizer's allocator keeps freed memory in quarantine";
#endif
  PicturePainter painter(PictureDevice::kCpu, 0.3);
  const auto snapshot = std::make_shared<Snapshot>(snapshot_of(200000, 6, 34));
  const std::size_t before = resident_bytes();
  ImageView view;
  view.width = view.height = 2048;
  view.center[0] = view.center[1] = 50;
  for (int k = 0; k < 4; ++k) {
    std::promise<std::string> drawn;
    painter.paint(&view, snapshot, view, "",
                  [&drawn](std::string frame, std::string) { drawn.set_value(std::move(frame)); });
    EXPECT_GT(drawn.get_future().get().size(), kFrameHeaderBytes);
  }
  const std::size_t drawing = resident_bytes();
  EXPECT_GT(drawing, before + (32u << 20));  // a 2048 x 2048 picture's sums and pixels
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_LT(resident_bytes(), before + (8u << 20))
      << "before " << before << ", drawing " << drawing;
}

}  // namespace
