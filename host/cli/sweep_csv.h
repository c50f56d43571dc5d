// A sweep's CSV file: a header naming the swept parameters and the statistics, then a row a
// point, appended and synced as each point finishes, so that a killed sweep keeps every point
// it finished and a resumed one knows which they are.
//
// It is the one output written as the command goes, so it is guarded as it goes: checked and
// opened before any work, locked against a second sweep for as long as this one writes it, never
// started over a file that holds rows unless asked (--overwrite), and read back under --resume
// only when it is a regular file, every row parsed and checked.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "host/core/ensemble.h"

namespace boids::cli {

std::string sweep_csv_header(const std::vector<std::string>& params);

// The `flight` of a point: a checksum, as 16 hex digits, of everything that shapes its flights
// beside the replicas and samples (the configuration with its backend, method, precision and
// first seed, and the plan), so that --resume keeps only points this sweep would fly alike.
std::string sweep_flight(const SimulationConfig& config, const EnsemblePlan& plan);

// A point's statistics, each with its name as the CSV's header and the JSON's keys give it, in
// the CSV's order.
std::vector<std::pair<const char*, double>> statistic_columns(const EnsembleStatistics& s);

// A point's row: its values (as given), the flocks' size, the statistics, its flight and the
// seconds since the sweep started.
std::string sweep_csv_row(const std::vector<std::string>& values, std::uint64_t count,
                          const EnsembleStatistics& s, const std::string& flight, double seconds);

// A row read back, each field parsed.
struct SweepRow {
  std::size_t line = 0;             // in the file, from 1 (the header)
  std::vector<std::string> values;  // the point's values, as written
  std::vector<double> numbers;      // the same, as numbers
  std::uint64_t count = 0;
  EnsembleStatistics statistics;
  std::string flight;
  double seconds = 0;
};

// The whole rows of `text`, a sweep's file over `params` (`name` for messages); a last line
// without its newline (cut by a kill) is left out, and `whole` says how many bytes the rows
// take. Throws InputError naming the file and line for another sweep's header, a CRLF line, a
// row of the wrong width or a field that is not what it must be (a number, a count, a flight).
std::vector<SweepRow> parse_sweep_csv(const std::string& text,
                                      const std::vector<std::string>& params,
                                      const std::string& name, std::size_t& whole);

class SweepCsv {
 public:
  enum class Start { kNew, kResume, kOverwrite };

  // Opens the sweep's file before any work (the path itself was checked as an output):
  //   kNew       refuses a file that holds anything (an earlier sweep's rows would be lost)
  //   kResume    reads back its rows (kept()); refuses a device, a FIFO or a file it cannot read
  //   kOverwrite replaces what the file holds, once begin() is called
  // A regular file is locked (flock) until this object goes, and a file another sweep holds is
  // refused. Throws InputError naming the option and the file.
  SweepCsv(const std::string& path, const std::vector<std::string>& params, Start start);
  SweepCsv(const SweepCsv&) = delete;
  SweepCsv& operator=(const SweepCsv&) = delete;
  ~SweepCsv();

  const std::vector<SweepRow>& kept() const { return kept_; }

  // Starts writing: a resumed file is cut to its whole rows, an overwritten one emptied, and a
  // file without a header starts with one.
  void begin();

  // Appends a row and waits for the disk (a device or FIFO takes it as it comes).
  void append(const std::string& row);

 private:
  void open_existing(Start start);
  void write_line(const std::string& line);

  std::string path_, header_;
  int fd_ = -1;
  bool exists_ = false, special_ = false;
  std::size_t keep_bytes_ = 0;  // what begin() keeps of an existing file
  std::vector<SweepRow> kept_;
};

}  // namespace boids::cli
