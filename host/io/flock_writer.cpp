#include "host/io/flock_writer.h"

#include <algorithm>
#include <stdexcept>

#include "host/io/npy_file.h"
#include "host/io/numeric_csv.h"
#include "host/io/state_file.h"

namespace boids {
namespace {

// Rows formatted or packed at once: a few megabytes, so that a writer holds no second copy of
// its share.
constexpr std::uint64_t kRowsAtOnce = 65536;

std::uint64_t pieces_of(std::uint64_t rows) {
  return (rows + kRowsAtOnce - 1) / kRowsAtOnce;
}

// Rows at .. at + count - 1 of `rows` as CSV lines.
std::string csv_rows(const FlockState& rows, std::uint64_t at, std::uint64_t count) {
  const std::vector<const std::vector<double>*> in = rows.columns();
  std::string out;
  out.reserve(count * 20 * in.size());
  for (std::uint64_t i = at; i < at + count; ++i) {
    for (std::size_t c = 0; c < in.size(); ++c) {
      if (c > 0) out += ',';
      out += shortest((*in[c])[i]);
    }
    out += '\n';
  }
  return out;
}

// The same rows as .npy's: each row's values, little-endian, one after another.
std::vector<std::uint64_t> npy_rows(const FlockState& rows, std::uint64_t at, std::uint64_t count) {
  const std::vector<const std::vector<double>*> in = rows.columns();
  std::vector<std::uint64_t> out(count * in.size());
  std::size_t k = 0;
  for (std::uint64_t i = at; i < at + count; ++i) {
    for (const std::vector<double>* column : in) out[k++] = little_endian_bits((*column)[i]);
  }
  return out;
}

void write_npy(FlockFileSink& sink, const FlockShare& share) {
  const std::uint64_t columns = share.rows.columns().size(), row_bytes = 8 * columns;
  const std::string header = npy_header(share.count, columns);
  const std::uint64_t rows = share.rows.size();
  sink.size(header.size() + share.count * row_bytes);
  sink.put_by_first(0, header);
  const std::uint64_t pieces = sink.most(pieces_of(rows));
  for (std::uint64_t k = 0; k < pieces; ++k) {
    const std::uint64_t at = std::min(k * kRowsAtOnce, rows);
    const std::uint64_t count = std::min(kRowsAtOnce, rows - at);
    const std::vector<std::uint64_t> bytes = npy_rows(share.rows, at, count);
    sink.put(header.size() + (share.first + at) * row_bytes, bytes.data(), count, row_bytes);
  }
}

// A row's text has no fixed length: where the writers' text does not arrive in order, each
// formats its rows once to measure them (keeping none of the text) and learns where its own
// begin, then formats them again to write them.
void write_csv(FlockFileSink& sink, const FlockShare& share) {
  const std::string header = state_header_line(share.rows.dimensions);
  const std::uint64_t rows = share.rows.size();
  const auto piece = [&](std::uint64_t k) {
    const std::uint64_t at = std::min(k * kRowsAtOnce, rows);
    return csv_rows(share.rows, at, std::min(kRowsAtOnce, rows - at));
  };
  std::uint64_t bytes = 0;
  if (!sink.streams()) {
    for (std::uint64_t k = 0; k < pieces_of(rows); ++k) bytes += piece(k).size();
  }
  const FlockFileSink::Place place = sink.place(bytes);
  sink.size(header.size() + place.total);
  sink.put_by_first(0, header);
  std::uint64_t at = header.size() + place.before;
  const std::uint64_t pieces = sink.most(pieces_of(rows));
  for (std::uint64_t k = 0; k < pieces; ++k) {
    const std::string text = piece(k);
    sink.put(at, text.data(), text.size(), 1);
    at += text.size();
  }
}

}  // namespace

void WholeFileSink::append(std::uint64_t at, const void* data, std::uint64_t bytes) {
  if (at != written_) {
    throw std::logic_error("a whole file's bytes out of order: at " + std::to_string(at) +
                           " after " + std::to_string(written_));
  }
  sum_.add(data, bytes);
  sink_(data, bytes);
  written_ += bytes;
}

void WholeFileSink::put_by_first(std::uint64_t at, std::string_view bytes) {
  append(at, bytes.data(), bytes.size());
}

void WholeFileSink::put(std::uint64_t at, const void* data, std::uint64_t count,
                        std::size_t record_bytes) {
  if (count > 0) append(at, data, count * record_bytes);
}

void WholeFileSink::append_checksum(std::uint64_t at) {
  const std::uint64_t value = sum_.value();
  append(at, &value, sizeof value);
}

void write_state_share(FlockFileSink& sink, const FlockShare& share, bool npy) {
  if (npy) {
    write_npy(sink, share);
  } else {
    write_csv(sink, share);
  }
}

void write_checkpoint_share(FlockFileSink& sink, const std::string& prefix, const FlockShare& share,
                            const std::vector<std::uint64_t>& order) {
  const std::vector<const std::vector<double>*> columns = share.rows.columns();
  const std::uint64_t n = share.count, rows = share.rows.size();
  sink.size(prefix.size() + n * 8 * (columns.size() + 1) + 8);
  sink.put_by_first(0, prefix);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    sink.put(prefix.size() + (c * n + share.first) * 8, columns[c]->data(), rows, 8);
  }
  sink.put(prefix.size() + (columns.size() * n + share.first) * 8, order.data(), rows, 8);
  sink.append_checksum(prefix.size() + n * 8 * (columns.size() + 1));
}

}  // namespace boids
