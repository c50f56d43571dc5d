#include "host/io/detail/hdf5_support.h"

#include <algorithm>
#include <cstring>

namespace boids::hdf5 {
namespace {

struct Reason {
  std::string innermost, system;
};

// The sec2 driver reports a failed read or write as "... error message = 'File too large',
// ..."; that quote is what a user can act on.
herr_t collect_reason(unsigned n, const H5E_error2_t* error, void* data) {
  auto& reason = *static_cast<Reason*>(data);
  const std::string desc = error->desc != nullptr ? error->desc : "";
  if (n == 0) reason.innermost = desc;
  const std::string marker = "error message = '";
  const auto at = desc.find(marker);
  if (reason.system.empty() && at != std::string::npos) {
    const auto start = at + marker.size();
    reason.system = desc.substr(start, desc.find('\'', start) - start);
  }
  return 0;
}

herr_t write_whole(hid_t object, const char* name, hid_t type, hid_t space, const void* data) {
  const Id attribute(H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute.valid()) return -1;
  return H5Awrite(attribute.get(), type, data);
}

Id vector_space(std::size_t size) {
  const hsize_t dims[1] = {size};
  return Id(H5Screate_simple(1, dims, nullptr), H5Sclose);
}

// Fixed-length strings of `width` bytes, padded with zeros (at least one byte: HDF5 refuses
// an empty string type).
Id string_type(std::size_t width) {
  Id type(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!type.valid() || H5Tset_size(type.get(), std::max<std::size_t>(width, 1)) < 0 ||
      H5Tset_strpad(type.get(), H5T_STR_NULLPAD) < 0) {
    return Id();
  }
  return type;
}

}  // namespace

void silence_error_printing() {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

std::string failure_reason() {
  Reason reason;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect_reason, &reason);
  if (!reason.system.empty()) return reason.system;
  if (!reason.innermost.empty()) return reason.innermost;
  return "the HDF5 library failed";
}

herr_t write_attribute(hid_t object, const char* name, long long value) {
  const Id space(H5Screate(H5S_SCALAR), H5Sclose);
  return write_whole(object, name, H5T_NATIVE_LLONG, space.get(), &value);
}

herr_t write_attribute(hid_t object, const char* name, double value) {
  const Id space(H5Screate(H5S_SCALAR), H5Sclose);
  return write_whole(object, name, H5T_NATIVE_DOUBLE, space.get(), &value);
}

herr_t write_attribute(hid_t object, const char* name, const std::vector<long long>& values) {
  const Id space = vector_space(values.size());
  return write_whole(object, name, H5T_NATIVE_LLONG, space.get(), values.data());
}

herr_t write_attribute(hid_t object, const char* name, const std::vector<double>& values) {
  const Id space = vector_space(values.size());
  return write_whole(object, name, H5T_NATIVE_DOUBLE, space.get(), values.data());
}

herr_t write_attribute(hid_t object, const char* name, const std::string& value) {
  const Id type = string_type(value.size());
  const Id space(H5Screate(H5S_SCALAR), H5Sclose);
  std::string padded = value;
  padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
  return write_whole(object, name, type.get(), space.get(), padded.data());
}

herr_t write_attribute(hid_t object, const char* name, const std::vector<std::string>& values) {
  std::size_t width = 1;
  for (const std::string& v : values) width = std::max(width, v.size());
  std::vector<char> packed(width * values.size(), '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    std::memcpy(packed.data() + i * width, values[i].data(), values[i].size());
  const Id type = string_type(width);
  const Id space = vector_space(values.size());
  return write_whole(object, name, type.get(), space.get(), packed.data());
}

}  // namespace boids::hdf5
