#include "host/core/config.h"

namespace boids {

std::string to_string(Backend backend) {
  switch (backend) {
    case Backend::kReference:
      return "reference";
    case Backend::kCpu:
      return "cpu";
    case Backend::kCuda:
      return "cuda";
  }
  return "?";
}

std::string to_string(Method method) {
  return method == Method::kNaive ? "naive" : "hashed";
}

std::string to_string(Precision precision) {
  return precision == Precision::kFloat ? "float" : "double";
}

std::optional<Backend> parse_backend(const std::string& name) {
  if (name == "reference") return Backend::kReference;
  if (name == "cpu") return Backend::kCpu;
  if (name == "cuda") return Backend::kCuda;
  return std::nullopt;
}

std::optional<Method> parse_method(const std::string& name) {
  if (name == "naive") return Method::kNaive;
  if (name == "hashed") return Method::kHashed;
  return std::nullopt;
}

std::optional<Precision> parse_precision(const std::string& name) {
  if (name == "float") return Precision::kFloat;
  if (name == "double") return Precision::kDouble;
  return std::nullopt;
}

}  // namespace boids
