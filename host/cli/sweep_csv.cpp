#include "host/cli/sweep_csv.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <utility>

#include "host/base/checksum.h"
#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/checkpoint.h"
#include "host/io/output_file.h"

namespace boids::cli {
namespace {

// The statistics after a point's values, boids, replicas and samples; then flight and seconds.
constexpr const char* kStatisticNames[] = {
    "polarization",      "polarization_std", "polarization_sem",   "binder",
    "binder_sem",        "susceptibility",   "susceptibility_sem", "autocorrelation_steps",
    "effective_samples", "flocks",           "largest_flock",      "mean_nn_distance",
    "milling",           "milling_sem"};
constexpr std::size_t kStatistics = sizeof kStatisticNames / sizeof kStatisticNames[0];
constexpr std::size_t kFieldsAfterValues = 3 + kStatistics + 2;

// The statistics' fields, in kStatisticNames' order: the one list a row (and a JSON point) is
// written and read by.
template <typename Statistics>
std::array<decltype(&std::declval<Statistics&>().binder), kStatistics> statistic_fields(
    Statistics& s) {
  return {
      &s.polarization_mean, &s.polarization_std, &s.polarization_sem,   &s.binder,
      &s.binder_sem,        &s.susceptibility,   &s.susceptibility_sem, &s.autocorrelation_steps,
      &s.effective_samples, &s.flocks_mean,      &s.largest_flock_mean, &s.nn_distance_mean,
      &s.milling_mean,      &s.milling_sem};
}

std::string reason(int error) {
  return std::strerror(error);
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
    fields.push_back(line.substr(start, comma - start));
  }
  fields.push_back(line.substr(start));
  return fields;
}

// The whole text a number, as the rows write them (a double's nan and inf included).
template <typename Number>
bool read_whole(const std::string& text, Number& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && ptr == end && !text.empty();
}

bool is_flight(const std::string& text) {
  return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Reads one file's rows, naming the file and line in what it refuses.
class RowReader {
 public:
  RowReader(const std::vector<std::string>& params, const std::string& name)
      : params_(params), name_(name) {}

  void header(const std::string& line) const {
    if (!line.empty() && line.back() == '\r') refuse_line(1, carriage_return());
    const std::string expected = sweep_csv_header(params_);
    if (line == expected) return;
    const std::vector<std::string> got = fields_of(line), want = fields_of(expected);
    std::string why;
    for (std::size_t k = 0; k < std::min(got.size(), want.size()) && why.empty(); ++k) {
      if (got[k] != want[k]) {
        why = "its column " + std::to_string(k + 1) + " is " + quoted(got[k]) + ", not " +
              quoted(want[k]);
      }
    }
    if (why.empty()) {
      why = "it has " + std::to_string(got.size()) + " columns, not " + std::to_string(want.size());
    }
    throw InputError("--resume: " + quoted_path(name_) + " is not this sweep's (" + why + ")");
  }

  SweepRow row(const std::string& line, std::size_t number) const {
    if (!line.empty() && line.back() == '\r') refuse_line(number, carriage_return());
    const std::vector<std::string> f = fields_of(line);
    const std::size_t n = params_.size();
    if (f.size() != n + kFieldsAfterValues) {
      refuse_line(number, "a row of " + std::to_string(f.size()) + " fields, not this sweep's " +
                              std::to_string(n + kFieldsAfterValues) + ": " + quoted(line));
    }
    SweepRow r;
    r.line = number;
    for (std::size_t k = 0; k < n; ++k) {
      r.values.push_back(f[k]);
      r.numbers.push_back(number_field(f[k], params_[k], number));
    }
    EnsembleStatistics& s = r.statistics;
    r.count = count_field(f[n], "boids", number);
    s.replicas = count_field(f[n + 1], "replicas", number);
    s.samples = count_field(f[n + 2], "samples", number);
    const auto fields = statistic_fields(s);
    for (std::size_t k = 0; k < kStatistics; ++k) {
      *fields[k] = number_field(f[n + 3 + k], kStatisticNames[k], number);
    }
    r.flight = f[n + 3 + kStatistics];
    if (!is_flight(r.flight)) {
      refuse_line(number, "its flight is " + quoted(r.flight) + ", not 16 hexadecimal digits");
    }
    r.seconds = number_field(f[n + 4 + kStatistics], "elapsed_seconds", number);
    return r;
  }

 private:
  static std::string carriage_return() {
    return "it ends in a carriage return (Windows line endings); a sweep's file has \\n line "
           "endings alone";
  }
  [[noreturn]] void refuse_line(std::size_t number, const std::string& why) const {
    throw InputError("--resume: " + quoted_path(name_) + ", line " + std::to_string(number) + ": " +
                     why);
  }
  double number_field(const std::string& text, const std::string& column,
                      std::size_t number) const {
    double value = 0;
    if (!read_whole(text, value)) {
      refuse_line(number, column + " is " + quoted(text) + ", not a number");
    }
    return value;
  }
  std::uint64_t count_field(const std::string& text, const char* column, std::size_t number) const {
    std::uint64_t value = 0;
    if (!read_whole(text, value)) {
      refuse_line(number, std::string(column) + " is " + quoted(text) + ", not a count");
    }
    return value;
  }

  const std::vector<std::string>& params_;
  const std::string& name_;
};

// The whole of an open file, read from its start.
std::string read_all(int fd, const std::string& path) {
  std::string text;
  char buffer[1 << 16];
  for (off_t at = 0;;) {
    const ssize_t n = pread(fd, buffer, sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw RuntimeError("--csv: cannot read " + quoted_path(path) + ": " + reason(errno));
    if (n == 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
    at += n;
  }
}

}  // namespace

std::string sweep_csv_header(const std::vector<std::string>& params) {
  std::string header;
  for (const std::string& name : params) header += name + ",";
  header += "boids,replicas,samples";
  for (const char* name : kStatisticNames) header += std::string(",") + name;
  return header + ",flight,elapsed_seconds";
}

std::string sweep_flight(const SimulationConfig& config, const EnsemblePlan& plan) {
  Checksum sum;
  sum.add(flight_description(config));
  sum.add(" discard " + std::to_string(plan.discard) + " steps " + std::to_string(plan.steps) +
          " every " + std::to_string(plan.every));
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(sum.value()));
  return text;
}

std::vector<std::pair<const char*, double>> statistic_columns(const EnsembleStatistics& s) {
  std::vector<std::pair<const char*, double>> columns;
  const auto fields = statistic_fields(s);
  for (std::size_t k = 0; k < kStatistics; ++k)
    columns.emplace_back(kStatisticNames[k], *fields[k]);
  return columns;
}

std::string sweep_csv_row(const std::vector<std::string>& values, std::uint64_t count,
                          const EnsembleStatistics& s, const std::string& flight, double seconds) {
  std::ostringstream row;
  row.precision(17);
  for (const std::string& value : values) row << value << ",";
  row << count << "," << s.replicas << "," << s.samples;
  for (const double* field : statistic_fields(s)) row << "," << *field;
  row << "," << flight << "," << seconds;
  return row.str();
}

std::vector<SweepRow> parse_sweep_csv(const std::string& text,
                                      const std::vector<std::string>& params,
                                      const std::string& name, std::size_t& whole) {
  const std::size_t last = text.rfind('\n');
  whole = last == std::string::npos ? 0 : last + 1;
  std::vector<SweepRow> rows;
  if (whole == 0) return rows;  // not even the header reached the disk: started afresh
  const RowReader reader(params, name);
  std::size_t number = 1;
  for (std::size_t start = 0; start < whole; ++number) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    if (number == 1) {
      reader.header(line);
    } else {
      rows.push_back(reader.row(line, number));
    }
    start = end + 1;
  }
  return rows;
}

SweepCsv::SweepCsv(const std::string& path, const std::vector<std::string>& params, Start start)
    : path_(path), header_(sweep_csv_header(params)) {
  struct stat info;
  exists_ = stat(path.c_str(), &info) == 0;
  special_ = exists_ && !S_ISREG(info.st_mode);
  if (special_ && start == Start::kResume) {
    throw InputError("--resume: " + quoted_path(path) +
                     " is not a regular file: a device or FIFO is written, never read back");
  }
  if (!exists_ || special_) return;  // opened by begin()
  open_existing(start);
  if (start == Start::kResume) {
    kept_ = parse_sweep_csv(read_all(fd_, path), params, path, keep_bytes_);
  }
}

void SweepCsv::open_existing(Start start) {
  // Only a resumed file is read: a file that cannot be read is refused then, not taken as empty.
  fd_ = open(path_.c_str(), (start == Start::kResume ? O_RDWR : O_WRONLY) | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) {
    throw InputError(
        std::string(start == Start::kResume ? "--resume: cannot read " : "--csv: cannot write ") +
        quoted_path(path_) + ": " + reason(errno));
  }
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    throw InputError("--csv: " + quoted_path(path_) +
                     " is being written by another sweep (it holds the file's lock)");
  }
  struct stat info;
  if (fstat(fd_, &info) != 0) {
    throw RuntimeError("--csv: cannot read " + quoted_path(path_) + ": " + reason(errno));
  }
  if (start == Start::kNew && info.st_size > 0) {
    throw InputError("--csv: " + quoted_path(path_) + " already holds " +
                     std::to_string(info.st_size) +
                     " bytes: give --resume to continue the sweep it holds, or --overwrite to "
                     "replace it");
  }
}

SweepCsv::~SweepCsv() {
  if (fd_ >= 0) close(fd_);  // and with it the lock
}

void SweepCsv::begin() {
  if (fd_ < 0) {
    // A new file is created here, and only here: another program that made it since the sweep
    // started is not overwritten.
    const int flags = special_ ? O_WRONLY | O_APPEND : O_WRONLY | O_APPEND | O_CREAT | O_EXCL;
    fd_ = open(path_.c_str(), flags | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno == EEXIST) {
      throw InputError("--csv: " + quoted_path(path_) +
                       " was made by another program as the sweep started");
    }
    if (fd_ < 0)
      throw RuntimeError("--csv: cannot write " + quoted_path(path_) + ": " + reason(errno));
    if (!special_ && flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      throw InputError("--csv: " + quoted_path(path_) + " is being written by another sweep");
    }
  } else if (ftruncate(fd_, static_cast<off_t>(keep_bytes_)) != 0) {
    throw RuntimeError("--csv: cannot write " + quoted_path(path_) + ": " + reason(errno));
  }
  if (special_ || keep_bytes_ == 0) write_line(header_);
}

void SweepCsv::append(const std::string& row) {
  write_line(row);
}

void SweepCsv::write_line(const std::string& line) {
  if (const int error = write_all(fd_, line + "\n"); error != 0)
    throw RuntimeError("--csv: cannot write " + quoted_path(path_) + ": " + reason(error));
  // A device or FIFO has no disk to wait for (fsync refuses them).
  if (!special_ && fsync(fd_) != 0) {
    throw RuntimeError("--csv: cannot write " + quoted_path(path_) + ": " + reason(errno));
  }
}

}  // namespace boids::cli
