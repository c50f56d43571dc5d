#include "host/serve/flock_image.h"

#include <jpeglib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "host/base/errors.h"
#include "host/base/memory.h"

namespace boids::serve {
namespace {

using Vec = std::array<double, 3>;

// The page's hue of a heading in turns: the boid shader's hue() (draw.js).
std::array<double, 3> heading_hue(double turns) {
  std::array<double, 3> rgb{};
  const double k0[3] = {5, 3, 1};
  for (int c = 0; c < 3; ++c) {
    const double k = std::fmod(k0[c] + turns * 6, 6.0);
    rgb[c] = 1 - 0.8 * std::clamp(std::min(k, 4 - k), 0.0, 1.0);
  }
  return rgb;
}

Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec normalised(const Vec& a) {
  const double l = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  return l > 0 ? Vec{a[0] / l, a[1] / l, a[2] / l} : Vec{0, 0, 1};
}
double dot(const Vec& a, const Vec& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Where a world point falls in the picture: pixel (column, row from the top), or none (behind
// the eye, or outside).
class Projection {
 public:
  Projection(const PictureCamera& camera, int width, int height)
      : c_(camera), width_(width), height_(height) {}

  bool operator()(double x, double y, double z, int& column, int& row) const {
    const double* m = c_.view_proj;
    const double w = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (!(w > c_.near)) return false;
    const double nx = (m[0] * x + m[4] * y + m[8] * z + m[12]) / w;
    const double ny = (m[1] * x + m[5] * y + m[9] * z + m[13]) / w;
    const double px = (nx + 1) * 0.5 * width_, py = (1 - ny) * 0.5 * height_;
    if (!(px >= 0 && px < width_ && py >= 0 && py < height_)) return false;
    column = static_cast<int>(px);
    row = static_cast<int>(py);
    return true;
  }

 private:
  PictureCamera c_;
  int width_, height_;
};

}  // namespace

// In 2D, ndc = (p - centre) 2 fit / size; in 3D, lookAt(eye, centre, z up), as the page's,
// through a 0.8-radian field of view: clip.w is the depth before the eye.
PictureCamera picture_camera(const ImageView& v, const World& world, int dimensions) {
  PictureCamera c;
  double* m = c.view_proj;
  const bool spanned = v.span[0] > 0;
  const double span[3] = {spanned ? v.span[0] : world.width, spanned ? v.span[1] : world.height,
                          spanned ? v.span[2] : world.depth};
  if (dimensions != 3) {
    const double fit = std::min(v.width / span[0], v.height / span[1]) * 0.95 * v.zoom;
    m[0] = 2 * fit / v.width;
    m[5] = 2 * fit / v.height;
    m[10] = 1;
    m[12] = -v.center[0] * m[0];
    m[13] = -v.center[1] * m[5];
    m[15] = 1;
    return c;
  }
  const double size = std::max({span[0], span[1], span[2]});
  const Vec eye = {v.center[0] + size * v.distance * std::cos(v.pitch) * std::cos(v.yaw),
                   v.center[1] + size * v.distance * std::cos(v.pitch) * std::sin(v.yaw),
                   v.center[2] + size * v.distance * std::sin(v.pitch)};
  const Vec z = normalised({eye[0] - v.center[0], eye[1] - v.center[1], eye[2] - v.center[2]});
  const Vec x = normalised(cross({0, 0, 1}, z));
  const Vec y = cross(z, x);
  const double focal = 1 / std::tan(0.8 / 2);
  const double aspect = static_cast<double>(v.width) / v.height;
  // Rows: x focal / aspect, y focal, 0, -z; each less its dot with the eye.
  const double fx = focal / aspect;
  for (int a = 0; a < 3; ++a) {
    m[4 * a + 0] = x[a] * fx;
    m[4 * a + 1] = y[a] * focal;
    m[4 * a + 3] = -z[a];
  }
  m[12] = -dot(x, eye) * fx;
  m[13] = -dot(y, eye) * focal;
  m[15] = dot(z, eye);
  c.near = size * 0.01;
  return c;
}

const std::string& PictureMaker::pixels(const Snapshot& s, const ImageView& view) {
  if (view.width < 1 || view.height < 1) throw InputError("a picture of no pixels");
  const auto pixels = static_cast<std::size_t>(view.width) * static_cast<std::size_t>(view.height);
  // Per pixel: the boids, and the sum of their headings as unit vectors (the mean hue).
  std::vector<std::uint32_t>& count = count_;
  std::vector<float>&cosines = cosines_, &sines = sines_;
  count.assign(pixels, 0);
  cosines.assign(pixels, 0);
  sines.assign(pixels, 0);
  const AzimuthVectors& heading = azimuth_vectors();
  const Projection project(picture_camera(view, s.world, s.dimensions), view.width, view.height);
  const bool box = s.dimensions == 3;
  const Region& r = s.region;
  for (std::size_t i = 0; i < s.count(); ++i) {
    const double x = r.origin[0] + decoded_position(s.boids.position[0][i], r.side[0]);
    const double y = r.origin[1] + decoded_position(s.boids.position[1][i], r.side[1]);
    const double z = box ? r.origin[2] + decoded_position(s.boids.position[2][i], r.side[2]) : 0.0;
    int column = 0, row = 0;
    if (!project(x, y, z, column, row)) continue;
    const std::size_t p = static_cast<std::size_t>(row) * view.width + column;
    const std::uint8_t azimuth = s.boids.heading[0][i];
    count[p] += 1;
    cosines[p] += heading.cos[azimuth];
    sines[p] += heading.sin[azimuth];
  }
  const std::uint32_t densest = *std::max_element(count.begin(), count.end());
  const double scale = 1 / std::log1p(std::max<double>(densest, 1));
  const unsigned char background[3] = {11, 14, 20};  // the page's clear colour (kDensityBackground)
  std::string& rgb = rgb_;
  rgb.resize(3 * pixels);
  for (std::size_t p = 0; p < pixels; ++p) {
    unsigned char* out = reinterpret_cast<unsigned char*>(&rgb[3 * p]);
    if (count[p] == 0) {
      std::copy(background, background + 3, out);
      continue;
    }
    // One boid is a third as bright as the densest pixel; the mean heading gives the hue.
    const double bright = 0.35 + 0.65 * std::log1p(count[p]) * scale;
    const double turns = std::atan2(sines[p], cosines[p]) / (2 * kPi);
    const std::array<double, 3> colour = heading_hue(turns < 0 ? turns + 1 : turns);
    for (int c = 0; c < 3; ++c)
      out[c] = static_cast<unsigned char>(std::lround(255 * bright * colour[c]));
  }
  return rgb;
}

namespace {

// libjpeg's errors, which must not unwind through its C frames: its handler jumps back to
// compress(), which says why and lets the caller throw.
struct JpegErrors {
  jpeg_error_mgr manager;
  std::jmp_buf back;
  char message[JMSG_LENGTH_MAX];
};

void on_jpeg_error(j_common_ptr info) {
  auto* errors = reinterpret_cast<JpegErrors*>(info->err);
  (*info->err->format_message)(info, errors->message);
  std::longjmp(errors->back, 1);
}

// The JPEG in `*buffer` (malloc'd, `*size` bytes), or false with `errors.message` said. Holds
// no C++ object that a jump could skip.
bool compress(const unsigned char* rgb, int width, int height, int quality, unsigned char** buffer,
              unsigned long* size, JpegErrors& errors) {
  jpeg_compress_struct jpeg;
  jpeg.err = jpeg_std_error(&errors.manager);
  errors.manager.error_exit = on_jpeg_error;
  if (setjmp(errors.back) != 0) {
    jpeg_destroy_compress(&jpeg);
    return false;
  }
  jpeg_create_compress(&jpeg);
  jpeg_mem_dest(&jpeg, buffer, size);
  jpeg.image_width = static_cast<JDIMENSION>(width);
  jpeg.image_height = static_cast<JDIMENSION>(height);
  jpeg.input_components = 3;
  jpeg.in_color_space = JCS_RGB;
  jpeg_set_defaults(&jpeg);
  jpeg_set_quality(&jpeg, quality, TRUE);
  jpeg_start_compress(&jpeg, TRUE);
  while (jpeg.next_scanline < jpeg.image_height) {
    JSAMPROW line = const_cast<JSAMPROW>(rgb + static_cast<std::size_t>(jpeg.next_scanline) * 3 *
                                                   static_cast<std::size_t>(width));
    jpeg_write_scanlines(&jpeg, &line, 1);
  }
  jpeg_finish_compress(&jpeg);
  jpeg_destroy_compress(&jpeg);
  return true;
}

}  // namespace

std::string encode_jpeg(const std::string& rgb, int width, int height, int quality) {
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  JpegErrors errors{};
  const bool made = compress(reinterpret_cast<const unsigned char*>(rgb.data()), width, height,
                             std::clamp(quality, 1, 100), &buffer, &size, errors);
  std::string out = made ? std::string(reinterpret_cast<const char*>(buffer), size) : "";
  std::free(buffer);
  if (!made) throw RuntimeError(std::string("cannot encode a JPEG: ") + errors.message);
  return out;
}

void PictureMaker::release() {
  ::boids::release(count_);
  ::boids::release(cosines_);
  ::boids::release(sines_);
  ::boids::release(rgb_);
}

std::string flock_pixels(const Snapshot& snapshot, const ImageView& view) {
  PictureMaker maker;
  return maker.pixels(snapshot, view);
}

}  // namespace boids::serve
