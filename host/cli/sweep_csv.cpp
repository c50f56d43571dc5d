#include "host/cli/sweep_csv.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/base/checksum.h"
#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/io/checkpoint.h"

namespace boids::cli {

std::string sweep_csv_header(const std::vector<std::string>& params) {
  std::string header;
  for (const std::string& name : params) header += name + ",";
  return header +
         "boids,replicas,samples,polarization,polarization_std,polarization_sem,binder,"
         "susceptibility,flocks,largest_flock,mean_nn_distance,flight,elapsed_seconds";
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

std::string sweep_csv_row(const std::vector<std::string>& point, std::uint64_t count,
                          const EnsembleStatistics& s, const std::string& flight, double seconds) {
  std::ostringstream row;
  row.precision(17);
  for (const std::string& value : point) row << value << ",";
  row << count << "," << s.replicas << "," << s.samples << "," << s.polarization_mean << ","
      << s.polarization_std << "," << s.polarization_sem << "," << s.binder << ","
      << s.susceptibility << "," << s.groups_mean << "," << s.largest_group_mean << ","
      << s.nn_distance_mean << "," << flight << "," << seconds;
  return row.str();
}

FinishedPoints finished_sweep_points(const std::string& path,
                                     const std::vector<std::string>& params) {
  FinishedPoints done;
  std::ifstream in(path, std::ios::binary);
  if (!in) return done;  // nothing to resume: the sweep starts the file
  std::ostringstream contents;
  contents << in.rdbuf();
  const std::string text = contents.str();
  const std::size_t whole = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  if (whole == 0) return done;  // not even the header reached the disk: started afresh
  std::stringstream lines(text.substr(0, whole));
  std::string line;
  if (!std::getline(lines, line) || line != sweep_csv_header(params)) {
    throw InputError("--resume: " + quoted_path(path) + " is not this sweep's (its header is " +
                     boids::quoted(line) + ", not " + boids::quoted(sweep_csv_header(params)) +
                     ")");
  }
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string f; std::getline(row, f, ',');) fields.push_back(f);
    if (fields.size() != params.size() + 13) {
      throw InputError("--resume: " + quoted_path(path) +
                       " holds a row that is not this "
                       "sweep's: " +
                       boids::quoted(line));
    }
    const auto split = fields.begin() + static_cast<std::ptrdiff_t>(params.size());
    done[std::vector<std::string>(fields.begin(), split)] =
        std::vector<std::string>(split, fields.end());
  }
  if (whole < text.size()) std::filesystem::resize_file(path, whole);
  return done;
}

bool sweep_csv_started(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  return std::getline(in, line) && !in.eof();
}

void append_synced_line(const std::string& path, const std::string& line, bool truncate) {
  FILE* file = std::fopen(path.c_str(), truncate ? "w" : "a");
  if (!file) throw RuntimeError("--csv: cannot write " + quoted_path(path));
  const bool written = std::fputs((line + "\n").c_str(), file) >= 0 && std::fflush(file) == 0 &&
                       fsync(fileno(file)) == 0;
  if (std::fclose(file) != 0 || !written) {
    throw RuntimeError("--csv: cannot write " + quoted_path(path));
  }
}

}  // namespace boids::cli
