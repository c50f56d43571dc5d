#include "host/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "host/errors.h"

namespace boids {
namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string reason() {
  return std::strerror(errno);
}

}  // namespace

void check_writable(const std::string& path, const std::string& what) {
  if (path.empty()) throw InputError(what + ": the file name is empty");
  struct stat info;
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    throw InputError(what + " '" + path + "' is a directory");
  }
  const std::string dir = directory_of(path);
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    throw InputError(what + " '" + path + "': cannot write to directory '" + dir +
                     "': " + reason());
  }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  std::string pattern = path + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) throw RuntimeError("cannot create a temporary file for '" + path + "': " + reason());
  const std::string temporary(name.data());
  const auto fail = [&](const std::string& what) {
    const std::string why = reason();
    close(fd);
    std::remove(temporary.c_str());
    throw RuntimeError(what + " '" + path + "': " + why);
  };
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = write(fd, contents.data() + written, contents.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    written += static_cast<std::size_t>(n);
  }
  if (fchmod(fd, 0644) != 0 || fsync(fd) != 0) fail("cannot write");
  if (close(fd) != 0) {
    const std::string why = reason();
    std::remove(temporary.c_str());
    throw RuntimeError("cannot write '" + path + "': " + why);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = reason();
    std::remove(temporary.c_str());
    throw RuntimeError("cannot replace '" + path + "': " + why);
  }
}

}  // namespace boids
