// The whole flock as one picture, for a page whose link cannot carry its points: `boids serve`
// draws every boid of a snapshot at the page's size and camera, each pixel shaded by how many
// boids lie under it (a logarithmic scale from one boid to the densest pixel) and coloured by
// their mean heading (the hue the page gives a boid), and sends it as a JPEG (libjpeg-turbo)
// in place of the points (host/serve/frame.h). The page draws its world's outline and the
// predators over it, as over the points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/serve/frame.h"

namespace boids::serve {

// The largest picture a page may ask for: its side, and its pixels (what its sums hold, 12 bytes a
// pixel, and its JPEG cost the server for each page that asks; a larger canvas is drawn scaled).
inline constexpr int kMaxPictureSide = 4096;
inline constexpr int kMaxPicturePixels = 2048 * 2048;

// The page's view (host/serve/page/draw.js), which the picture must match: in 2D, the world
// point at the centre and a zoom (1: the span fits 95 % of the smaller side); in 3D, an orbit
// about `center` at `distance` times the span's largest side, seen through a 0.8-radian field
// of view. The span is the world's sides, or in open space the sides of the flock the page
// last fitted.
struct ImageView {
  bool operator==(const ImageView& o) const {
    return width == o.width && height == o.height && center[0] == o.center[0] &&
           center[1] == o.center[1] && center[2] == o.center[2] && zoom == o.zoom && yaw == o.yaw &&
           pitch == o.pitch && distance == o.distance && span[0] == o.span[0] &&
           span[1] == o.span[1] && span[2] == o.span[2];
  }
  bool operator!=(const ImageView& o) const { return !(*this == o); }

  int width = 0, height = 0;  // pixels, 16 to kMaxPictureSide each, kMaxPicturePixels in all
  double center[3] = {0, 0, 0};
  double zoom = 1;
  double yaw = 0, pitch = 0, distance = 2.2;
  double span[3] = {0, 0, 0};  // 0: the world's sides
};

// Where the page's camera puts a world point: clip = view_proj * (x, y, z, 1) (column-major),
// its pixel ((ndc.x + 1) w / 2, (1 - ndc.y) h / 2) from the top left of ndc = clip / clip.w;
// behind the eye where clip.w is at most `near`. Both painters' camera (the renderer's
// render::Projection in floats).
struct PictureCamera {
  double view_proj[16] = {};
  double near = 0;
};
PictureCamera picture_camera(const ImageView& view, const World& world, int dimensions);

// What draws the pictures: the renderer every screen shares (host/render: OpenGL, the GPU's
// through EGL on a GPU server; rendered_pictures.h), or the CPU (PictureMaker), alike to a few
// boids on a pixel's edge.
class PictureDrawer {
 public:
  virtual ~PictureDrawer() = default;
  // The picture's pixels, RGB rows from the top: the boids of `snapshot` as `view` sees them,
  // valid until the next.
  virtual const std::string& pixels(const Snapshot& snapshot, const ImageView& view) = 0;
  // Gives its memory back (no page has asked for a while).
  virtual void release() = 0;
  // Where it draws, for the server's news: "the CPU", "the renderer on EGL device 0 (NVIDIA)";
  // and whether that is a GPU.
  virtual std::string describe() const = 0;
  virtual bool on_gpu() const = 0;
};

// Pictures of a flock on the CPU, each drawn in the memory of the last (a picture's sums take
// 12 bytes a pixel: fresh pages for each cost more than the drawing).
class PictureMaker final : public PictureDrawer {
 public:
  const std::string& pixels(const Snapshot& snapshot, const ImageView& view) override;
  void release() override;
  std::string describe() const override { return "the CPU"; }
  bool on_gpu() const override { return false; }

 private:
  std::vector<std::uint32_t> count_;    // per pixel: the boids on it,
  std::vector<float> cosines_, sines_;  // and the sums of their headings as unit vectors
  std::string rgb_;
};

// One picture's pixels, drawn on the CPU in memory of its own.
std::string flock_pixels(const Snapshot& snapshot, const ImageView& view);

// RGB rows as a JPEG; throws RuntimeError if the encoder fails.
std::string encode_jpeg(const std::string& rgb, int width, int height, int quality);

}  // namespace boids::serve
