#include "host/io/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string_view>

#include "host/base/errors.h"
#include "host/base/message_text.h"

namespace boids {

namespace {

std::string reason(int error) {
  return std::strerror(error);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string identity_of(const struct stat& info) {
  return std::to_string(info.st_dev) + ":" + std::to_string(info.st_ino);
}

// `path` with every symbolic link, "." and ".." resolved, or "" (errno says why).
std::string real_path(const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return "";
  std::string result(resolved);
  std::free(resolved);
  return result;
}

mode_t new_file_mode() {
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

// Why `path` cannot be reached when stat says `error`: names the component that is not a
// directory, where that is the cause.
std::string unreachable(const std::string& path, int error) {
  if (error == ENOTDIR) {
    for (std::size_t slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      const std::string prefix = path.substr(0, slash);
      struct stat info;
      if (stat(prefix.c_str(), &info) == 0 && !S_ISDIR(info.st_mode)) {
        return quoted_path(prefix) + " is not a directory";
      }
    }
  }
  if (error == ENAMETOOLONG) return "the path is too long";
  if (error == ENOENT) return "directory " + quoted_path(directory_of(path)) + " does not exist";
  return reason(error);
}

// Why standard output failed when the write that failed is past (its errno long gone): a pipe
// whose reader has gone reports an error when polled, else the cause is unknown (EIO).
int standard_output_failure() {
  struct pollfd out = {STDOUT_FILENO, POLLOUT, 0};
  return poll(&out, 1, 0) == 1 && (out.revents & POLLERR) ? EPIPE : EIO;
}

// Flushes a directory's entries to disk, so that a rename survives a crash.
void sync_directory(const std::string& directory) {
  const int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;  // the rename has happened; the sync only makes it durable sooner
  fsync(fd);
  close(fd);
}

}  // namespace

OutputFiles::~OutputFiles() {
  for (const Output& out : outputs_) {
    if (!out.temporary.empty() && !out.committed) unlink(out.temporary.c_str());
  }
}

void OutputFiles::check(const std::string& option, const std::string& path) {
  add(option, path);
  Output& out = outputs_.back();
  if (!out.temporary.empty()) unlink(out.temporary.c_str());
  out.temporary.clear();
  out.checked_only = true;
}

bool OutputFiles::has(const std::string& option) const {
  for (const Output& out : outputs_)
    if (out.option == option && !out.checked_only) return true;
  return false;
}

OutputFiles::Output& OutputFiles::find(const std::string& option) {
  for (Output& out : outputs_)
    if (out.option == option) return out;
  throw std::logic_error("OutputFiles: no output " + option);
}

const OutputFiles::Output& OutputFiles::find(const std::string& option) const {
  return const_cast<OutputFiles*>(this)->find(option);
}

void OutputFiles::add(const std::string& option, const std::string& path,
                      const std::string& suffix) {
  if (has(option)) throw std::logic_error("OutputFiles: " + option + " added twice");
  const auto refuse = [&](const std::string& why) {
    throw InputError(option.empty() ? why : option + ": " + why);
  };
  if (path.empty()) refuse("the file name is empty");
  Output out;
  out.option = option;
  out.path = path;
  struct stat info;
  const bool exists = stat(path.c_str(), &info) == 0;
  if (!exists && errno != ENOENT)
    refuse("cannot write " + quoted_path(path) + ": " + unreachable(path, errno));
  if (exists && S_ISDIR(info.st_mode)) refuse(quoted_path(path) + " is a directory");
  if (exists && !S_ISREG(info.st_mode)) {
    if (access(path.c_str(), W_OK) != 0)
      refuse("cannot write " + quoted_path(path) + ": " + reason(errno));
    out.special = true;
    out.identity = identity_of(info);
    outputs_.push_back(std::move(out));
    return;
  }
  if (exists) {
    out.target = real_path(path);
    if (out.target.empty()) refuse("cannot resolve " + quoted_path(path) + ": " + reason(errno));
    out.mode = info.st_mode & 07777;
    out.identity = identity_of(info);
  } else {
    struct stat link;
    if (lstat(path.c_str(), &link) == 0) {
      refuse(quoted_path(path) + " is a symbolic link to a file that does not exist");
    }
    out.target = path;
    out.mode = new_file_mode();
  }
  out.directory = directory_of(out.target);
  const std::string name = base_name(out.target);
  struct stat dir;
  if (stat(out.directory.c_str(), &dir) != 0) {
    refuse("cannot write " + quoted_path(path) + ": " + unreachable(out.target, errno));
  }
  if (!S_ISDIR(dir.st_mode)) refuse(quoted_path(out.directory) + " is not a directory");
  if (name.empty()) refuse(quoted_path(path) + " names no file");
  const long limit = pathconf(out.directory.c_str(), _PC_NAME_MAX);
  const std::size_t name_max = static_cast<std::size_t>(limit > 0 ? limit : NAME_MAX);
  if (name.size() > name_max) {
    refuse("the file name is too long (" + std::to_string(name.size()) + " bytes; at most " +
           std::to_string(name_max) + ")");
  }
  if (out.target.size() >= PATH_MAX) refuse("the path is too long");
  if (!exists) {
    const std::string directory = real_path(out.directory);
    if (directory.empty()) {
      refuse("cannot resolve " + quoted_path(out.directory) + ": " + reason(errno));
    }
    out.identity = directory + "/" + name;
  }
  for (const Output& other : outputs_) {
    if (!other.special && other.identity == out.identity) {
      throw InputError(other.option + " and " + option + " name the same file (" +
                       quoted_path(other.path) + " and " + quoted_path(path) + ")");
    }
  }
  // The temporary name is short whatever the destination's: only its first 32 bytes.
  std::string pattern = out.directory + "/." + name.substr(0, 32) + ".tmp-XXXXXX" + suffix;
  const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
  if (fd < 0) {
    refuse("cannot create a file in " + quoted_path(out.directory) + ": " + reason(errno));
  }
  close(fd);
  out.temporary = pattern;
  outputs_.push_back(std::move(out));
}

int write_all(int fd, std::string_view contents) {
  std::size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

void OutputFiles::write(const std::string& option, const std::string& contents) {
  write_pieces(option, [&](const ByteSink& sink) { sink(contents.data(), contents.size()); });
}

void OutputFiles::write_pieces(const std::string& option,
                               const std::function<void(const ByteSink&)>& produce) {
  Output& out = find(option);
  if (out.special) {
    out.contents.clear();
    produce([&](const void* data, std::size_t size) {
      out.contents.append(static_cast<const char*>(data), size);
    });
    out.written = true;
    return;
  }
  const auto fail = [&](int error) {
    throw RuntimeError("cannot write " + quoted_path(out.path) + ": " + reason(error));
  };
  struct Descriptor {
    int fd;
    ~Descriptor() {
      if (fd >= 0) close(fd);
    }
  } file{open(out.temporary.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC)};
  if (file.fd < 0) fail(errno);
  // Small pieces gather in a buffer: one write call per MiB.
  std::string buffer;
  const auto flush = [&] {
    if (const int error = write_all(file.fd, buffer); error != 0) fail(error);
    buffer.clear();
  };
  produce([&](const void* data, std::size_t size) {
    if (buffer.size() + size > (std::size_t{1} << 20)) flush();
    if (size > (std::size_t{1} << 20)) {
      if (const int error =
              write_all(file.fd, std::string_view(static_cast<const char*>(data), size));
          error != 0)
        fail(error);
      return;
    }
    buffer.append(static_cast<const char*>(data), size);
  });
  flush();
  if (fchmod(file.fd, out.mode) != 0 || fsync(file.fd) != 0) fail(errno);
  const int fd = file.fd;
  file.fd = -1;
  if (close(fd) != 0) fail(errno);
  out.written = true;
}

const std::string& OutputFiles::file_to_write(const std::string& option) const {
  const Output& out = find(option);
  return out.special ? out.path : out.temporary;
}

void OutputFiles::written_externally(const std::string& option) {
  Output& out = find(option);
  out.external = true;
  if (!out.special) {
    const int fd = open(out.temporary.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fchmod(fd, out.mode) != 0 || fsync(fd) != 0) {
      const int error = errno;
      if (fd >= 0) close(fd);
      throw RuntimeError("cannot write " + quoted_path(out.path) + ": " + reason(error));
    }
    close(fd);
  }
  out.written = true;
}

void OutputFiles::commit() {
  for (const Output& out : outputs_) {
    if (!out.written && !out.checked_only) {
      throw std::logic_error("OutputFiles: " + out.option + " was not written");
    }
  }
  for (Output& out : outputs_) {
    if (out.special || out.checked_only) continue;
    if (std::rename(out.temporary.c_str(), out.target.c_str()) != 0) {
      throw RuntimeError("cannot replace " + quoted_path(out.path) + ": " + reason(errno));
    }
    out.committed = true;
    sync_directory(out.directory);
  }
  for (Output& out : outputs_) {
    if (!out.special || out.checked_only || out.external) continue;
    const int fd = open(out.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    int error = fd < 0 ? errno : 0;
    if (fd >= 0) {
      error = write_all(fd, out.contents);
      if (close(fd) != 0 && error == 0) error = errno;
    }
    if (error != 0)
      throw RuntimeError("cannot write " + quoted_path(out.path) + ": " + reason(error));
    out.committed = true;
  }
  for (const std::string& path : retired_) {
    struct stat info;
    if (lstat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    if (unlink(path.c_str()) != 0 && errno != ENOENT) {
      throw RuntimeError("cannot remove " + quoted_path(path) + ": " + reason(errno));
    }
    const std::size_t slash = path.find_last_of('/');
    sync_directory(slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash));
  }
}

void OutputFiles::retire(const std::string& path) {
  retired_.push_back(path);
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  OutputFiles files;
  try {
    files.add("", path);
  } catch (const InputError& e) {
    throw RuntimeError(e.what());  // a path from a program, not from the command line
  }
  files.write("", contents);
  files.commit();
}

bool has_extension(const std::string& path, const std::string& extension) {
  const std::string name = base_name(path);
  if (name.size() <= extension.size()) return false;
  for (std::size_t i = 0; i < extension.size(); ++i) {
    const char c = name[name.size() - extension.size() + i];
    if (std::tolower(static_cast<unsigned char>(c)) !=
        std::tolower(static_cast<unsigned char>(extension[i])))
      return false;
  }
  return true;
}

void finish_standard_output() {
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  if (!flushed || std::ferror(stdout) || !std::cout) {
    const int error = errno != 0 ? errno : standard_output_failure();
    std::clearerr(stdout);
    throw RuntimeError("cannot write to standard output: " + reason(error));
  }
}

ScratchFile::ScratchFile(const std::string& suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/boids-XXXXXX" + suffix;
  fd_ = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
  if (fd_ < 0) {
    throw RuntimeError("cannot create a scratch file in '" + directory_of(pattern) +
                       "': " + reason(errno));
  }
  path_ = pattern;
}

ScratchFile::~ScratchFile() {
  if (fd_ >= 0) close(fd_);
  unlink(path_.c_str());
}

void ScratchFile::write(const std::string& contents) {
  if (const int error = write_all(fd_, contents); error != 0) {
    throw RuntimeError("cannot write the scratch file " + quoted_path(path_) + ": " +
                       reason(error));
  }
}

}  // namespace boids
