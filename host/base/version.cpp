#include "host/base/version.h"

#include <cstdlib>
#include <sstream>
#include <vector>

namespace boids {
namespace {

std::vector<long> parts_of(const std::string& v) {
  std::vector<long> parts;
  std::stringstream in(v);
  std::string part;
  while (std::getline(in, part, '.')) parts.push_back(std::strtol(part.c_str(), nullptr, 10));
  parts.resize(3, 0);
  return parts;
}

}  // namespace

bool later_version(const std::string& a, const std::string& b) {
  return parts_of(a) > parts_of(b);
}

}  // namespace boids
