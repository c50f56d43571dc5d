// `boids serve` under pages that ask for its slowest frames: GET / and a live page's frames are
// answered while one page asks for neighbour colours at the largest radius a page allows, and
// after hundreds of pages ask for large pictures and leave.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <vector>

#include "host/serve/frame.h"
#include "tests/support/serve_fixture.h"

namespace {

using boids::serve::kFrameHeaderBytes;
using boids::serve::kMostNeighbors;
using boids::test_support::get;
using boids::test_support::Page;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

using ServeLoad = boids::test_support::ServeFixture;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Each boid neighbours most of the flock at half the world's side (the radius slider's top):
// counting them all took the server's thread 13 to 18 s for 50,000 boids.
TEST_F(ServeLoad, NeighbourColoursAtTheLargestRadiusLeaveTheServerAnswering) {
  ASSERT_NE(serve({"--port", "0", "--backend", "cpu", "--count", "30000", "--world", "600",
                   "--radius", "300"}),
            "");
  Page page(port_);
  page.until("flock");
  page.send({{"type", "pause"}, {"on", true}});
  EXPECT_EQ(page.until("flock")["paused"], true);
  for (const char* colour : {"neighbors", "flock"}) {
    page.send({{"type", "next"}, {"max_boids", 1 << 20}, {"colour", colour}});
    const Clock::time_point asked = Clock::now();
    EXPECT_EQ(get(port_, "/").status, 200u);
    EXPECT_LT(seconds_since(asked), 1.0) << colour;
    json m = page.receive();
    while (!m.contains("binary")) m = page.receive();
    EXPECT_EQ(m["binary"], kFrameHeaderBytes + 30000 * 6) << colour;
    EXPECT_LT(seconds_since(asked), 10.0) << colour;
  }
  // By neighbours (the first frame): each counted to the bound, which the header says.
  EXPECT_EQ(page.at<std::uint8_t>(56), 3);  // the last: by flock, one flock
  EXPECT_EQ(page.at<float>(60), 1.0f);
  page.send({{"type", "next"}, {"max_boids", 1 << 20}, {"colour", "neighbors"}});
  json m = page.receive();
  while (!m.contains("binary")) m = page.receive();
  EXPECT_EQ(page.at<std::uint8_t>(56), 2);
  EXPECT_EQ(page.at<std::uint16_t>(6) & 4, 4);
  EXPECT_EQ(page.at<float>(60), static_cast<float>(kMostNeighbors));
}

// A picture of a page that left is not drawn: 300 pages asked for 2048 x 2048 pictures of
// 200,000 boids and left, and a live page waited 17.7 s for its next (0.5 s before).
TEST_F(ServeLoad, PicturesOfPagesThatLeftAreNotDrawn) {
  ASSERT_NE(serve({"--port", "0", "--backend", "cpu", "--count", "200000", "--pictures", "cpu",
                   "--rate", "10"}),
            "");
  const json picture = {{"width", 2048}, {"height", 2048}, {"center", {0, 0, 0}}, {"zoom", 1},
                        {"yaw", 0},      {"pitch", 0},     {"distance", 2}};
  const json ask = {{"type", "next"}, {"max_boids", 1000}, {"picture", picture}};
  {
    std::vector<std::unique_ptr<Page>> leaving;
    for (int k = 0; k < 300; ++k) {
      leaving.push_back(std::make_unique<Page>(port_));
      leaving.back()->send(ask);
    }
  }  // all close at once, without reading
  const Clock::time_point left = Clock::now();
  EXPECT_EQ(get(port_, "/").status, 200u);
  EXPECT_LT(seconds_since(left), 1.0);
  Page page(port_);
  page.until("flock");
  page.send(ask);
  json m = page.receive();
  while (!m.contains("binary")) m = page.receive();
  EXPECT_EQ(page.at<std::uint16_t>(6) & 2, 2);  // a picture
  EXPECT_LT(seconds_since(left), 4.0);          // each picture 30 ms: 9.5 s for 300
}

}  // namespace
