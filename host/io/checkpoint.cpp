#include "host/io/checkpoint.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "host/base/checksum.h"
#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/base/version.h"
#include "host/core/flight_rules.h"
#include "host/core/value_limits.h"
#include "host/io/detail/checkpoint_source.h"
#include "host/io/flock_writer.h"
#include "host/model/initial_state.h"

namespace boids {
namespace {

using checkpoint_detail::FileSource;
using checkpoint_detail::Header;
using checkpoint_detail::json;
using checkpoint_detail::read_value;
using checkpoint_detail::refuse_checkpoint;
using checkpoint_detail::Source;
using checkpoint_detail::StringSource;

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "checkpoints are little-endian");

constexpr char kMagic[8] = {'B', 'O', 'I', 'D', 'S', 'C', 'K', 'P'};

// The state's columns in the file's order: x, y (, z), vx, vy (, vz).
constexpr std::uint32_t kMaxHeaderBytes = 64u << 20;  // room for kMaxObstacles obstacles

using json = nlohmann::json;

// The flight as the command line checks it, before its boids are read: through the same rules
// (host/core/flight_rules.h), for the checksum guards against damage, not against a header
// that was edited and summed again.
void check_header_flight(const SimulationConfig& config, std::uint64_t step, Source& source) {
  try {
    check_steps("its step", step);
    check_flight(config);
  } catch (const InputError& e) {
    source.refuse(std::string("a flight boids refuses: ") + e.what());
  }
}

// Every boid in the world with a velocity its precision holds, the start's rules kept to the
// rounding of a flight in progress (none inside an obstacle; Vicsek speeds V); `first`: the
// index of the first of `boids` in the flock.
void check_boids(const SimulationConfig& config, const FlockState& boids, std::uint64_t first,
                 const std::string& name) {
  const World& world = config.params.world;
  const double fastest = value_limits(config.precision).largest_state_speed;
  const bool box = boids.dimensions == 3;
  for (std::size_t i = 0; i < boids.size(); ++i) {
    if (!(world.holds(0, boids.x[i]) && world.holds(1, boids.y[i]) &&
          std::abs(boids.vx[i]) <= fastest && std::abs(boids.vy[i]) <= fastest) ||
        (box && !(world.holds(2, boids.z[i]) && std::abs(boids.vz[i]) <= fastest))) {
      refuse_checkpoint(name, "boid " + std::to_string(first + i) +
                                  " is outside the world or faster than " +
                                  to_string(config.precision) + " precision holds");
    }
  }
  try {
    check_start(boids, config.params, flight_tolerance(config), first);
  } catch (const InputError& e) {
    refuse_checkpoint(name, e.what());
  }
}

// The predators in the world, out of obstacles, and no faster than their top speed (to the
// rounding of their precision).
void check_predators(const SimulationConfig& config, const Particles& predators,
                     const std::string& name) {
  try {
    check_predator_state(predators, config.params, flight_tolerance(config));
  } catch (const InputError& e) {
    refuse_checkpoint(name, e.what());
  }
}

// What a checkpoint holds but its boids: its header checked, its size the boids', the source
// at its first column.
CheckpointHead parse_head(Source& source) {
  char magic[sizeof kMagic];
  if (source.remaining() < sizeof kMagic) source.refuse("not a boids checkpoint (too short)");
  source.read(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) source.refuse("not a boids checkpoint");
  const auto format = read_value<std::uint32_t>(source);
  const auto header_bytes = read_value<std::uint32_t>(source);
  const bool sized = header_bytes <= kMaxHeaderBytes && header_bytes <= source.remaining();
  std::string text(sized ? header_bytes : 0, '\0');
  if (sized) source.read(text.data(), text.size());
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (format != kCheckpointVersion) {
    // Every format keeps the prefix, so a later one still names the boids that wrote it.
    const bool named =
        j.is_object() && j.contains("boids_version") && j["boids_version"].is_string();
    source.refuse(
        "format version " + std::to_string(format) +
        (named ? " (written by boids " + j["boids_version"].get<std::string>() + ")" : "") +
        "; this boids " + version() + " reads format version " +
        std::to_string(kCheckpointVersion));
  }
  if (!sized) source.refuse("the file is truncated or its header length is damaged");
  if (!j.is_object()) source.refuse("the header is not a JSON object");
  const Header h(j, source);
  if (h.text("format") != "boids checkpoint") source.refuse("not a boids checkpoint");
  CheckpointHead c;
  c.step = h.whole("step");
  const std::uint64_t count = h.whole("count");
  if (count == 0 || count > kMaxBoids)
    source.refuse("it holds " + std::to_string(count) + " boids");
  c.config.params = params_of(h, j, source);
  c.predators = predators_of(h, c.config.params, source);
  const auto columns = static_cast<std::uint64_t>(2 * c.config.params.dimensions);
  if (source.remaining() != count * (columns + 1) * 8 + 8) {
    source.refuse("its size does not match its " + std::to_string(count) +
                  " boids (truncated, or more was appended)");
  }
  c.config.backend = h.choice("backend", {Backend::kReference, Backend::kCpu, Backend::kCuda});
  c.config.method = h.choice("method", {Method::kNaive, Method::kHashed});
  c.config.precision = h.choice("precision", {Precision::kFloat, Precision::kDouble});
  c.config.seed = h.whole("seed");
  c.config.history = history_of(j, c.step, source);
  check_header_flight(c.config, c.step, source);
  c.count = count;
  c.columns.rows = count;
  c.columns.columns = columns;
  c.columns.fortran_order = true;
  c.columns.data_offset = source.offset();
  return c;
}

// Reads the checksum at the end of `source` and checks it against the bytes before it.
void check_checksum(Source& source) {
  const std::uint64_t expected = source.checksum();
  if (read_value<std::uint64_t>(source) != expected) {
    source.refuse("the checksum does not match: the file is damaged");
  }
}

Checkpoint parse(Source& source) {
  const CheckpointHead head = parse_head(source);
  Checkpoint c{head.config, head.step, FlockState(), {}};
  c.state.dimensions = c.config.params.dimensions;
  c.state.resize(head.count);
  c.order.resize(head.count);
  for (std::vector<double>* column : c.state.columns()) {
    source.read(column->data(), head.count * sizeof(double));
  }
  source.read(c.order.data(), head.count * sizeof(std::uint64_t));
  check_checksum(source);
  check_boids(c.config, c.state, 0, source.name());
  c.state.predators = head.predators;
  check_predators(c.config, c.state.predators, source.name());
  if (!is_permutation(c.order)) source.refuse("the order of the boids is not a permutation");
  return c;
}

}  // namespace

Checkpoint checkpoint_of(const Simulation& sim) {
  return {sim.config(), sim.steps_taken(), sim.state(), sim.backend_order()};
}

std::string checkpoint_prefix(const SimulationConfig& config, std::uint64_t step,
                              std::uint64_t count, const Particles& predators) {
  nlohmann::ordered_json header;
  header["format"] = "boids checkpoint";
  header["boids_version"] = version();
  if (*source_commit() != '\0') header["boids_commit"] = source_commit();
  header["step"] = step;
  header["count"] = count;
  header.update(nlohmann::ordered_json::parse(flight_description(config)));
  if (config.params.predators > 0)
    header["predator_state"] = checkpoint_detail::predator_state_json(predators);
  const std::string text = header.dump();
  const auto header_bytes = static_cast<std::uint32_t>(text.size());
  std::string prefix(kMagic, sizeof kMagic);
  prefix.append(reinterpret_cast<const char*>(&kCheckpointVersion), sizeof kCheckpointVersion);
  prefix.append(reinterpret_cast<const char*>(&header_bytes), sizeof header_bytes);
  return prefix + text;
}

void write_checkpoint(const Checkpoint& c, const OutputFiles::ByteSink& sink) {
  WholeFileSink whole(sink);
  const std::string prefix = checkpoint_prefix(c.config, c.step, c.state.size(), c.state.predators);
  write_checkpoint_share(whole, prefix, {c.state, 0, c.state.size()}, c.order);
}

void write_checkpoint(OutputFiles& files, const std::string& option, const Checkpoint& c) {
  files.write_pieces(option, [&](const OutputFiles::ByteSink& sink) { write_checkpoint(c, sink); });
}

std::string format_checkpoint(const Checkpoint& c) {
  std::string bytes;
  write_checkpoint(c, [&](const void* data, std::size_t size) {
    bytes.append(static_cast<const char*>(data), size);
  });
  return bytes;
}

Checkpoint parse_checkpoint(const std::string& bytes, const std::string& name) {
  StringSource source(bytes, name);
  return parse(source);
}

namespace {

constexpr std::uint64_t kBlock = 1 << 17;  // the values check_checkpoint_file reads at once

// The checkpoint at `path`, opened and sized for a FileSource.
std::ifstream open_checkpoint(const std::string& path, std::uint64_t& size) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    throw InputError("cannot open checkpoint " + quoted_path(path) + ": " + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    throw InputError("checkpoint " + quoted_path(path) + " is not a regular file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError("cannot open checkpoint " + quoted_path(path) + ": " + std::strerror(errno));
  size = static_cast<std::uint64_t>(info.st_size);
  return in;
}

}  // namespace

Checkpoint read_checkpoint(const std::string& path) {
  std::uint64_t size = 0;
  std::ifstream in = open_checkpoint(path, size);
  FileSource source(in, path, size);
  return parse(source);
}

// The columns pass through in blocks, for the checksum; the order a block at a time, each index
// marked once (a bit a boid), and judged after the checksum, as parse() judges it.
CheckpointHead check_checkpoint_file(const std::string& path) {
  std::uint64_t size = 0;
  std::ifstream in = open_checkpoint(path, size);
  FileSource source(in, path, size);
  const CheckpointHead head = parse_head(source);
  const std::uint64_t values = head.count * head.columns.columns;
  std::vector<std::uint64_t> block(static_cast<std::size_t>(std::min(values, kBlock)));
  for (std::uint64_t left = values; left > 0;) {
    const std::uint64_t n = std::min(left, kBlock);
    source.read(block.data(), n * sizeof(std::uint64_t));
    left -= n;
  }
  std::vector<bool> seen(head.count, false);
  bool permutation = true;
  for (std::uint64_t left = head.count; left > 0;) {
    const std::uint64_t n = std::min(left, kBlock);
    source.read(block.data(), n * sizeof(std::uint64_t));
    for (std::uint64_t i = 0; i < n && permutation; ++i) {
      permutation = block[i] < head.count && !seen[block[i]];
      if (permutation) seen[block[i]] = true;
    }
    left -= n;
  }
  check_checksum(source);
  if (!permutation) source.refuse("the order of the boids is not a permutation");
  return head;
}

FlockState checkpoint_boids(const CheckpointHead& head, const double* rows, std::uint64_t count) {
  FlockState boids;
  boids.dimensions = head.config.params.dimensions;
  boids.resize(count);
  const std::vector<std::vector<double>*> columns = boids.columns();
  for (std::uint64_t i = 0; i < count; ++i) {
    for (std::size_t c = 0; c < columns.size(); ++c)
      (*columns[c])[i] = rows[i * columns.size() + c];
  }
  return boids;
}

void take_changed_speed(const CheckpointHead& head, FlockState& boids) {
  const SimulationConfig& flight = head.config;
  if (!spec_of(flight.params.model).constant_speed || flight.history.empty()) return;
  const nlohmann::json change = nlohmann::json::parse(flight.history.back().record, nullptr, false);
  if (flight.history.back().step != head.step || !change.is_object() ||
      !change.contains("changed") || !change["changed"].contains("max_speed")) {
    return;
  }
  const double speed = flight.params.max_speed;
  const double tolerance = flight_tolerance(flight).speed;
  std::vector<double>* v[3] = {&boids.vx, &boids.vy, &boids.vz};
  for (std::size_t i = 0; i < boids.size(); ++i) {
    const double now = speed_of(boids, i);  // as check_start judges it
    if (!(now > 0) || std::abs(now - speed) <= tolerance * speed) continue;
    for (int a = 0; a < boids.dimensions; ++a) (*v[a])[i] *= speed / now;
  }
}

void check_checkpoint_boids(const CheckpointHead& head, const FlockState& boids,
                            std::uint64_t first, const std::string& path) {
  check_boids(head.config, boids, first, path);
}

}  // namespace boids
