// Small helpers over libhdf5's C API for the trajectory writer: identifiers that close
// themselves, the reason behind a failed call, and attributes written in one call.
#pragma once

#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

namespace boids::hdf5 {

// An HDF5 identifier, closed with its own function (H5Fclose, H5Dclose, ...) when dropped.
class Id {
 public:
  using Closer = herr_t (*)(hid_t);
  Id() = default;
  Id(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Id(Id&& other) noexcept { *this = std::move(other); }
  Id& operator=(Id&& other) noexcept {
    if (this != &other) {
      reset();
      std::swap(id_, other.id_);
      std::swap(closer_, other.closer_);
    }
    return *this;
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  ~Id() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; returns false when the closing function failed.
  bool reset() {
    const hid_t id = std::exchange(id_, H5I_INVALID_HID);
    return id < 0 || closer_(id) >= 0;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

// Turns off HDF5's printing of its error stack, so that a failure reaches the user once, as
// the caller's message.
void silence_error_printing();

// Why the last failed HDF5 call failed, in plain words: the system's message where a read or
// write failed ("No space left on device"), else HDF5's innermost description.
std::string failure_reason();

// Attributes of `object`, each written whole. Strings are fixed-length, as H5MD asks. They
// return a negative value on failure, like the C API.
herr_t write_attribute(hid_t object, const char* name, long long value);
herr_t write_attribute(hid_t object, const char* name, double value);
herr_t write_attribute(hid_t object, const char* name, const std::vector<long long>& values);
herr_t write_attribute(hid_t object, const char* name, const std::vector<double>& values);
herr_t write_attribute(hid_t object, const char* name, const std::string& value);
herr_t write_attribute(hid_t object, const char* name, const std::vector<std::string>& values);

}  // namespace boids::hdf5
