#include "host/serve/rendered_pictures.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "host/base/memory.h"
#include "host/render/gl_context.h"
#include "host/render/renderer.h"

namespace boids::serve {
namespace {

class RenderedPictures final : public PictureDrawer {
 public:
  const std::string& pixels(const Snapshot& s, const ImageView& view) override {
    const std::uint64_t count = std::max<std::uint64_t>(s.count(), 1);
    if (!renderer_ || count != count_ || s.dimensions != dimensions_) {
      renderer_.reset();
      renderer_ = std::make_unique<render::Renderer>(count, s.dimensions);
      count_ = count;
      dimensions_ = s.dimensions;
    }
    upload(s);
    const PictureCamera camera = picture_camera(view, s.world, s.dimensions);
    render::Projection projection;
    for (int i = 0; i < 16; ++i) projection.view_proj[i] = static_cast<float>(camera.view_proj[i]);
    projection.near = static_cast<float>(camera.near);
    renderer_->draw_density(projection, view.width, view.height).read_rgb(rgb_);
    return rgb_;
  }

  void release() override {
    renderer_.reset();
    ::boids::release(floats_);
    ::boids::release(rgb_);
  }

  std::string describe() const override { return "the renderer on " + context_.source(); }
  bool on_gpu() const override { return context_.on_gpu(); }

 private:
  // The renderer's render data of the snapshot's boids: position, then the heading's unit
  // vector as the velocity (the picture's hue is the heading's; its azimuth alone in 3D).
  void upload(const Snapshot& s) {
    const bool box = s.dimensions == 3;
    const int floats = box ? 6 : 4;
    const Region& r = s.region;
    const AzimuthVectors& heading = azimuth_vectors();
    floats_.resize(count_ * static_cast<std::size_t>(floats));
    const auto n = static_cast<std::int64_t>(s.count());
    // Threads share the decoding: a GPU server's cores keep up with its GPU.
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      const auto b = static_cast<std::size_t>(i);
      float* out = &floats_[b * static_cast<std::size_t>(floats)];
      for (int a = 0; a < (box ? 3 : 2); ++a)
        out[a] =
            static_cast<float>(r.origin[a] + decoded_position(s.boids.position[a][b], r.side[a]));
      const std::uint8_t azimuth = s.boids.heading[0][b];
      out[box ? 3 : 2] = heading.cos[azimuth];
      out[box ? 4 : 3] = heading.sin[azimuth];
      if (box) out[5] = 0;
    }
    if (s.count() == 0) floats_[0] = std::nanf("");  // no boid: the one drawn lands nowhere
    renderer_->upload(floats_.data());
  }

  render::OffscreenContext context_;  // first made, last gone
  std::unique_ptr<render::Renderer> renderer_;
  std::uint64_t count_ = 0;
  int dimensions_ = 0;
  std::vector<float> floats_;
  std::string rgb_;
};

}  // namespace

std::unique_ptr<PictureDrawer> open_rendered_pictures() {
  return std::make_unique<RenderedPictures>();
}

}  // namespace boids::serve
