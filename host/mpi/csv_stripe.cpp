#include "host/mpi/csv_stripe.h"

#include <sys/stat.h>

#include <algorithm>
#include <vector>

#include "host/base/errors.h"
#include "host/base/memory.h"
#include "host/base/message_text.h"
#include "host/io/numeric_csv.h"
#include "host/io/state_file.h"
#include "host/mpi/communicator.h"
#include "host/mpi/shared_file.h"

namespace boids::mpi {
namespace {

// A line break is looked for a block at a time; a rank's text is read in larger blocks (each
// read's bytes are counted in an int).
constexpr std::uint64_t kSearchBlock = 64 * 1024;
constexpr std::uint64_t kReadBlock = 64 * 1024 * 1024;

// Where the first line that begins at or after `at` begins: just past the first line break at
// or after at - 1, or the file's end.
std::uint64_t line_start_from(SharedFile& file, std::uint64_t at, std::uint64_t size) {
  if (at == 0) return 0;
  std::vector<char> block;
  for (std::uint64_t from = at - 1; from < size; from += kSearchBlock) {
    block.resize(std::min(kSearchBlock, size - from));
    file.get(from, block.data(), block.size());
    if (!file.failure().empty()) return size;
    const auto it = std::find(block.begin(), block.end(), '\n');
    if (it != block.end()) return from + static_cast<std::uint64_t>(it - block.begin()) + 1;
  }
  return size;
}

// The lines of `text`, whole lines of the file: a last one without its line break counts.
std::uint64_t lines_of(const std::string& text) {
  const auto breaks = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
  return breaks + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

// A rank's first row, for the lowest rank that has one to give every rank boid 0.
struct FirstRow {
  std::uint64_t has = 0;
  double values[6] = {};
};

FlockState first_boid(const FlockState& rows) {
  FirstRow mine;
  if (rows.size() > 0) {
    const bool box = rows.dimensions == 3;
    mine = {
        1,
        {rows.x[0], rows.y[0], box ? rows.z[0] : 0, rows.vx[0], rows.vy[0], box ? rows.vz[0] : 0}};
  }
  const std::vector<FirstRow> all = all_gather(std::vector<FirstRow>{mine});
  FlockState first;
  first.dimensions = rows.dimensions;
  for (const FirstRow& r : all) {
    if (r.has == 0) continue;
    first.resize(1);
    first.x[0] = r.values[0];
    first.y[0] = r.values[1];
    first.vx[0] = r.values[3];
    first.vy[0] = r.values[4];
    if (first.dimensions == 3) {
      first.z[0] = r.values[2];
      first.vz[0] = r.values[5];
    }
    break;
  }
  return first;
}

}  // namespace

std::optional<CsvStripe> read_csv_stripe(const std::string& path, const World& world,
                                         std::string& refusal) {
  std::string name = path;
  broadcast(name);
  World w = world;
  broadcast(&w, sizeof w);
  std::uint64_t size = 0;
  struct stat status {};
  if (rank() == 0 && ::stat(name.c_str(), &status) == 0)
    size = static_cast<std::uint64_t>(status.st_size);
  broadcast(&size, sizeof size);
  const std::string cannot_read = "cannot read state file " + quoted_path(name);
  SharedFile file(name, SharedFile::Mode::kRead);
  if (!file.opened()) {
    refusal = cannot_read + ": " + file.why();
    return std::nullopt;
  }
  const auto k = static_cast<std::uint64_t>(rank()), n = static_cast<std::uint64_t>(ranks());
  const std::uint64_t begin = line_start_from(file, size * k / n, size);
  const std::uint64_t end = k + 1 == n ? size : line_start_from(file, size * (k + 1) / n, size);
  std::string text(end - begin, '\0');
  for (std::uint64_t at = 0; at < text.size(); at += kReadBlock) {
    file.get(begin + at, &text[at], std::min<std::uint64_t>(kReadBlock, text.size() - at));
  }
  const std::string failed = file.finish();
  if (!failed.empty()) {
    refusal = cannot_read + ": " + failed;
    return std::nullopt;
  }

  // The lines before each rank's, and the header's dimensions from rank 0.
  const std::vector<std::uint64_t> lines = all_gather(std::vector<std::uint64_t>{lines_of(text)});
  std::uint64_t before = 0, whole_lines = 0;
  for (std::uint64_t r = 0; r < n; ++r) {
    if (r < k) before += lines[r];
    whole_lines += lines[r];
  }
  int dimensions = rank() == 0 ? csv_state_dimensions(text) : 2;
  broadcast(&dimensions, sizeof dimensions);
  const CsvPiece piece{static_cast<std::size_t>(before + 1), end == size};

  // One process refuses a NUL byte anywhere before it parses a line, then the first bad line.
  const bool text_ok = none_refused(
      [&] {
        if (!text.empty()) check_text(text, "state file", name, piece.first_line);
      },
      refusal);
  if (!text_ok) return std::nullopt;
  CsvStripe stripe;
  stripe.name = name;
  const bool rows_ok = none_refused(
      [&] {
        stripe.rows =
            parse_state_piece(text, name, w, dimensions, piece, before > 0 ? before - 1 : 0);
      },
      refusal);
  if (!rows_ok) return std::nullopt;
  release(text);

  const std::vector<std::uint64_t> rows =
      all_gather(std::vector<std::uint64_t>{stripe.rows.size()});
  for (std::uint64_t r = 0; r < n; ++r) {
    if (r < k) stripe.first += rows[r];
    stripe.whole += rows[r];
  }
  const bool some_rows = none_refused(
      [&] {
        if (rank() == 0 && stripe.whole == 0) {
          RowError("state file", name, whole_lines + 1)
              .fail("no boids (the file ends after the header)");
        }
      },
      refusal);
  if (!some_rows) return std::nullopt;
  stripe.first_boid = first_boid(stripe.rows);
  return stripe;
}

}  // namespace boids::mpi
