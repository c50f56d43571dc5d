// The whole flock as a picture of its density: each pixel shaded by how many boids lie under it
// (a logarithmic scale from one boid to the densest pixel) and coloured by their mean heading,
// on the background of the page. What a screen shows of a flock too large for its points to
// mean anything: `boids serve` sends it to a page whose link cannot carry the points
// (host/serve/picture_painter.h), and the viewer can show it in place of the boids.
//
// Two compute passes over the renderer's vertex buffer, where the flock already is (written by
// CUDA through interop on a GPU): each boid adds itself to its pixel with integer atomics (its
// count, and its heading as a unit vector in 64ths), so the sums, and so the picture, do not
// depend on the order the boids are taken in; then each pixel is shaded. host/serve's
// flock_image.cpp draws the same picture on the CPU, where there is no OpenGL.
#pragma once

#include <cstdint>
#include <string>

#include "host/render/camera.h"

namespace boids::render {

// Where a boid falls: clip = view_proj * (position, 1), its pixel ((x + 1) w / 2, (1 - y) h / 2)
// from the top left of ndc = clip / clip.w; a boid with clip.w at most `near` is behind the
// eye. In 2D on a torus (`wrap`), each boid is taken at its image nearest `center` first.
struct Projection {
  Matrix view_proj{};
  float near = 0;
  bool wrap = false;
  float center[2] = {0, 0};
  float world[2] = {1, 1};
};

// The page's background, where no boid is.
inline constexpr unsigned char kDensityBackground[3] = {11, 14, 20};
// Each boid's heading counts in 64ths in its pixel's sums (31-bit sums: 33 million boids on
// one pixel at most).
inline constexpr int kHeadingUnits = 64;

class DensityPicture {
 public:
  DensityPicture();
  ~DensityPicture();
  DensityPicture(const DensityPicture&) = delete;
  DensityPicture& operator=(const DensityPicture&) = delete;

  // Draws `count` boids of the OpenGL buffer `boids` (`floats_per_boid` floats each: the
  // position's `dimensions`, then the velocity's) as `projection` sees them, into a picture of
  // `width` x `height`.
  void draw(unsigned int boids, std::uint64_t count, int dimensions, int floats_per_boid,
            const Projection& projection, int width, int height);
  // The picture drawn: RGB rows from the top.
  void read_rgb(std::string& out) const;
  // Copies it into the framebuffer bound, into width x height pixels from `left` (the viewer's
  // view, beside its panel).
  void show(int width, int height, int left = 0) const;
  // Gives back the picture's memory (12 bytes a pixel of sums, 4 of colour).
  void release();

 private:
  void resize(int width, int height);

  unsigned int splat_ = 0, shade_ = 0;  // the two programs
  unsigned int sums_ = 0, densest_ = 0, image_ = 0, read_framebuffer_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace boids::render
