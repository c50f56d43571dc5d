// Pictures of a whole flock (host/serve/flock_image.h): each boid lands on the pixel the page's
// camera puts it on, in 2D and in a box; more boids on a pixel shade it brighter; the frame
// holds the predators and a JPEG; and a page's ask for one is checked.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/serve/flock_image.h"
#include "host/serve/frame.h"
#include "host/serve/messages.h"
#include "tests/support/test_support.h"

namespace {

using namespace boids;
using namespace boids::serve;
using boids::test_support::read_at;

// Boids at rest heading along x at `points` (z ignored in 2D).
FlockState at(const std::vector<std::array<double, 3>>& points, int dimensions) {
  FlockState s;
  s.dimensions = dimensions;
  s.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    s.x[i] = points[i][0];
    s.y[i] = points[i][1];
    if (dimensions == 3) s.z[i] = points[i][2];
    s.vx[i] = 1;
  }
  return s;
}

int brightness(const std::string& rgb, const ImageView& v, int column, int row) {
  const std::size_t p = 3 * (static_cast<std::size_t>(row) * v.width + column);
  return static_cast<unsigned char>(rgb[p]) + static_cast<unsigned char>(rgb[p + 1]) +
         static_cast<unsigned char>(rgb[p + 2]);
}

const World kWorld{100, 100, Boundary::kTorus};
constexpr int kBackground = 11 + 14 + 20;

TEST(Pictures, EachBoidLandsWhereThePagesCameraPutsIt) {
  ImageView v;
  v.width = v.height = 200;
  v.center[0] = v.center[1] = 50;  // the world fits 95 %: 1.9 pixels a unit
  const std::string rgb = flock_pixels(
      make_snapshot(at({{50.2, 50.2, 0}, {10.2, 89.8, 0}}, 2), kWorld, 0, 1, false), v);
  ASSERT_EQ(rgb.size(), 3u * 200 * 200);
  EXPECT_GT(brightness(rgb, v, 100, 99), kBackground);  // (50.2, 50.2): x 100.4, y 99.6
  EXPECT_GT(brightness(rgb, v, 24, 24), kBackground);   // (10.2, 89.8): x 24.4, y 24.4
  EXPECT_EQ(brightness(rgb, v, 150, 150), kBackground);
  // Heading along x is the hue of 0 turns, as the page's points: red the strongest.
  const std::size_t p = 3 * (99 * 200 + 100);
  EXPECT_GT(static_cast<unsigned char>(rgb[p]), static_cast<unsigned char>(rgb[p + 2]));
}

TEST(Pictures, MoreBoidsOnAPixelShadeItBrighter) {
  ImageView v;
  v.width = v.height = 100;
  v.center[0] = v.center[1] = 50;
  const std::string rgb = flock_pixels(
      make_snapshot(at({{20.1, 20.1, 0}, {20.1, 20.1, 0}, {20.1, 20.1, 0}, {70.1, 70.1, 0}}, 2),
                    kWorld, 0, 1, false),
      v);
  // 0.95 pixels a unit: (20.1, 20.1) at x 21.6, y 78.4; (70.1, 70.1) at x 69.1, y 30.9.
  const int crowded = brightness(rgb, v, 21, 78), alone = brightness(rgb, v, 69, 30);
  EXPECT_GT(alone, kBackground);
  EXPECT_GT(crowded, alone);
}

TEST(Pictures, TheBoxsCentreIsThePicturesCentreFromAnySide) {
  World box{60, 60, Boundary::kTorus};
  box.depth = 60;
  for (const double yaw : {-0.6, 1.0, 2.5}) {
    ImageView v;
    v.width = 160;
    v.height = 100;
    v.center[0] = v.center[1] = v.center[2] = 30;
    v.yaw = yaw;
    v.pitch = 0.5;
    const std::string rgb = flock_pixels(make_snapshot(at({{30, 30, 30}}, 3), box, 0, 1, false), v);
    int lit = 0;  // the pixels about the centre (the bin's middle lies a hair off it)
    for (int row = 49; row <= 50; ++row) {
      for (int column = 79; column <= 80; ++column)
        lit += brightness(rgb, v, column, row) > kBackground;
    }
    EXPECT_EQ(lit, 1) << yaw;
  }
}

// In open space the picture is drawn over the flock's bounds, wherever it flies, at the span
// the page's camera fitted.
TEST(Pictures, InOpenSpaceTheFlockIsDrawnWhereItFlies) {
  const World open{100, 100, Boundary::kOpen};
  ImageView v;
  v.width = v.height = 200;
  v.center[0] = 5002.2;
  v.center[1] = -3000.2;
  v.span[0] = v.span[1] = 10;  // 19 pixels a unit
  const std::string rgb = flock_pixels(
      make_snapshot(at({{5000.3, -3000, 0}, {5004.3, -3000, 0}}, 2), open, 0, 1, false, 1), v);
  EXPECT_GT(brightness(rgb, v, 63, 96), kBackground);   // x 100 - 36.1, y 100 - 3.8
  EXPECT_GT(brightness(rgb, v, 139, 96), kBackground);  // x 100 + 39.9
  EXPECT_EQ(brightness(rgb, v, 100, 96), kBackground);
  EXPECT_EQ(brightness(rgb, v, 199, 199), kBackground);  // not at the world's edge
}

TEST(Pictures, AFrameHoldsThePredatorsAndAJpeg) {
  FlockState s = at({{10, 10, 0}, {20, 20, 0}, {30, 30, 0}}, 2);
  s.predators = at({{50, 50, 0}}, 2);
  ImageView v;
  v.width = 64;
  v.height = 48;
  v.center[0] = v.center[1] = 50;
  std::string frame;
  PictureMaker maker;
  encode_picture_frame_into(frame, make_snapshot(s, kWorld, 7, 2, false), v, maker);
  const auto read32 = [&](std::size_t at) {
    std::uint32_t x;
    std::memcpy(&x, frame.data() + at, 4);
    return x;
  };
  std::uint16_t flags;
  std::memcpy(&flags, frame.data() + 6, 2);
  EXPECT_EQ(flags, 2);        // a picture, not paused
  EXPECT_EQ(read32(16), 0u);  // no points
  EXPECT_EQ(read32(20), 3u);  // of a flock of three
  EXPECT_EQ(read32(48), 1u);  // one predator: 5 bytes and a pad
  const std::size_t jpeg = kFrameHeaderBytes + 6;
  ASSERT_GT(frame.size(), jpeg + 4);
  EXPECT_EQ(static_cast<unsigned char>(frame[jpeg]), 0xFF);  // a JPEG's start of image
  EXPECT_EQ(static_cast<unsigned char>(frame[jpeg + 1]), 0xD8);
  EXPECT_EQ(static_cast<unsigned char>(frame[frame.size() - 2]), 0xFF);  // and its end
  EXPECT_EQ(static_cast<unsigned char>(frame.back()), 0xD9);
}

TEST(Pictures, APagesAskIsChecked) {
  const ClientMessage m = parse_client_message(
      R"({"type":"next","max_boids":9,"picture":{"width":640,"height":480,"center":[1,2,3],)"
      R"("zoom":2,"yaw":0.5,"pitch":-0.2,"distance":1.5}})");
  ASSERT_TRUE(m.picture.has_value());
  EXPECT_EQ(m.picture->width, 640);
  EXPECT_EQ(m.picture->center[2], 3);
  EXPECT_EQ(m.picture->zoom, 2);
  EXPECT_FALSE(parse_client_message(R"({"type":"next","max_boids":9})").picture.has_value());
  const ClientMessage spanned = parse_client_message(
      R"({"type":"next","max_boids":9,"picture":{"width":640,"height":480,"center":[1,2,3],)"
      R"("zoom":2,"yaw":0.5,"pitch":-0.2,"distance":1.5,"span":[40,30,0]}})");
  EXPECT_EQ(spanned.picture->span[0], 40);
  EXPECT_EQ(spanned.picture->span[1], 30);
  const std::string good =
      R"("height":480,"center":[1,2,3],"zoom":2,"yaw":0,"pitch":0,"distance":1})";
  const std::vector<std::string> refused = {
      R"({"type":"next","max_boids":9,"picture":{"width":5000,)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":{"width":8,)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":{"width":4294967296,)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":{"width":64.5,)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":{"width":4000,"height":2000,"center":[1,2,3],"zoom":1,"yaw":0,"pitch":0,"distance":1}})",
      R"({"type":"next","max_boids":9,"picture":{"width":64,"depth":1,)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":{"width":64,"height":64,"center":[1,2],"zoom":1,"yaw":0,"pitch":0,"distance":1}})",
      R"({"type":"next","max_boids":9,"picture":{"width":64,"height":64,"center":[1,2,3],"zoom":0,"yaw":0,"pitch":0,"distance":1}})",
      R"({"type":"next","max_boids":9,"picture":{"width":64,"span":[-1,2,0],)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":{"width":64,"span":[0,0,0],)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":{"width":64,"span":[1,2],)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":{"width":64,"span":[1,2,1e300],)" + good + "}",
      R"({"type":"next","max_boids":9,"picture":[]})"};
  for (const std::string& bad : refused) {
    EXPECT_THROW(parse_client_message(bad), InputError) << bad;
  }
}

}  // namespace
