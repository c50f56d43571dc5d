// A frame's colours (host/serve/frame.h): the byte a boid the page colours it by, its speed,
// its neighbours or its flock, after its headings, with the header naming what they are and
// their scale; and the page's ask for them (host/serve/messages.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/io/trajectory_file.h"
#include "host/model/initial_state.h"
#include "host/serve/frame.h"
#include "host/serve/messages.h"
#include "host/serve/page_files.h"
#include "host/serve/replay.h"
#include "tests/support/test_support.h"

namespace {

using namespace boids;
using namespace boids::serve;

using boids::test_support::read_at;

// Boids at `xs` (y = 50) with velocities (vx, 0), in a 100 x 100 torus.
FlockState row(const std::vector<double>& xs, const std::vector<double>& vxs) {
  FlockState s;
  s.resize(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    s.x[i] = xs[i];
    s.y[i] = 50;
    s.vx[i] = vxs[i];
    s.vy[i] = 0;
  }
  return s;
}

const World kWorld{100, 100, Boundary::kTorus};

// The colour bytes of a 2D frame of `boids` boids without predators.
std::vector<std::uint8_t> colours_of(const std::string& frame, std::size_t boids) {
  const std::size_t at = kFrameHeaderBytes + 5 * boids;
  return {frame.begin() + static_cast<std::ptrdiff_t>(at),
          frame.begin() + static_cast<std::ptrdiff_t>(at + boids)};
}

TEST(FrameColours, SpeedIsAShareOfTheFastest) {
  const FlockState s = row({10, 20, 30, 40}, {2, 1, 0, -0.5});
  const std::string frame =
      encode_frame(make_snapshot(s, kWorld, 0, 1, false), 100, Colouring::kSpeed);
  EXPECT_EQ(read_at<std::uint8_t>(frame, 56), 1);  // speed
  EXPECT_EQ(read_at<float>(frame, 60), 2.0f);      // the byte 255 is the fastest
  ASSERT_EQ(frame.size(), frame_bytes(4, 2, 0, true));
  EXPECT_EQ(colours_of(frame, 4), (std::vector<std::uint8_t>{255, 128, 0, 64}));
}

TEST(FrameColours, ASubsampleTakesTheSameBoidsColours) {
  FlockParams params;
  const FlockState s = make_initial_state(1001, 7, params);
  const Snapshot snapshot = make_snapshot(s, params.world, 0, 1, false);
  const std::string frame = encode_frame(snapshot, 100, Colouring::kSpeed);
  const std::uint32_t boids = read_at<std::uint32_t>(frame, 16),
                      stride = read_at<std::uint32_t>(frame, 24);
  ASSERT_EQ(frame.size(), frame_bytes(boids, 2, 0, true));
  const std::vector<std::uint8_t> bytes = colours_of(frame, boids);
  const ColourBytes* all = snapshot.colour_bytes(Colouring::kSpeed);
  ASSERT_NE(all, nullptr);
  for (std::uint32_t k = 0; k < boids; ++k) ASSERT_EQ(bytes[k], all->bytes[k * stride]);
}

TEST(FrameColours, NeighboursAreAShareOfTheMost) {
  // Within radius 5: 0-1, 1-2 and 3-4; 5 alone.
  const FlockState s = row({10, 13, 16, 40, 42, 70}, {1, 1, 1, 1, 1, 1});
  const std::string frame =
      encode_frame(make_snapshot(s, kWorld, 0, 1, false, 5), 100, Colouring::kNeighbors);
  EXPECT_EQ(read_at<std::uint8_t>(frame, 56), 2);
  EXPECT_EQ(read_at<float>(frame, 60), 2.0f);  // boid 1 has the most: 2
  EXPECT_EQ(colours_of(frame, 6), (std::vector<std::uint8_t>{128, 255, 128, 128, 128, 0}));
}

TEST(FrameColours, FlocksAreRankedBySizeAndALoneBoidIsNone) {
  const FlockState s = row({40, 42, 10, 13, 16, 70}, {1, 1, 1, 1, 1, 1});
  const std::string frame =
      encode_frame(make_snapshot(s, kWorld, 0, 1, false, 5), 100, Colouring::kFlock);
  EXPECT_EQ(read_at<std::uint8_t>(frame, 56), 3);
  EXPECT_EQ(read_at<float>(frame, 60), 3.0f);  // three flocks, one of them a boid alone
  EXPECT_EQ(colours_of(frame, 6), (std::vector<std::uint8_t>{1, 1, 0, 0, 0, 255}));
}

// A recording that does not say its radius cannot count neighbours: its frames are coloured
// by heading, and say so.
TEST(FrameColours, WithoutARadiusTheHeadingIsSent) {
  const FlockState s = row({10, 13}, {1, 1});
  const Snapshot snapshot = make_snapshot(s, kWorld, 0, 1, false);
  for (const Colouring c : {Colouring::kNeighbors, Colouring::kFlock, Colouring::kHeading}) {
    const std::string frame = encode_frame(snapshot, 100, c);
    EXPECT_EQ(read_at<std::uint8_t>(frame, 56), 0);
    EXPECT_EQ(frame.size(), frame_bytes(2, 2));
  }
}

TEST(FrameColours, APageAsksForAColouringByName) {
  EXPECT_EQ(parse_client_message(R"({"type":"next","max_boids":5})").colouring,
            Colouring::kHeading);
  const ClientMessage m = parse_client_message(R"({"type":"next","max_boids":5,"colour":"flock"})");
  EXPECT_EQ(m.colouring, Colouring::kFlock);
  EXPECT_EQ(m.count, 5u);
  EXPECT_THROW(parse_client_message(R"({"type":"next","max_boids":5,"colour":"mood"})"),
               InputError);
  EXPECT_THROW(parse_client_message(R"({"type":"next","max_boids":5,"colour":3})"), InputError);
  // density is every screen's word for a picture of the flock, which a page asks for as one.
  try {
    parse_client_message(R"({"type":"next","max_boids":5,"colour":"density"})");
    ADD_FAILURE() << "a frame's boids coloured by density";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "colouring 'density' is a picture's: ask for a picture");
  }
  EXPECT_THROW(parse_client_message(R"({"type":"step","colour":"speed"})"), InputError);
}

}  // namespace

TEST(FrameColours, ThePageNamesTheColouringsAsEveryScreenDoes) {
  // frames.js's COLOURINGS, which a frame's byte 56 indexes, are the shared vocabulary's
  // (host/render/colouring.h) that frames carry, in its order.
  const PageFile* frames = find_page_file("/frames.js");
  ASSERT_NE(frames, nullptr);
  std::string expected = "export const COLOURINGS = [";
  for (std::size_t c = 0; c < kFrameColourings; ++c) {
    expected += std::string(c ? ", " : "") + "\"" + render::kColourings[c] + "\"";
  }
  expected += "];";
  EXPECT_NE(std::string(frames->bytes).find(expected), std::string::npos) << expected;
}

TEST(FrameColours, TheRenderersSpeedSpansTheFlocksOwnSpeeds) {
  // The published clamp by default; all of [0, v_max] once --min-speed 0 lets boids slow, so
  // that a slow boid is not off the scale; a constant-speed model's one speed.
  FlockParams p;
  p.max_speed = 2;
  EXPECT_EQ(render::speed_span(p).low, 1);
  EXPECT_EQ(render::speed_span(p).high, 2);
  p.min_speed = 0;
  EXPECT_EQ(render::speed_span(p).low, 0);
  for (const Model m : {Model::kVicsek, Model::kCouzin}) {
    FlockParams constant;
    constant.model = m;
    constant.max_speed = 3;
    EXPECT_EQ(render::speed_span(constant).low, 3);
    EXPECT_EQ(render::speed_span(constant).high, 3);
  }
}

namespace {

// A replay's radius, which its neighbours and flocks are measured at, is checked as --radius
// is: 1e300 in a file made the server count every pair of boids on its thread.
TEST(FrameColours, AReplaysRadiusIsCheckedAsTheCommandLines) {
  const std::string path = ::testing::TempDir() + "replay_radius.h5";
  for (const double radius : {1e300, -2.0, 10.0}) {
    {
      TrajectoryHeader header;
      header.count = 3;
      header.world = kWorld;
      header.xdmf = false;
      header.parameters = {{"radius", radius}};
      TrajectoryWriter writer(path, header);
      writer.append(0, 0, row({10, 20, 30}, {1, 1, 1}), FlockMetrics{});
      writer.close();
    }
    if (radius == 10.0) {
      Replay replay(path);
      EXPECT_NE(replay.description().find("\"radius\":10"), std::string::npos);
      continue;
    }
    try {
      Replay replay(path);
      ADD_FAILURE() << radius << " was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("its radius (/parameters) is"), std::string::npos)
          << e.what();
    }
  }
  std::remove(path.c_str());
}

}  // namespace
