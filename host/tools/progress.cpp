#include "host/tools/progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>

namespace boids::tools {

ProgressBar::ProgressBar(std::uint64_t total, std::string unit)
    : total_(total), unit_(std::move(unit)), enabled_(total > 0 && isatty(STDERR_FILENO)) {}

ProgressBar::~ProgressBar() {
  finish();
}

void ProgressBar::update(std::uint64_t done) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - start_ < std::chrono::milliseconds(500) ||
      now - last_draw_ < std::chrono::milliseconds(100))
    return;
  last_draw_ = now;
  constexpr int kWidth = 40;
  const double fraction = static_cast<double>(done) / static_cast<double>(total_);
  const int filled = static_cast<int>(fraction * kWidth);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double remaining =
      done > 0 ? elapsed * static_cast<double>(total_ - done) / static_cast<double>(done) : 0;
  std::fprintf(stderr, "\r[%s%s] %3d%% %llu/%llu %s, %.0f s left ",
               std::string(filled, '#').c_str(), std::string(kWidth - filled, ' ').c_str(),
               static_cast<int>(fraction * 100), static_cast<unsigned long long>(done),
               static_cast<unsigned long long>(total_), unit_.c_str(), remaining);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r%s\r", std::string(80, ' ').c_str());
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace boids::tools
