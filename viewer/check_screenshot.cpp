// Checks that a viewer screenshot shows boids: enough pixels differ from the background, not
// too many, and they come in many colours (boids are coloured by heading). Looks only at the
// right 60% of the image, away from the control panel. With `reach`, the boids must also reach
// that share of the image's width: the world drawn beside the panel, not behind it.
// Usage: boids-viewer-check-screenshot FILE.png [min-share max-share min-colours [reach]]
#include <stb_image.h>  // implemented in Debian's libstb

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

int main(int argc, char** argv) {
  if (argc != 2 && argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: %s FILE.png [min-share max-share min-colours [reach]]\n", argv[0]);
    return 2;
  }
  const double min_share = argc >= 5 ? std::atof(argv[2]) : 0.01;
  const double max_share = argc >= 5 ? std::atof(argv[3]) : 0.9;
  const long min_colours = argc >= 5 ? std::atol(argv[4]) : 50;
  const double reach = argc == 6 ? std::atof(argv[5]) : 0.0;
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(argv[1], &width, &height, &channels, 3);
  if (!pixels) {
    std::fprintf(stderr, "check-screenshot: cannot read '%s': %s\n", argv[1],
                 stbi_failure_reason());
    return 1;
  }
  // The background: the bottom-right corner's colour.
  const unsigned char* corner = pixels + 3 * (static_cast<long>(height - 1) * width + (width - 1));
  const int bg[3] = {corner[0], corner[1], corner[2]};
  long covered = 0, total = 0;
  int rightmost = 0;      // the last column a boid covers
  std::set<int> colours;  // 5 bits per channel, so anti-aliasing noise does not count
  for (int y = 0; y < height; ++y) {
    for (int x = width * 2 / 5; x < width; ++x) {
      const unsigned char* p = pixels + 3 * (static_cast<long>(y) * width + x);
      ++total;
      if (std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]) <= 6) continue;
      ++covered;
      rightmost = std::max(rightmost, x);
      colours.insert((p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3));
    }
  }
  stbi_image_free(pixels);
  const double share = total > 0 ? static_cast<double>(covered) / static_cast<double>(total) : 0;
  std::printf(
      "check-screenshot: %dx%d, background %d,%d,%d, covered %.2f%%, %zu colours, to column %d\n",
      width, height, bg[0], bg[1], bg[2], 100 * share, colours.size(), rightmost);
  bool ok = true;
  if (share < min_share || share > max_share) {
    std::fprintf(stderr, "check-screenshot: covered share %.4f is outside [%g, %g]\n", share,
                 min_share, max_share);
    ok = false;
  }
  if (static_cast<long>(colours.size()) < min_colours) {
    std::fprintf(stderr, "check-screenshot: %zu colours, fewer than %ld\n", colours.size(),
                 min_colours);
    ok = false;
  }
  if (rightmost + 1 < reach * width) {
    std::fprintf(stderr, "check-screenshot: the boids reach column %d, short of %g of %d\n",
                 rightmost, reach, width);
    ok = false;
  }
  return ok ? 0 : 1;
}
